package azero

import (
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twofold-chess/twofold/board"
	"github.com/twofold-chess/twofold/mind"
	"github.com/twofold-chess/twofold/timeman"
)

func TestInfoAsMind(t *testing.T) {
	pv := []board.Move{board.NoMove}
	base := Info{Depth: 5, SelDepth: 11, MultiPV: 2, Q: 0.2, CP: 31, Visits: 40, Nodes: 999, Time: time.Second, PV: pv}
	assert.Equal(t, mind.Info{Depth: 5, SelDepth: 11, MultiPV: 2, Score: mind.CP(31), Nodes: 999, Time: time.Second, HashFull: -1, PV: pv}, base.Mind())
	won, lost := base, base
	won.Mate, lost.Mate = 2, -3
	assert.Equal(t, mind.MateIn(2), won.Mind().Score)
	assert.Equal(t, mind.MateIn(-3), lost.Mind().Score)
}

// Driven as a mind.Searcher, the searcher takes the shared options, keeps
// its own, and a network failure comes back as the result's error with a
// legal move.
func TestMindDrivesTheSearcher(t *testing.T) {
	o := opts(1, 4)
	o.CacheSize, o.RamLimitMB = 1234, 64
	s := New(&Uniform{}, o)
	m := NewMind(s)
	m.SetOptions(mind.Options{Threads: 2, MultiPV: 3, MoveOverhead: 5 * time.Millisecond})
	got := s.Options()
	assert.Equal(t, 2, got.Threads)
	assert.Equal(t, 3, got.MultiPV)
	assert.Equal(t, 5*time.Millisecond, got.MoveOverhead)
	assert.Equal(t, 1234, got.CacheSize)
	assert.Equal(t, 64, got.RamLimitMB)

	p := mustFEN(t, "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")
	var last mind.Info
	done := make(chan mind.Result, 1)
	m.Go(p, timeman.Limits{Nodes: 100}, func(i mind.Info) {
		if i.MultiPV == 1 {
			last = i
		}
	}, func(r mind.Result) { done <- r })
	r := <-done
	require.NoError(t, r.Err)
	assert.Equal(t, "a1a8", r.Best.UCI(false))
	assert.Equal(t, mind.MateIn(1), last.Score)

	fail := NewMind(New(BackendFunc(func(b int) (Evaluator, error) {
		return failing{b}, nil
	}), opts(1, 4)))
	fail.Go(board.StartPosition(), timeman.Limits{Nodes: 100}, func(mind.Info) {}, func(r mind.Result) { done <- r })
	r = <-done
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
