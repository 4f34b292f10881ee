package nnue

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twofold-chess/twofold/board"
	"github.com/twofold-chess/twofold/movegen"
)

// TestRefreshCacheEqualsRefresh refreshes through one cache along random
// games (kings wandering across buckets and halves, pieces captured and
// promoted) and compares every result with a refresh from scratch.
func TestRefreshCacheEqualsRefresh(t *testing.T) {
	for _, n := range []*Network{kingNet(t, 32, 4, 3), kingNet(t, 48, 8, 4), randomNet(t, 16, CReLU, 5)} {
		cache := NewRefreshCache(n)
		got, want := NewAccumulator(n), NewAccumulator(n)
		r := rand.New(rand.NewPCG(7, 8))
		for _, p := range randomPositions(t, r, 400) {
			for persp := board.White; persp <= board.Black; persp++ {
				cache.Refresh(got, p, persp)
			}
			want.Refresh(p)
			require.True(t, got.Equal(want), "%v: %s", n, p.FEN())
			assert.Equal(t, want.Evaluate(p), got.Evaluate(p))
		}
	}
}

func TestRefreshCacheDoesNotAllocate(t *testing.T) {
	n := kingNet(t, 256, 4, 9)
	cache := NewRefreshCache(n)
	a := NewAccumulator(n)
	p, err := movegen.ParseFEN("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
	require.NoError(t, err)
	q := p.Clone()
	m, err := movegen.ParseUCI(q, "e1g1")
	require.NoError(t, err)
	q.Make(m)
	allocs := testing.AllocsPerRun(100, func() {
		cache.Refresh(a, p, board.White)
		cache.Refresh(a, q, board.White)
	})
	assert.Zero(t, allocs)
}
