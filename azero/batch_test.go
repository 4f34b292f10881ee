package azero

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twofold-chess/twofold/board"
)

// One batch gathers from several trees (as self-play's games in lockstep
// do), evaluates them in one run and backs each leaf up in its own tree;
// a position met again is answered by the cache without the network.
func TestBatchAcrossTrees(t *testing.T) {
	u := &Uniform{}
	ev, err := u.NewEvaluator(3)
	require.NoError(t, err)
	b := newBatch(ev, newCache(64), 3)
	start := board.StartPosition()
	t1, t2 := newTree(start, DefaultParams), newTree(mustFEN(t, "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1"), DefaultParams)
	p1, p2 := t1.pos.Clone(), t2.pos.Clone()

	out, _, queued := b.add(t1, p1)
	require.Equal(t, needsNetwork, out)
	assert.True(t, queued)
	out, _, queued = b.add(t1, p1)
	assert.Equal(t, collision, out, "the root waits for the network")
	assert.False(t, queued)
	out, _, queued = b.add(t2, p2)
	require.Equal(t, needsNetwork, out)
	assert.True(t, queued)
	assert.Equal(t, 2, b.n)
	assert.False(t, b.full())
	assert.Equal(t, start.Key(), p1.Key(), "add returns the position to the root")

	require.NoError(t, b.evaluate())
	assert.Equal(t, int64(1), u.Batches.Load(), "one network run for both trees")
	for i := range b.n {
		b.apply(i)
	}
	assert.Equal(t, int32(1), t1.at(root).n)
	assert.Equal(t, int32(1), t2.at(root).n)
	assert.Len(t, t1.children(root), 20)
	checkVisits(t, t1)
	checkVisits(t, t2)

	// The mate in one is marked at expansion: its playout resolves
	// without the network.
	b.reset()
	for range 5 {
		out, _, queued = b.add(t2, p2)
		if out == resolved {
			break
		}
		require.Equal(t, needsNetwork, out)
		require.True(t, queued)
		require.NoError(t, b.evaluate())
		b.apply(b.n - 1)
		b.reset()
	}
	assert.Equal(t, resolved, out)

	// A fresh tree of the start position: its root comes from the cache.
	b.reset()
	t3 := newTree(start, DefaultParams)
	out, lf, queued := b.add(t3, t3.pos.Clone())
	assert.Equal(t, needsNetwork, out)
	assert.False(t, queued, "cached")
	assert.Len(t, lf.path, 1)
	assert.Equal(t, int32(1), t3.at(root).n)
	assert.Equal(t, int64(1), u.Batches.Load())
	assert.Error(t, b.ev.Evaluate(b.input, 4, b.policy, b.value), "over the batch size")
}
