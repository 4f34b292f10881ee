package ladder

import (
	"math/rand/v2"

	"github.com/twofold-chess/twofold/board"
	"github.com/twofold-chess/twofold/movegen"
)

// Search scores, in centipawns from the side to move's view. A side mated
// at ply n of the search scores -(mateScore - n), so a mate found sooner is
// worth more and the searcher plays the fastest mate and the slowest loss.
const (
	mateScore = 100_000
	infinity  = 1_000_000
	// maxDepth bounds the depth so the per-ply buffers stay small; the
	// ladder uses 1 to 4.
	maxDepth = 16
)

// Material values of the simple evaluation, indexed by board.PieceType.
var materialValue = [...]int{board.Pawn: 100, board.Knight: 320, board.Bishop: 330, board.Rook: 500, board.Queen: 900, board.King: 0}

// The piece-square tables of Tomasz Michniewski's "Simplified Evaluation
// Function", king with its middlegame table. They are written as the board
// is drawn from White's side, rank 8 in the first row and a1 at index 56,
// so White's square s reads index s^56 and Black's square s reads index s
// (the mirror image). They are constants on purpose: the ladder must never
// change, so no tuning ever reaches them.
var (
	pawnTable = [64]int{
		0, 0, 0, 0, 0, 0, 0, 0,
		50, 50, 50, 50, 50, 50, 50, 50,
		10, 10, 20, 30, 30, 20, 10, 10,
		5, 5, 10, 25, 25, 10, 5, 5,
		0, 0, 0, 20, 20, 0, 0, 0,
		5, -5, -10, 0, 0, -10, -5, 5,
		5, 10, 10, -20, -20, 10, 10, 5,
		0, 0, 0, 0, 0, 0, 0, 0,
	}
	knightTable = [64]int{
		-50, -40, -30, -30, -30, -30, -40, -50,
		-40, -20, 0, 0, 0, 0, -20, -40,
		-30, 0, 10, 15, 15, 10, 0, -30,
		-30, 5, 15, 20, 20, 15, 5, -30,
		-30, 0, 15, 20, 20, 15, 0, -30,
		-30, 5, 10, 15, 15, 10, 5, -30,
		-40, -20, 0, 5, 5, 0, -20, -40,
		-50, -40, -30, -30, -30, -30, -40, -50,
	}
	bishopTable = [64]int{
		-20, -10, -10, -10, -10, -10, -10, -20,
		-10, 0, 0, 0, 0, 0, 0, -10,
		-10, 0, 5, 10, 10, 5, 0, -10,
		-10, 5, 5, 10, 10, 5, 5, -10,
		-10, 0, 10, 10, 10, 10, 0, -10,
		-10, 10, 10, 10, 10, 10, 10, -10,
		-10, 5, 0, 0, 0, 0, 5, -10,
		-20, -10, -10, -10, -10, -10, -10, -20,
	}
	rookTable = [64]int{
		0, 0, 0, 0, 0, 0, 0, 0,
		5, 10, 10, 10, 10, 10, 10, 5,
		-5, 0, 0, 0, 0, 0, 0, -5,
		-5, 0, 0, 0, 0, 0, 0, -5,
		-5, 0, 0, 0, 0, 0, 0, -5,
		-5, 0, 0, 0, 0, 0, 0, -5,
		-5, 0, 0, 0, 0, 0, 0, -5,
		0, 0, 0, 5, 5, 0, 0, 0,
	}
	queenTable = [64]int{
		-20, -10, -10, -5, -5, -10, -10, -20,
		-10, 0, 0, 0, 0, 0, 0, -10,
		-10, 0, 5, 5, 5, 5, 0, -10,
		-5, 0, 5, 5, 5, 5, 0, -5,
		0, 0, 5, 5, 5, 5, 0, -5,
		-10, 5, 5, 5, 5, 5, 0, -10,
		-10, 0, 5, 0, 0, 0, 0, -10,
		-20, -10, -10, -5, -5, -10, -10, -20,
	}
	kingTable = [64]int{
		-30, -40, -40, -50, -50, -40, -40, -30,
		-30, -40, -40, -50, -50, -40, -40, -30,
		-30, -40, -40, -50, -50, -40, -40, -30,
		-30, -40, -40, -50, -50, -40, -40, -30,
		-20, -30, -30, -40, -40, -30, -30, -20,
		-10, -20, -20, -20, -20, -20, -20, -10,
		20, 20, 0, 0, 0, 0, 20, 20,
		20, 30, 10, 0, 0, 10, 30, 20,
	}
)

// pieceSquare[pt][i] is material plus table value for table index i (see
// the tables for how squares map to indices), folded once so the leaf
// evaluation is one lookup per piece.
var pieceSquare = func() (t [6][64]int) {
	tables := [6]*[64]int{&pawnTable, &knightTable, &bishopTable, &rookTable, &queenTable, &kingTable}
	for pt := range tables {
		for i := range 64 {
			t[pt][i] = materialValue[pt] + tables[pt][i]
		}
	}
	return t
}()

