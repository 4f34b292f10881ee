package search_test

import (
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twofold-chess/twofold/mind"
	"github.com/twofold-chess/twofold/movegen"
	"github.com/twofold-chess/twofold/search"
)

// The search allocates per iteration (root moves, reported PVs), never per
// node: tens of thousands of nodes cost well under a few hundred mallocs.
func TestSearchDoesNotAllocatePerNode(t *testing.T) {
	if testing.Short() {
		t.Skip("allocation counts are noisy under -race")
	}
	p, err := movegen.ParseFEN("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
	require.NoError(t, err)
	s := search.New(16, search.Options{Threads: 1})
	s.Search(p, search.Limits{Depth: 2}, nil) // warm-up: thread state is allocated once
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	res := s.Search(p, search.Limits{Depth: 9}, func(mind.Info) {})
	runtime.ReadMemStats(&after)
	require.Greater(t, res.Nodes, uint64(20000))
	assert.Less(t, after.Mallocs-before.Mallocs, uint64(300), "nodes %d", res.Nodes)
}
