package search

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twofold-chess/twofold/board"
)

// Futility pruning judges a quiet move by the depth its late-move
// reduction would search it at: a late move with poor history is cut at a
// node too deep for futility by the node's depth, an early move with
// neutral history is not.
func TestFutilityByReducedDepth(t *testing.T) {
	th := correctionThread(t, Strength{})
	a3 := board.NewMove(sq("a2"), sq("a3")) // quiet, safe, no check
	const staticEval = 0
	tests := []struct {
		name  string
		index int
		order int32
		depth int
		alpha int
		prune bool
	}{
		{"late, poor history, depth 8", 30, -20000, 8, staticEval + 300, true},
		{"early, neutral history, depth 8", 1, 0, 8, staticEval + 300, false},
		{"late, poor history, above the margin", 30, -20000, 8, staticEval + 200, false},
		{"late, poor history, depth 12", 30, -20000, 12, staticEval + 300, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			require.Less(t, tc.order, int32(orderCounter))
			got := th.pruneMove(a3, tc.index, tc.order, true, false, tc.depth, tc.alpha, staticEval, 0, 1000)
			assert.Equal(t, tc.prune, got)
		})
	}
}
