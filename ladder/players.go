package ladder

import (
	"fmt"
	"math/rand/v2"

	"github.com/twofold-chess/twofold/board"
	"github.com/twofold-chess/twofold/internal/mathx"
	"github.com/twofold-chess/twofold/movegen"
)

// newRNG returns a generator fully determined by seed, so every run of the
// ladder with the same seeds plays the same games.
func newRNG(seed uint64) *rand.Rand {
	return rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
}

// randomPlayer is the bottom rung: any legal move, uniformly.
type randomPlayer struct {
	rng *rand.Rand
	ml  movegen.MoveList
}

// NewRandom returns a player that picks a uniformly random legal move. It is
// the floor of the ladder: anything that has learnt the rules of the game
// beyond move legality should beat it almost always.
func NewRandom(seed uint64) Player { return &randomPlayer{rng: newRNG(seed)} }

func (r *randomPlayer) Name() string { return "random" }

// NewGame keeps the random stream running: restarting it would replay the
// same game every time an opening comes round again.
func (r *randomPlayer) NewGame() {}

func (r *randomPlayer) Move(p *board.Position) board.Move {
	movegen.Legal(p, &r.ml)
	if r.ml.Len() == 0 {
		return board.NoMove
	}
	return r.ml.At(r.rng.IntN(r.ml.Len()))
}

// greedyValue is the greedy player's idea of a piece's worth (P1 N3 B3 R5
// Q9), indexed by board.PieceType; the king is never captured.
var greedyValue = [...]int{board.Pawn: 1, board.Knight: 3, board.Bishop: 3, board.Rook: 5, board.Queen: 9, board.King: 0}

// greedyPlayer is the second rung: it grabs material one ply deep.
type greedyPlayer struct {
	rng  *rand.Rand
	ml   movegen.MoveList
	best []board.Move
}

// NewGreedy returns a one-ply greedy player: it plays the capture of the
// most valuable victim (pawn 1, knight 3, bishop 3, rook 5, queen 9; en
// passant and capture-promotions count as captures), breaking ties at
// random, and a uniformly random move when nothing can be captured. It does
// not look at what it loses back, so it takes a defended queen with its own
// queen; the rung measures whether a player punishes such blunders.
func NewGreedy(seed uint64) Player { return &greedyPlayer{rng: newRNG(seed)} }

func (g *greedyPlayer) Name() string { return "greedy" }

// NewGame keeps the random stream running (see the random player).
func (g *greedyPlayer) NewGame() {}

func (g *greedyPlayer) Move(p *board.Position) board.Move {
	movegen.Legal(p, &g.ml)
	if g.ml.Len() == 0 {
		return board.NoMove
	}
	g.best = g.best[:0]
	bestValue := 0
	for _, m := range g.ml.Moves() {
		victim := p.CapturedPiece(m)
		if victim == board.NoPiece {
			continue
		}
		switch v := greedyValue[victim.Type()]; {
		case v > bestValue:
			bestValue = v
			g.best = append(g.best[:0], m)
		case v == bestValue:
			g.best = append(g.best, m)
		}
	}
	if len(g.best) == 0 {
		return g.ml.At(g.rng.IntN(g.ml.Len()))
	}
	return g.best[g.rng.IntN(len(g.best))]
}

// rungDepths are the alpha-beta depths of the ladder, weakest first.
var rungDepths = [...]int{1, 2, 3, 4}

// Rungs returns new instances of the fixed rungs, weakest first: random,
// greedy, then alpha-beta at depths 1, 2, 3 and 4. Each rung gets its own
// seed derived from seed, so one number reproduces a whole ladder run.
// Fresh instances are returned because players keep state (their random
// streams and search buffers) and must not be shared between goroutines.
func Rungs(seed uint64) []Player {
	rungs := []Player{
		NewRandom(mathx.SplitMix64(seed)),
		NewGreedy(mathx.SplitMix64(seed + 1)),
	}
	for i, d := range rungDepths {
		rungs = append(rungs, NewAlphaBeta(d, mathx.SplitMix64(seed+2+uint64(i))))
	}
	return rungs
}

// RungNames returns the names of the rungs in ladder order, the CSV columns.
func RungNames() []string {
	names := []string{"random", "greedy"}
	for _, d := range rungDepths {
		names = append(names, alphaBetaName(d))
	}
	return names
}

func alphaBetaName(depth int) string { return fmt.Sprintf("alphabeta-d%d", depth) }
