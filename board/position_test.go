package board_test

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twofold-chess/twofold/board"
	"github.com/twofold-chess/twofold/movegen"
)

// checkAllMoves makes and unmakes every legal move of p, checking after each
// Make that the incremental key and KeyAfter's prediction equal the
// from-scratch one and after each
// Unmake that the position is restored exactly. It returns the moves.
func checkAllMoves(t *testing.T, p *board.Position) []board.Move {
	t.Helper()
	fen, key, ply := p.FEN(), p.Key(), p.Ply()
	var ml movegen.MoveList
	movegen.Legal(p, &ml)
	moves := append([]board.Move(nil), ml.Moves()...)
	for _, m := range moves {
		predicted := p.KeyAfter(m)
		p.Make(m)
		assert.Equal(t, scratchKey(t, p), predicted, "KeyAfter(%s) from %s", m.UCI(true), fen)
		if !assert.Equal(t, scratchKey(t, p), p.Key(), "key after %s (%s) from %s -> %s", m, m.UCI(true), fen, p.FEN()) {
			p.Unmake()
			continue
		}
		assert.Equal(t, m, p.LastMove())
		assert.Equal(t, ply+1, p.Ply())
		p.Unmake()
		assert.Equal(t, fen, p.FEN(), "FEN after unmaking %s", m)
		assert.Equal(t, key, p.Key(), "key after unmaking %s from %s", m, fen)
		assert.Equal(t, ply, p.Ply())
	}
	return moves
}

// TestMakeUnmakeWalk walks a pseudo-random game from each suite position and
// checks every legal move along the way; then it unwinds the whole walk and
// expects the starting position back.
func TestMakeUnmakeWalk(t *testing.T) {
	fens := append(epdFENs(t, "../testdata/perft126.epd"), epdFENs(t, "../testdata/frc_perft.epd")...)
	walk := 24
	if testing.Short() {
		walk = 8
	}
	rng := rand.New(rand.NewPCG(1, 2))
	var kinds [4]int
	promos := map[board.PieceType]int{}
	for _, fen := range fens {
		p := mustFEN(t, fen)
		start, startKey := p.FEN(), p.Key()
		var fens []string
		for i := 0; i < walk; i++ {
			moves := checkAllMoves(t, p)
			for _, m := range moves {
				kinds[m.Kind()>>14]++
				if m.Kind() == board.Promotion {
					promos[m.PromotionType()]++
				}
			}
			if len(moves) == 0 {
				break
			}
			// Prefer special moves so the walk reaches them more often.
			m := moves[rng.IntN(len(moves))]
			for _, x := range moves {
				if x.Kind() != board.Normal && rng.IntN(2) == 0 {
					m = x
					break
				}
			}
			fens = append(fens, p.FEN())
			p.Make(m)
		}
		for i := len(fens) - 1; i >= 0; i-- {
			p.Unmake()
			require.Equal(t, fens[i], p.FEN(), "unwinding from %s", start)
		}
		assert.Equal(t, start, p.FEN())
		assert.Equal(t, startKey, p.Key())
		assert.Equal(t, 0, p.Ply())
	}
	// The walk must have exercised every kind of move.
	for k, n := range kinds {
		assert.Positive(t, n, "move kind %d never generated", k)
	}
	for _, pt := range []board.PieceType{board.Knight, board.Bishop, board.Rook, board.Queen} {
		assert.Positive(t, promos[pt], "promotion to %c never generated", pt.Letter())
	}
}

func mustUCI(t *testing.T, p *board.Position, s string) board.Move {
	t.Helper()
	m, err := movegen.ParseUCI(p, s)
	require.NoError(t, err, "%s in %s", s, p.FEN())
	return m
}

