package nnue_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twofold-chess/twofold/board"
	"github.com/twofold-chess/twofold/nnue"
)

// The embedded network loads, is decoded once, and plays chess: it sees the
// start position as about level and an extra queen as winning, for either
// side to move.
func TestDefaultNetwork(t *testing.T) {
	n := nnue.Default()
	require.NotNil(t, n)
	assert.Same(t, n, nnue.Default())
	for _, c := range []struct {
		fen      string
		min, max int
	}{
		{board.StartFEN, -60, 60},
		{"rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 500, 100000},
		{"rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1", -100000, -500},
	} {
		p, err := board.ParseFEN(c.fen)
		require.NoError(t, err)
		got := n.Evaluate(p)
		assert.True(t, got >= c.min && got <= c.max, "%s: %d cp, want %d..%d", c.fen, got, c.min, c.max)
	}
}
