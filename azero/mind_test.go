package azero

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twofold-chess/twofold/board"
	"github.com/twofold-chess/twofold/mind"
	"github.com/twofold-chess/twofold/mind/mindtest"
	"github.com/twofold-chess/twofold/timeman"
)

// The reports are mind's: depth the mean playout depth, the score Q in
// centipawns, no hash table.
func TestReportsAreMindInfo(t *testing.T) {
	s := New(&Uniform{}, opts(1, 4))
	var last mind.Info
	res := s.Search(board.StartPosition(), timeman.Limits{Nodes: 100}, func(i mind.Info) {
		if i.MultiPV == 1 {
			last = i
		}
	})
	require.NoError(t, res.Err)
	assert.Equal(t, -1, last.HashFull)
	assert.Equal(t, mind.CP(QToCentipawns(last.Q)), last.Score)
	assert.Equal(t, uint64(100), last.Nodes)
	assert.Positive(t, last.Visits)
	assert.GreaterOrEqual(t, last.SelDepth, last.Depth)
	assert.Equal(t, mind.CP(QToCentipawns(res.Q)), res.Score)
	assert.Zero(t, res.Depth)
}

// The result lists the root moves: Best first, with their visits, shares
// that add up to one, the network's priors (uniform here) and Q.
func TestResultRootMoves(t *testing.T) {
	s := New(&Uniform{}, opts(1, 4))
	res := s.Search(board.StartPosition(), timeman.Limits{Nodes: 200}, func(mind.Info) {})
	require.NoError(t, res.Err)
	require.Len(t, res.Root, 20)
	assert.Equal(t, res.Best, res.Root[0].Move)
	assert.Equal(t, res.Q, res.Root[0].Q)
	share, visits := 0.0, 0
	for i, r := range res.Root {
		assert.InDelta(t, 1.0/20, r.Prior, 1e-6, "uniform priors")
		share += r.Share
		visits += r.Visits
		if i > 0 {
			assert.LessOrEqual(t, r.Visits, res.Root[0].Visits)
		}
	}
	assert.InDelta(t, 1, share, 1e-9)
	assert.Equal(t, float64(res.Root[0].Visits)/float64(visits), res.Root[0].Share)

	// A mate in one is a proven win, first.
	p, err := board.ParseFEN("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")
	require.NoError(t, err)
	res = New(&Uniform{}, opts(1, 4)).Search(p, timeman.Limits{Nodes: 50}, func(mind.Info) {})
	require.NotEmpty(t, res.Root)
	assert.Equal(t, "a1a8", res.Root[0].Move.UCI(false))
	assert.Equal(t, 1, res.Root[0].Proven)
	for _, r := range res.Root[1:] {
		assert.NotEqual(t, 1, r.Proven, r.Move.UCI(false))
	}
}

// Driven as a mind.Searcher, the searcher takes the shared options, keeps
// its own, and a network failure comes back as the result's error with a
// legal move.
func TestMindDrivesTheSearcher(t *testing.T) {
	o := opts(1, 4)
	o.CacheSize, o.RamLimitMB = 1234, 64
	s := New(&Uniform{}, o)
	mindtest.Shared(t, s, func() mind.Shared {
		o := s.Options()
		return mind.Shared{Threads: o.Threads, MultiPV: o.MultiPV, MoveOverhead: o.MoveOverhead, Tablebases: o.Tablebases}
	})
	got := s.Options()
	assert.Equal(t, 1234, got.CacheSize)
	assert.Equal(t, 64, got.RamLimitMB)

	mindtest.MateInOne(t, s, timeman.Limits{Nodes: 100})

	var fail mind.Searcher = New(BackendFunc(func(b int) (Evaluator, error) {
		return failing{b}, nil
	}), opts(1, 4))
	done := make(chan mind.Result, 1)
	fail.Go(board.StartPosition(), timeman.Limits{Nodes: 100}, func(mind.Info) {}, func(r mind.Result) { done <- r })
	r := <-done
	require.Error(t, r.Err)
	assert.Contains(t, r.Err.Error(), "MCTS: network evaluation failed: device lost")
	requireLegal(t, board.StartPosition(), r.Best)
}

// failing is a network that cannot run.
type failing struct{ max int }

func (f failing) Evaluate([]float32, int, []float32, []float32) error {
	return errors.New("device lost")
}
func (f failing) MaxBatch() int { return f.max }
func (f failing) Close() error  { return nil }