// TestMakeExact checks the position after particular special moves.
func TestMakeExact(t *testing.T) {
	tests := []struct {
		name  string
		fen   string
		moves []string // UCI, in the position's own castling notation
		after string
	}{
		{"double push sets e.p. when a capture is possible",
			"4k3/8/8/8/3p4/8/4P3/4K3 w - - 5 30", []string{"e2e4"},
			"4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 30"},
		{"double push without an adjacent pawn sets no e.p.",
			"4k3/8/8/8/8/8/4P3/4K3 w - - 5 30", []string{"e2e4"},
			"4k3/8/8/8/4P3/8/8/4K3 b - - 0 30"},
		{"e.p. capture by white",
			"4k3/8/8/3Pp3/8/8/8/4K3 w - e6 0 2", []string{"d5e6"},
			"4k3/8/4P3/8/8/8/8/4K3 b - - 0 2"},
		{"e.p. capture by black",
			"4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 2", []string{"d4e3"},
			"4k3/8/8/8/8/4p3/8/4K3 w - - 0 3"},
		{"e.p. right lapses after another move",
			"4k3/8/8/3Pp3/8/8/8/4K3 w - e6 0 2", []string{"e1e2"},
			"4k3/8/8/3Pp3/8/8/4K3/8 b - - 1 2"},
		{"white castles short", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 3 10", []string{"e1g1"},
			"r3k2r/8/8/8/8/8/8/R4RK1 b kq - 4 10"},
		{"white castles long", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 3 10", []string{"e1c1"},
			"r3k2r/8/8/8/8/8/8/2KR3R b kq - 4 10"},
		{"black castles short", "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 3 10", []string{"e8g8"},
			"r4rk1/8/8/8/8/8/8/R3K2R w KQ - 4 11"},
		{"black castles long", "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 3 10", []string{"e8c8"},
			"2kr3r/8/8/8/8/8/8/R3K2R w KQ - 4 11"},
		{"king move drops both rights", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", []string{"e1f1"},
			"r3k2r/8/8/8/8/8/8/R4K1R b kq - 1 1"},
		{"rook move drops one right", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", []string{"a1b1"},
			"r3k2r/8/8/8/8/8/8/1R2K2R b Kkq - 1 1"},
		{"capturing a rook drops its right", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", []string{"a1a8"},
			"R3k2r/8/8/8/8/8/8/4K2R b Kk - 0 1"},
		{"rook takes rook on h-file", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", []string{"h1h8"},
			"r3k2R/8/8/8/8/8/8/R3K3 b Qq - 0 1"},
		{"bishop takes castling rook", "r3k2r/8/8/8/8/8/6b1/R3K2R b KQkq - 0 1", []string{"g2h1"},
			"r3k2r/8/8/8/8/8/8/R3K2b w Qkq - 0 2"},
		{"promotion to queen", "8/4P3/8/8/8/8/k7/4K3 w - - 7 50", []string{"e7e8q"},
			"4Q3/8/8/8/8/8/k7/4K3 b - - 0 50"},
		{"promotion to rook", "8/4P3/8/8/8/8/k7/4K3 w - - 7 50", []string{"e7e8r"},
			"4R3/8/8/8/8/8/k7/4K3 b - - 0 50"},
		{"promotion to bishop", "8/4P3/8/8/8/8/k7/4K3 w - - 7 50", []string{"e7e8b"},
			"4B3/8/8/8/8/8/k7/4K3 b - - 0 50"},
		{"promotion to knight", "8/4P3/8/8/8/8/k7/4K3 w - - 7 50", []string{"e7e8n"},
			"4N3/8/8/8/8/8/k7/4K3 b - - 0 50"},
		{"black capture-promotion on a castling rook", "r3k2r/8/8/8/8/8/6p1/R3K2R b KQkq - 0 1", []string{"g2h1n"},
			"r3k2r/8/8/8/8/8/8/R3K2n w Qkq - 0 2"},
		{"white capture-promotion on a castling rook", "r3k2r/1P6/8/8/8/8/8/R3K2R w KQkq - 0 1", []string{"b7a8q"},
			"Q3k2r/8/8/8/8/8/8/R3K2R b KQk - 0 1"},
		{"Chess960 castling, king stays", "4k3/8/8/8/8/8/8/6KR w H - 0 1", []string{"g1h1"},
			"4k3/8/8/8/8/8/8/5RK1 b - - 1 1"},
		{"Chess960 castling, king and rook swap", "4k3/8/8/8/8/8/8/5KR1 w G - 0 1", []string{"f1g1"},
			"4k3/8/8/8/8/8/8/5RK1 b - - 1 1"},
		{"Chess960 long castling from b1", "4k3/8/8/8/8/8/8/RK6 w A - 0 1", []string{"b1a1"},
			"4k3/8/8/8/8/8/8/2KR4 b - - 1 1"},
		{"Chess960 long castling from g1", "4k3/8/8/8/8/8/8/4R1K1 w E - 0 1", []string{"g1e1"},
			"4k3/8/8/8/8/8/8/2KR4 b - - 1 1"},
		{"Chess960 black castling", "1r4kr/8/8/8/8/8/8/4K3 b bh - 0 1", []string{"g8b8"},
			"2kr3r/8/8/8/8/8/8/4K3 w - - 1 2"},
		{"sequence with clocks", board.StartFEN, []string{"g1f3", "g8f6", "b1c3", "e7e5"},
			"rnbqkb1r/pppp1ppp/5n2/4p3/8/2N2N2/PPPPPPPP/R1BQKB1R w KQkq - 0 3"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := mustFEN(t, tt.fen)
			before, key := p.FEN(), p.Key()
			for _, s := range tt.moves {
				p.Make(mustUCI(t, p, s))
				assert.Equal(t, scratchKey(t, p), p.Key(), "after %s", s)
			}
			assert.Equal(t, tt.after, p.FEN())
			for range tt.moves {
				p.Unmake()
			}
			assert.Equal(t, before, p.FEN())
			assert.Equal(t, key, p.Key())
		})
	}
}