// evaluate returns the simple evaluation from the side to move's view.
func evaluate(p *board.Position) int {
	score := 0
	for pt := board.Pawn; pt <= board.King; pt++ {
		for bb := p.Pieces(board.White, pt); bb != 0; {
			score += pieceSquare[pt][bb.PopLSB()^56]
		}
		for bb := p.Pieces(board.Black, pt); bb != 0; {
			score -= pieceSquare[pt][bb.PopLSB()]
		}
	}
	if p.Side() == board.Black {
		return -score
	}
	return score
}

// alphaBeta is the classical rung: fixed-depth negamax with alpha-beta and
// nothing else, so its strength depends only on its depth.
type alphaBeta struct {
	depth int
	rng   *rand.Rand
	lists [maxDepth + 1]movegen.MoveList
	keys  [maxDepth + 1][movegen.MaxMoves]int
	ties  []board.Move
	nodes int // nodes of the last search, for benchmarks
	score int // best root score of the last search, for tests
}

// NewAlphaBeta returns the classical searcher at a fixed depth in plies
// (clamped to 1..16; the ladder uses 1 to 4): plain negamax alpha-beta with
// no quiescence search and no transposition table, scoring leaves with
// material (P100 N320 B330 R500 Q900) plus Michniewski's simplified
// piece-square tables. Checkmate scores by distance so the fastest mate is
// played; stalemate, the fifty-move rule, insufficient material and any
// repetition inside the tree score zero. Captures are searched first
// (most valuable victim, least valuable attacker) only to cut the tree
// faster; the result is what a full minimax would give. Among root moves of
// equal score it picks at random with the seed, so games from the same
// opening differ.
func NewAlphaBeta(depth int, seed uint64) Player {
	depth = max(1, min(depth, maxDepth))
	return &alphaBeta{depth: depth, rng: newRNG(seed)}
}

func (a *alphaBeta) Name() string { return alphaBetaName(a.depth) }

// NewGame keeps the random stream running (see the random player); the
// search keeps nothing else between moves.
func (a *alphaBeta) NewGame() {}

// Move searches p to the player's depth with make/unmake, leaving p as it
// was. The root is searched with a window just below the best score so far,
// which gives the exact score of every move that ties the best one; the
// move is then drawn from those ties.
func (a *alphaBeta) Move(p *board.Position) board.Move {
	ml := &a.lists[0]
	movegen.Legal(p, ml)
	if ml.Len() == 0 {
		return board.NoMove
	}
	a.order(p, 0)
	a.nodes = 0
	a.ties = a.ties[:0]
	best := -infinity
	for _, m := range ml.Moves() {
		p.Make(m)
		score := -a.negamax(p, a.depth-1, 1, -infinity, -(best - 1))
		p.Unmake()
		switch {
		case score > best:
			best = score
			a.ties = append(a.ties[:0], m)
		case score == best:
			a.ties = append(a.ties, m)
		}
	}
	a.score = best
	return a.ties[a.rng.IntN(len(a.ties))]
}

// negamax returns the score of p from the side to move's view, searched
// depth more plies, ply plies below the root. Terminal positions are
// recognised at every node, leaves included, so even depth 1 sees a mate
// in one.
func (a *alphaBeta) negamax(p *board.Position, depth, ply, alpha, beta int) int {
	a.nodes++
	if p.IsRepetition() || p.InsufficientMaterial() {
		return 0
	}
	ml := &a.lists[ply]
	movegen.Legal(p, ml)
	if ml.Len() == 0 {
		if movegen.InCheck(p) {
			return -(mateScore - ply)
		}
		return 0
	}
	if p.FiftyMoveRule() {
		return 0 // after the mate test: a mate on the hundredth ply still wins
	}
	if depth == 0 {
		return evaluate(p)
	}
	a.order(p, ply)
	best := -infinity
	for _, m := range ml.Moves() {
		p.Make(m)
		score := -a.negamax(p, depth-1, ply+1, -beta, -alpha)
		p.Unmake()
		if score > best {
			best = score
			if score > alpha {
				alpha = score
				if alpha >= beta {
					break
				}
			}
		}
	}
	return best
}

// order sorts the moves at ply: captures by most valuable victim, then least
// valuable attacker, promotions by the piece gained, quiet moves last in
// generation order (a stable insertion sort; lists are short).
func (a *alphaBeta) order(p *board.Position, ply int) {
	moves := a.lists[ply].Moves()
	keys := a.keys[ply][:len(moves)]
	for i, m := range moves {
		k := 0
		if victim := p.CapturedPiece(m); victim != board.NoPiece {
			k = 8*materialValue[victim.Type()] + 8 - int(p.PieceAt(m.From()).Type())
		}
		if m.Kind() == board.Promotion {
			k += 8 * materialValue[m.PromotionType()]
		}
		keys[i] = k
	}
	for i := 1; i < len(moves); i++ {
		m, k := moves[i], keys[i]
		j := i
		for ; j > 0 && keys[j-1] < k; j-- {
			moves[j], keys[j] = moves[j-1], keys[j-1]
		}
		moves[j], keys[j] = m, k
	}
}
