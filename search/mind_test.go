package search

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twofold-chess/twofold/board"
	"github.com/twofold-chess/twofold/mind"
)

func TestInfoAsMind(t *testing.T) {
	pv := []board.Move{board.NoMove}
	for _, c := range []struct {
		in   Info
		want mind.Score
	}{
		{Info{Score: 35, Bound: BoundExact}, mind.CP(35)},
		{Info{Score: -120, Bound: BoundLower}, mind.Score{Value: -120, Bound: mind.Lower}},
		{Info{Score: 7, Bound: BoundUpper}, mind.Score{Value: 7, Bound: mind.Upper}},
		{Info{Score: MateScore - 1}, mind.MateIn(1)},
		{Info{Score: MateScore - 5}, mind.MateIn(3)},
		{Info{Score: -MateScore + 2}, mind.MateIn(-1)},
	} {
		c.in.Depth, c.in.SelDepth, c.in.MultiPV, c.in.Nodes, c.in.Time, c.in.HashFull, c.in.PV = 9, 14, 2, 12345, time.Second, 77, pv
		got := c.in.Mind()
		assert.Equal(t, c.want, got.Score, "score %d", c.in.Score)
		assert.Equal(t, mind.Info{Depth: 9, SelDepth: 14, MultiPV: 2, Score: c.want, Nodes: 12345, Time: time.Second, HashFull: 77, PV: pv}, got)
	}
	cur := Info{Depth: 12, CurrMove: board.NewMove(board.NewSquare(4, 1), board.NewSquare(4, 3)), CurrMoveNumber: 3}.Mind()
	assert.Equal(t, 12, cur.Depth)
	assert.Equal(t, 3, cur.CurrMoveNumber)
	assert.NotEqual(t, board.NoMove, cur.CurrMove)
}

// Driven as a mind.Searcher, the searcher takes the shared options, keeps
// its own (Strength), reports and answers.
func TestMindDrivesTheSearcher(t *testing.T) {
	easy, ok := DifficultyStrength("Easy")
	require.True(t, ok)
	s := New(1, Options{Strength: easy})
	m := NewMind(s)
	m.SetOptions(mind.Options{Threads: 2, MultiPV: 3, MoveOverhead: 7 * time.Millisecond})
	o := s.Options()
	assert.Equal(t, 2, o.Threads)
	assert.Equal(t, 3, o.MultiPV)
	assert.Equal(t, 7*time.Millisecond, o.MoveOverhead)
	assert.Equal(t, easy, o.Strength, "the searcher's own options stay")

	m.SetOptions(mind.Options{Threads: 1, MultiPV: 1})
	p, err := board.ParseFEN("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")
	require.NoError(t, err)
	s.SetOptions(Options{})
	var infos []mind.Info
	done := make(chan mind.Result, 1)
	m.Go(p, Limits{Depth: 3}, func(i mind.Info) { infos = append(infos, i) }, func(r mind.Result) { done <- r })
	r := <-done
	require.NoError(t, r.Err)
	assert.Equal(t, "a1a8", r.Best.UCI(false))
	require.NotEmpty(t, infos)
	assert.Equal(t, mind.MateIn(1), infos[len(infos)-1].Score)
	assert.GreaterOrEqual(t, infos[len(infos)-1].HashFull, 0)
}