func TestCapturedPiece(t *testing.T) {
	p := mustFEN(t, "r3k2r/8/8/3Pp3/8/8/8/R3K2R w KQkq e6 0 1")
	assert.Equal(t, board.MakePiece(board.Black, board.Pawn), p.CapturedPiece(mustUCI(t, p, "d5e6")))
	assert.Equal(t, board.MakePiece(board.Black, board.Rook), p.CapturedPiece(mustUCI(t, p, "a1a8")))
	assert.Equal(t, board.NoPiece, p.CapturedPiece(mustUCI(t, p, "e1g1")))
	assert.Equal(t, board.NoPiece, p.CapturedPiece(mustUCI(t, p, "a1a7")))
}

func TestNullMove(t *testing.T) {
	p := mustFEN(t, "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3")
	fen, key := p.FEN(), p.Key()
	p.MakeNull()
	assert.Equal(t, board.Black, p.Side())
	assert.Equal(t, board.NoSquare, p.EnPassant())
	assert.Equal(t, scratchKey(t, p), p.Key())
	assert.NotEqual(t, key, p.Key())
	p.UnmakeNull()
	assert.Equal(t, fen, p.FEN())
	assert.Equal(t, key, p.Key())
}

func TestClone(t *testing.T) {
	p := board.StartPosition()
	p.Make(mustUCI(t, p, "e2e4"))
	c := p.Clone()
	c.Make(mustUCI(t, c, "e7e5"))
	assert.Equal(t, 1, p.Ply())
	assert.Equal(t, 2, c.Ply())
	c.Unmake()
	c.Unmake()
	assert.Equal(t, board.StartFEN, c.FEN())
	assert.Equal(t, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1", p.FEN())
}

func TestMakeUnmakeAllocatesNothing(t *testing.T) {
	p := mustFEN(t, kiwipete)
	var ml movegen.MoveList
	movegen.Legal(p, &ml)
	moves := ml.Moves()
	require.NotEmpty(t, moves)
	i := 0
	allocs := testing.AllocsPerRun(1000, func() {
		p.Make(moves[i%len(moves)])
		p.Unmake()
		i++
	})
	assert.Zero(t, allocs)
	assert.Equal(t, kiwipete, p.FEN())

	// A deep line of moves must not grow the history either.
	q := board.StartPosition()
	allocs = testing.AllocsPerRun(10, func() {
		var ml movegen.MoveList
		for d := 0; d < 200; d++ {
			movegen.Legal(q, &ml)
			if ml.Len() == 0 {
				break
			}
			q.Make(ml.At(d % ml.Len()))
		}
		for q.Ply() > 0 {
			q.Unmake()
		}
	})
	assert.Zero(t, allocs)
}

func BenchmarkMakeUnmake(b *testing.B) {
	p := mustFEN(b, kiwipete)
	var ml movegen.MoveList
	movegen.Legal(p, &ml)
	moves := ml.Moves()
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		p.Make(moves[i%len(moves)])
		p.Unmake()
	}
}
