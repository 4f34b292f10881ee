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
