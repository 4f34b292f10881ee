package board_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twofold-chess/twofold/board"
)

func TestFiftyMoveRule(t *testing.T) {
	tests := []struct {
		fen  string
		want bool
	}{
		{"4k3/8/8/8/8/8/8/R3K3 w - - 0 60", false},
		{"4k3/8/8/8/8/8/8/R3K3 w - - 99 60", false},
		{"4k3/8/8/8/8/8/8/R3K3 w - - 100 60", true},
		{"4k3/8/8/8/8/8/8/R3K3 b - - 150 60", true},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, mustFEN(t, tt.fen).FiftyMoveRule(), tt.fen)
	}
}

func TestFiftyMoveRuleReachedByMove(t *testing.T) {
	p := mustFEN(t, "4k3/8/8/8/8/8/8/R3K3 w - - 99 60")
	assert.False(t, p.FiftyMoveRule())
	p.Make(mustUCI(t, p, "a1a2"))
	assert.Equal(t, 100, p.HalfmoveClock())
	assert.True(t, p.FiftyMoveRule())
	p.Unmake()
	assert.False(t, p.FiftyMoveRule())

	// A capture or pawn move resets the clock.
	q := mustFEN(t, "4k3/8/8/8/8/8/4P3/4K3 w - - 99 60")
	q.Make(mustUCI(t, q, "e2e3"))
	assert.Equal(t, 0, q.HalfmoveClock())
	assert.False(t, q.FiftyMoveRule())
}

// play makes the UCI moves on p.
func play(t *testing.T, p *board.Position, moves ...string) {
	t.Helper()
	for _, s := range moves {
		p.Make(mustUCI(t, p, s))
	}
}

var knightDance = []string{"g1f3", "g8f6", "f3g1", "f6g8"}

func TestThreefoldRepetition(t *testing.T) {
	p := board.StartPosition()
	assert.Equal(t, 0, p.Repetitions())
	play(t, p, knightDance[:2]...)
	assert.Equal(t, 0, p.Repetitions())
	play(t, p, knightDance[2:]...)
	assert.Equal(t, board.StartFEN[:len(board.StartFEN)-3], p.FEN()[:len(board.StartFEN)-3])
	assert.Equal(t, 1, p.Repetitions(), "second occurrence")
	assert.False(t, p.ThreefoldRepetition(), "second occurrence")
	play(t, p, knightDance[:3]...)
	assert.False(t, p.ThreefoldRepetition())
	play(t, p, knightDance[3])
	assert.Equal(t, 2, p.Repetitions(), "third occurrence")
	assert.True(t, p.ThreefoldRepetition(), "third occurrence")

	// Taking the last move back goes back to no repetition.
	p.Unmake()
	assert.False(t, p.ThreefoldRepetition())
	assert.Equal(t, 1, p.Repetitions()) // position after 1.Nf3 Nf6 2.Ng1 Ng8 3.Nf3 Nf6 4.Ng1 occurred after 2.Ng1
}

func TestRepetitionAfterPositionsWithOtherSideToMove(t *testing.T) {
	// The same placement with the other side to move is not a repetition:
	// White loses a tempo with the rook (Ra1-a2-a1 takes two white moves
	// while the knight dance of Black takes two).
	p := mustFEN(t, "n3k3/8/8/8/8/8/8/R3K3 w - - 0 1")
	play(t, p, "a1a2", "a8b6", "a2a3", "b6a8", "a3a1")
	// Same placement as the start, but Black to move.
	assert.Equal(t, 0, p.Repetitions())
}

