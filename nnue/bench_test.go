package nnue

import (
	"fmt"
	"testing"

	"github.com/twofold-chess/twofold/board"
	"github.com/twofold-chess/twofold/movegen"
)

// benchNets yields every kernel at the sizes worth comparing.
func benchNets(b *testing.B, f func(b *testing.B, n *Network)) {
	for _, h := range []int{256, 512, 1024} {
		for _, act := range []Activation{CReLU, SCReLU} {
			base := randomNet(b, h, act, 1)
			for _, name := range Kernels() {
				n, _ := base.WithKernel(name)
				b.Run(fmt.Sprintf("%s/H=%d/%v", name, h, act), func(b *testing.B) { f(b, n) })
			}
		}
	}
}

// BenchmarkEvaluate is the output layer alone (the per-node cost on top
// of the updates); evals/s is reported.
func BenchmarkEvaluate(b *testing.B) {
	p, _ := movegen.ParseFEN("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
	benchNets(b, func(b *testing.B, n *Network) {
		a := NewAccumulator(n)
		a.Refresh(p)
		sink := 0
		for b.Loop() {
			sink += a.Evaluate(p)
		}
		b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "evals/s")
		_ = sink
	})
}

// BenchmarkUpdate is one incremental update of both perspectives: a quiet
// move (one add, one sub) and a capture (one add, two subs).
func BenchmarkUpdate(b *testing.B) {
	p, _ := movegen.ParseFEN("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
	for _, c := range []struct{ name, move string }{{"quiet", "e2d3"}, {"capture", "e5f7"}} {
		m, err := movegen.ParseUCI(p, c.move)
		if err != nil {
			b.Fatal(err)
		}
		d := MoveDelta(p, m)
		b.Run(c.name, func(b *testing.B) {
			benchNets(b, func(b *testing.B, n *Network) {
				s := NewAccumulators(n, 2)
				s[0].Refresh(p)
				for b.Loop() {
					s[1].Apply(&s[0], &d, p) // no king move: p is not read
				}
			})
		})
	}
}

// BenchmarkRefresh is the full recomputation the incremental updates avoid.
func BenchmarkRefresh(b *testing.B) {
	p, _ := movegen.ParseFEN("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
	benchNets(b, func(b *testing.B, n *Network) {
		a := NewAccumulator(n)
		for b.Loop() {
			a.Refresh(p)
		}
	})
}

// BenchmarkKingRefresh is what a king move into another bucket costs a
// network with king buckets: one perspective recomputed from scratch
// against through a RefreshCache, the king going back and forth between
// two buckets while the other pieces stay (as in a search).
func BenchmarkKingRefresh(b *testing.B) {
	p, _ := movegen.ParseFEN("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
	q := p.Clone()
	m, _ := movegen.ParseUCI(q, "e1g1")
	q.Make(m)
	n := kingNet(b, 256, 4, 1)
	a := NewAccumulator(n)
	b.Run("scratch", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			a.RefreshPerspective([2]*board.Position{p, q}[i&1], board.White)
		}
	})
	b.Run("cache", func(b *testing.B) {
		c := NewRefreshCache(n)
		for i := 0; b.Loop(); i++ {
			c.Refresh(a, [2]*board.Position{p, q}[i&1], board.White)
		}
	})
}
