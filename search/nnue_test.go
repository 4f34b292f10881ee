package search_test

import (
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twofold-chess/twofold/bench"
	"github.com/twofold-chess/twofold/mind"
	"github.com/twofold-chess/twofold/nnue"
	"github.com/twofold-chess/twofold/search"
)

// The network's accumulator stack is allocated once per thread and network,
// so a search with a network allocates per iteration, not per node.
func TestSearchWithNetworkDoesNotAllocatePerNode(t *testing.T) {
	if testing.Short() {
		t.Skip("allocation counts are noisy under -race")
	}
	net, err := nnue.Random(256, 1, nnue.SCReLU, 1)
	require.NoError(t, err)
	p := pos(t, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
	s := search.New(16, search.Options{Threads: 1, Network: net})
	s.Search(p, search.Limits{Depth: 2}, nil) // warm-up: the stack is allocated once
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	res := s.Search(p, search.Limits{Depth: 8}, func(mind.Info) {})
	runtime.ReadMemStats(&after)
	require.Greater(t, res.Nodes, uint64(20000))
	assert.Less(t, after.Mallocs-before.Mallocs, uint64(300), "nodes %d", res.Nodes)
}

// BenchmarkBenchNPS searches the bench positions as "engine bench" does
// (one thread, a fresh 16 MB table each) with the hand-crafted evaluation
// and with a random network on each kernel, and reports nodes per second
// of wall-clock and of CPU time; -benchtime=1x runs the suite once per case.
// Each network gives the same tree on every kernel (the node counts are
// equal), so the kernels' speeds compare directly.
func BenchmarkBenchNPS(b *testing.B) {
	const depth = 9
	type evalCase struct {
		name string
		net  *nnue.Network
	}
	cases := []evalCase{{"hce", nil}}
	for _, h := range []int{256, 512} {
		base, err := nnue.Random(h, 1, nnue.SCReLU, 1)
		require.NoError(b, err)
		for _, k := range nnue.Kernels() {
			n, err := base.WithKernel(k)
			require.NoError(b, err)
			cases = append(cases, evalCase{fmt.Sprintf("nnue-%d-%s", h, k), n})
		}
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			var nodes uint64
			var elapsed, cpu time.Duration
			for b.Loop() {
				for _, p := range bench.Positions() {
					s := search.New(16, search.Options{Threads: 1, Network: c.net})
					start := time.Now()
					cpu0, _ := cpuTime()
					nodes += s.Search(p, search.Limits{Depth: depth}, nil).Nodes
					cpu1, ok := cpuTime()
					elapsed += time.Since(start)
					if ok {
						cpu += cpu1 - cpu0
					}
				}
			}
			b.ReportMetric(float64(nodes)/elapsed.Seconds(), "nps")
			if cpu > 0 { // nodes per CPU-second: what the search costs, whatever else runs
				b.ReportMetric(float64(nodes)/cpu.Seconds(), "nps-cpu")
			}
			b.ReportMetric(float64(nodes)/float64(b.N), "nodes/suite")
		})
	}
}

// The weakened modes evaluate by hand whatever network the options carry:
// their levels were calibrated with the hand-crafted evaluation.
func TestOptionsEvaluator(t *testing.T) {
	net, err := nnue.Random(32, 1, nnue.SCReLU, 1)
	require.NoError(t, err)
	easy, ok := search.DifficultyStrength("Easy")
	require.True(t, ok)
	for _, c := range []struct {
		name string
		opts search.Options
		want *nnue.Network
	}{
		{"full strength, network", search.Options{Network: net}, net},
		{"full strength, hand-crafted", search.Options{}, nil},
		{"fixed nodes", search.Options{Network: net, Strength: search.Strength{Nodes: 3000}}, nil},
		{"fixed depth", search.Options{Network: net, Strength: search.Strength{Depth: 3, Margin: 50}}, nil},
		{"a difficulty", search.Options{Network: net, Strength: easy}, nil},
		{"fixed nodes measured with the network", search.Options{Network: net, Strength: search.Strength{Nodes: 3000, Network: true}}, net},
		{"measured with the network, hand-crafted chosen", search.Options{Strength: search.Strength{Nodes: 3000, Network: true}}, nil},
		{"UCI_Elo 1900, a hand-crafted rung", search.Options{Network: net, Strength: search.EloStrength(1900)}, nil},
		{"UCI_Elo 2300, a network rung", search.Options{Network: net, Strength: search.EloStrength(2300)}, net},
	} {
		assert.Same(t, c.want, c.opts.Evaluator(), c.name)
	}
}