func TestRepetitionNotAcrossIrreversibleMove(t *testing.T) {
	p := board.StartPosition()
	play(t, p, knightDance...)
	require.Equal(t, 1, p.Repetitions())
	// A pawn move resets the clock; what came before can never recur.
	play(t, p, "e2e4", "e7e5")
	assert.Equal(t, 0, p.HalfmoveClock())
	assert.Equal(t, 0, p.Repetitions())
	play(t, p, knightDance...)
	assert.Equal(t, 1, p.Repetitions())
	assert.False(t, p.ThreefoldRepetition(), "start position seen twice and the new one twice: no threefold")
	play(t, p, knightDance...)
	assert.True(t, p.ThreefoldRepetition())

	// Losing castling rights changes the key: Ke2 Ke7 Ke1 Ke8 does not
	// repeat the position with rights.
	q := mustFEN(t, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
	play(t, q, "e1e2", "e8e7", "e2e1", "e7e8")
	assert.Equal(t, 0, q.Repetitions())
	play(t, q, "e1e2", "e8e7", "e2e1", "e7e8")
	assert.Equal(t, 1, q.Repetitions())
	play(t, q, "e1e2", "e8e7", "e2e1", "e7e8")
	assert.True(t, q.ThreefoldRepetition())
}

func TestRepetitionCountsPositionRightAfterReset(t *testing.T) {
	// The scan stops at the halfmove clock, but the position reached by the
	// clock-resetting move itself still counts.
	p := mustFEN(t, "4k3/8/8/8/8/8/4P3/4K1N1 w - - 0 1")
	play(t, p, "e2e4") // A: the reset, no e.p. square (no black pawn)
	assert.Equal(t, 0, p.Repetitions())
	play(t, p, "e8d8", "g1f3", "d8e8", "f3g1") // A again
	assert.Equal(t, 4, p.HalfmoveClock())
	assert.Equal(t, 1, p.Repetitions())
	play(t, p, "e8d8", "g1f3", "d8e8", "f3g1") // A for the third time
	assert.Equal(t, 8, p.HalfmoveClock())
	assert.Equal(t, 2, p.Repetitions())
	assert.True(t, p.ThreefoldRepetition())
}

func TestInsufficientMaterial(t *testing.T) {
	tests := []struct {
		name string
		fen  string
		want bool
	}{
		{"KvK", "8/8/4k3/8/8/3K4/8/8 w - - 0 1", true},
		{"KNvK", "8/8/4k3/8/8/3K4/8/6N1 w - - 0 1", true},
		{"KvKN", "8/8/4k3/8/8/3K4/8/6n1 w - - 0 1", true},
		{"KBvK", "8/8/4k3/8/8/3K4/8/5B2 w - - 0 1", true},
		{"KvKB", "8/8/4k3/8/8/3K4/8/5b2 b - - 0 1", true},
		{"KBvKB same colour", "8/8/4k3/8/8/3K4/8/5B1b w - - 0 1", true},      // f1 and h1 both light
		{"KBvKB opposite colour", "8/8/4k3/8/8/3K4/8/5Bb1 w - - 0 1", false}, // f1 light, g1 dark
		{"KBBvK same-colour bishops", "8/8/4k3/8/8/3K4/8/B1B5 w - - 0 1", true},
		{"KBBvK opposite-colour bishops", "8/8/4k3/8/8/3K4/8/BB6 w - - 0 1", false},
		{"KNNvK", "8/8/4k3/8/8/3K4/8/NN6 w - - 0 1", false},
		{"KNvKN", "8/8/4k3/8/8/3K4/8/Nn6 w - - 0 1", false},
		{"KNvKB", "8/8/4k3/8/8/3K4/8/Nb6 w - - 0 1", false},
		{"KPvK", "8/8/4k3/8/8/3K4/4P3/8 w - - 0 1", false},
		{"KvKP", "8/8/4k3/8/8/3K4/4p3/8 w - - 0 1", false},
		{"KRvK", "8/8/4k3/8/8/3K4/8/7R w - - 0 1", false},
		{"KQvK", "8/8/4k3/8/8/3K4/8/7q w - - 0 1", false},
		{"startpos", board.StartFEN, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, mustFEN(t, tt.fen).InsufficientMaterial())
		})
	}
}

func TestIsRepetition(t *testing.T) {
	p := board.StartPosition()
	assert.False(t, p.IsRepetition())
	play(t, p, knightDance[:3]...)
	assert.False(t, p.IsRepetition())
	play(t, p, knightDance[3])
	assert.True(t, p.IsRepetition(), "the start position occurs for the second time")
	play(t, p, "e2e4")
	assert.False(t, p.IsRepetition())

	// The position right after the clock reset counts.
	q := mustFEN(t, "4k3/8/8/8/8/8/4P3/4K1N1 w - - 0 1")
	play(t, q, "e2e4", "e8d8", "g1f3", "d8e8")
	assert.False(t, q.IsRepetition())
	play(t, q, "f3g1")
	assert.True(t, q.IsRepetition())
}

func TestNonPawnMaterial(t *testing.T) {
	tests := []struct {
		fen          string
		white, black bool
	}{
		{board.StartFEN, true, true},
		{"4k3/pppp4/8/8/8/8/PPPP4/4K3 w - - 0 1", false, false},
		{"4k3/8/8/8/8/8/8/R3K3 w - - 0 1", true, false},
		{"4k3/8/8/8/8/8/8/n3K3 b - - 0 1", false, true},
		{"4k3/8/8/8/8/8/8/4K2b w - - 0 1", false, true},
		{"4kq2/8/8/8/8/8/8/4K3 w - - 0 1", false, true},
	}
	for _, tt := range tests {
		p := mustFEN(t, tt.fen)
		assert.Equal(t, tt.white, p.NonPawnMaterial(board.White), tt.fen)
		assert.Equal(t, tt.black, p.NonPawnMaterial(board.Black), tt.fen)
	}
}
