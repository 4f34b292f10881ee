package azero

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twofold-chess/twofold/board"
	"github.com/twofold-chess/twofold/movegen"
	"github.com/twofold-chess/twofold/timeman"
)

func TestRootVisits(t *testing.T) {
	s := newUniform(opts(1, 4))
	assert.Empty(t, s.RootVisits(nil), "no search yet")
	p := board.StartPosition()
	s.Search(p, timeman.Limits{Nodes: 200}, nil)
	vs := s.RootVisits(nil)
	require.Len(t, vs, 20)
	total := 0
	for _, v := range vs {
		total += v.Visits
		assert.Zero(t, v.Proven)
	}
	assert.Equal(t, 199, total, "every playout but the root's own expansion went through a root move")

	s.Clear()
	s.Search(mustFEN(t, "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1"), timeman.Limits{Nodes: 50}, nil)
	proven := map[string]int{}
	for _, v := range s.RootVisits(nil) {
		proven[v.Move.UCI(false)] = v.Proven
	}
	assert.Equal(t, 1, proven["a1a8"], "the mate is a proven win")
}

// A sampling player varies its opening moves but never gambles away a mate.
func TestPlayerSampleMoves(t *testing.T) {
	net := &Uniform{}
	first := func(sample int) map[string]bool {
		pl, err := NewPlayer(net, "p", 16)
		require.NoError(t, err)
		defer pl.Close()
		pl.SampleMoves(sample, 3)
		seen := map[string]bool{}
		for range 12 {
			pl.NewGame()
			seen[pl.Move(board.StartPosition()).UCI(false)] = true
		}
		return seen
	}
	assert.Len(t, first(0), 1, "the most visited move every time")
	assert.Greater(t, len(first(1)), 2, "moves drawn by visits")

	pl, err := NewPlayer(net, "p", 16)
	require.NoError(t, err)
	defer pl.Close()
	pl.SampleMoves(100, 4)
	mate := mustFEN(t, "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")
	for range 8 {
		pl.NewGame()
		m := pl.Move(mate)
		mate.Make(m)
		assert.Equal(t, movegen.Checkmate, movegen.GameStatus(mate), m.UCI(false))
		mate.Unmake()
	}
}

// SetParams reaches the player's searcher, corrected as SetOptions corrects.
func TestPlayerSetParams(t *testing.T) {
	pl, err := NewPlayer(&Uniform{}, "p", 16)
	require.NoError(t, err)
	defer pl.Close()
	assert.Equal(t, DefaultParams, pl.s.Options().Params)
	want := Params{CPuct: 2, CPuctBase: 500, FPUReduction: 0.5, PolicyTemp: 1.5}
	pl.SetParams(want)
	assert.Equal(t, want, pl.s.Options().Params)
	pl.SetParams(Params{CPuct: math.NaN(), CPuctBase: 500, FPUReduction: 0.5})
	assert.Equal(t, DefaultParams.CPuct, pl.s.Options().Params.CPuct, "NaN falls back to the default")
	assert.NotZero(t, pl.Move(board.StartPosition()), "still plays")
}

// SetBatchSize reaches the player's searcher: one leaf per network run
// makes a run per evaluated playout, the default batch far fewer.
func TestPlayerSetBatchSize(t *testing.T) {
	runs := func(batch int) int64 {
		net := &Uniform{}
		pl, err := NewPlayer(net, "p", 64)
		require.NoError(t, err)
		defer pl.Close()
		if batch > 0 {
			pl.SetBatchSize(batch)
		}
		assert.NotZero(t, pl.Move(board.StartPosition()))
		return net.Batches.Load()
	}
	single, def := runs(1), runs(0)
	assert.GreaterOrEqual(t, single, int64(60), "about one run per playout")
	assert.Less(t, def*4, single, "batches of up to %d leaves", DefaultOptions.BatchSize)
	assert.Equal(t, 1, func() int {
		pl, err := NewPlayer(&Uniform{}, "p", 8)
		require.NoError(t, err)
		defer pl.Close()
		pl.SetBatchSize(0)
		return pl.s.Options().BatchSize
	}(), "a batch below 1 is corrected to 1")
}
