package search

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twofold-chess/twofold/board"
	"github.com/twofold-chess/twofold/movegen"
)

// TestRewardPriorByEval checks the evaluation-difference history: the
// opponent's quiet move that led to a node gains history when it raised
// its side's evaluation and loses it when it lowered it, by at most
// tp.evalHistMax; a capture, a null move or a move made in check (no
// evaluation) leaves the history alone.
func TestRewardPriorByEval(t *testing.T) {
	e4 := board.NewMove(sq("e2"), sq("e4"))
	tests := []struct {
		name       string
		quiet      bool
		before     int // the mover's evaluation before its move (its frame's eval)
		after      int // the node's evaluation, for the side to move after it
		wantSign   int
		saturating bool
	}{
		{"the move gained 10 cp", true, 20, -30, 1, false},
		{"the move lost 10 cp", true, 20, -10, -1, false},
		{"the move gained a rook", true, 0, -500, 1, true},
		{"the move lost a rook", true, 0, 500, -1, true},
		{"no change", true, 35, -35, 0, false},
		{"a capture or null move", false, 0, -500, 0, false},
		{"the mover was in check", true, -Infinity, -500, 0, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, err := movegen.ParseFEN(board.StartFEN)
			require.NoError(t, err)
			th := &thread{pos: p}
			th.stack[0].move, th.stack[0].piece = e4, p.PieceAt(sq("e2"))
			th.stack[0].quiet, th.stack[0].eval = tc.quiet, tc.before
			p.Make(e4)
			th.rewardPriorByEval(1, tc.after)
			h := int(th.history[board.White][sq("e2")][sq("e4")])
			switch tc.wantSign {
			case 1:
				assert.Positive(t, h)
			case -1:
				assert.Negative(t, h)
			default:
				assert.Zero(t, h)
			}
			if tc.saturating {
				assert.Equal(t, tp.evalHistMax, max(h, -h))
			} else {
				assert.Less(t, max(h, -h), tp.evalHistMax)
			}
			// Nothing else moved.
			th.history[board.White][sq("e2")][sq("e4")] = 0
			assert.Equal(t, [2][64][64]int32{}, th.history)
		})
	}
}

// TestHistoryBonus pins the bonus a cutoff earns by depth: 16·depth² plus
// 128 a ply beyond the first, so shallow cutoffs, the most common, teach
// the histories too, and at most 1,600 (a tenth of historyLimit).
func TestHistoryBonus(t *testing.T) {
	for _, tc := range []struct{ depth, want int }{
		{0, 0}, {1, 16}, {2, 192}, {3, 400}, {5, 912}, {7, 1552}, {8, 1600}, {30, 1600},
	} {
		assert.Equal(t, tc.want, historyBonus(tc.depth), "depth %d", tc.depth)
	}
}
