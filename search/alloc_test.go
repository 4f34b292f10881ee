package search_test

import (
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twofold-chess/twofold/mind"
	"github.com/twofold-chess/twofold/movegen"
	"github.com/twofold-chess/twofold/search"
	"github.com/twofold-chess/twofold/syzygy"
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

// Tablebase probes inside the tree allocate nothing either: a five-piece
// ending full of captures into the four-piece tables probes thousands of
// times for a handful of mallocs.
func TestTablebaseProbesDoNotAllocate(t *testing.T) {
	if testing.Short() {
		t.Skip("allocation counts are noisy under -race")
	}
	tb, err := syzygy.Open(tablesDir)
	require.NoError(t, err)
	defer tb.Close()
	p, err := movegen.ParseFEN("8/8/3k4/3r4/8/3KR3/3P4/8 w - - 0 1")
	require.NoError(t, err)
	s := search.New(16, search.Options{Threads: 1, Tablebases: mind.DefaultTablebases(tb)})
	s.Search(p, search.Limits{Depth: 9}, nil) // warm-up: thread state and the tables' files
	s.Clear()
	var before, after runtime.MemStats
	var last mind.Info
	runtime.ReadMemStats(&before)
	res := s.Search(p, search.Limits{Depth: 12}, func(i mind.Info) { last = i })
	runtime.ReadMemStats(&after)
	require.Greater(t, res.Nodes, uint64(20000))
	require.Greater(t, last.TBHits, uint64(300))
	assert.Less(t, after.Mallocs-before.Mallocs, uint64(300), "nodes %d, tbhits %d", res.Nodes, last.TBHits)
}
