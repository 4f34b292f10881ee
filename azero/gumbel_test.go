package azero

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twofold-chess/twofold/board"
)

func TestConsiderSchedule(t *testing.T) {
	for _, tc := range []struct {
		m, budget int
		want      []int
	}{
		{1, 3, []int{0, 1, 2}},
		{2, 5, []int{0, 0, 1, 1, 2}},
		{4, 8, []int{0, 0, 0, 0, 1, 1, 2, 2}},
		// 16 moves once each, the best 8 once more, the best 4 twice more.
		{16, 32, append(append(make([]int, 16), 1, 1, 1, 1, 1, 1, 1, 1), 2, 2, 2, 2, 3, 3, 3, 3)},
	} {
		assert.Equal(t, tc.want, considerSchedule(tc.m, tc.budget), "m %d budget %d", tc.m, tc.budget)
	}
}

// gumbelSearch runs a Gumbel root search of playouts on fen with the
// uniform network, one leaf at a time.
func gumbelSearch(t *testing.T, fen string, m, playouts int, seed uint64) *tree {
	t.Helper()
	ev, err := (&Uniform{}).NewEvaluator(1)
	require.NoError(t, err)
	b := newBatch(ev, newCache(0), 1)
	tr := newTree(mustFEN(t, fen), DefaultParams)
	tr.gumbel = newGumbelRoot(m, playouts, rand.New(rand.NewPCG(seed, 1)), true)
	pos := tr.pos.Clone()
	for int(tr.at(root).n) < playouts && tr.at(root).proven == provenNone {
		b.reset()
		out, _, _ := b.add(tr, pos)
		require.NotEqual(t, collision, out)
		require.NoError(t, b.evaluate())
		for i := range b.n {
			b.apply(i)
		}
	}
	checkVisits(t, tr)
	return tr
}

// Sequential halving: m moves are searched, the field halves after each
// round, and the playouts add up to the budget.
func TestGumbelRootSpreadsPlayoutsBySequentialHalving(t *testing.T) {
	tr := gumbelSearch(t, board.StartFEN, 8, 32, 1)
	var visits []int
	for _, c := range tr.children(root) {
		if c.n > 0 {
			visits = append(visits, int(c.n))
		}
	}
	slices.Sort(visits)
	slices.Reverse(visits)
	// considerSchedule(8, 31): 8 x 1, the best 4 twice, the best 2 the rest.
	assert.Equal(t, []int{11, 10, 3, 3, 1, 1, 1, 1}, visits)
}

// With a network that values every position alike, every completed Q is
// equal and the improved policy is the prior; a move into a mate in one is
// a proven loss, worth -1 whatever the network says: the improved policy
// all but drops it and the search never plays it.
func TestGumbelRootImprovedPolicy(t *testing.T) {
	tr := gumbelSearch(t, board.StartFEN, 16, 48, 2)
	for i, p := range tr.gumbel.policy(tr, nil) {
		assert.InDelta(t, tr.children(root)[i].prior, p, 1e-6)
	}

	// 1.f3 e5: 2.g4?? allows Qh4#.
	const fen = "rnbqkbnr/pppp1ppp/8/4p3/8/5P2/PPPPP1PP/RNBQKBNR w KQkq - 0 2"
	for seed := range uint64(20) {
		tr := gumbelSearch(t, fen, 19, 64, seed)
		children := tr.children(root)
		require.Len(t, children, 19)
		policy := tr.gumbel.policy(tr, nil)
		sum := 0.0
		for i, c := range children {
			sum += policy[i]
			if c.move.String() == "g2g4" {
				assert.Equal(t, provenLoss, c.proven)
				assert.Less(t, policy[i], 0.01, "prior %.3f", c.prior)
			}
		}
		assert.InDelta(t, 1, sum, 1e-9)
		assert.NotEqual(t, "g2g4", tr.at(tr.gumbel.choice(tr)).move.String(), "seed %d", seed)
	}
}

// A mate in one ends the search at once and is played.
func TestGumbelRootPlaysMateInOne(t *testing.T) {
	tr := gumbelSearch(t, "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", 8, 32, 3)
	assert.Equal(t, "a1a8", tr.at(tr.gumbel.choice(tr)).move.String())
}
