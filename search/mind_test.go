package search

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twofold-chess/twofold/board"
	"github.com/twofold-chess/twofold/mind"
)

// Scores are reported in moves to mate and with their bound; Value takes a
// reported score back to the search's scale.
func TestReportedScores(t *testing.T) {
	for _, c := range []struct {
		score int
		bound Bound
		want  mind.Score
	}{
		{35, BoundExact, mind.CP(35)},
		{-120, BoundLower, mind.Score{Value: -120, Bound: mind.Lower}},
		{7, BoundUpper, mind.Score{Value: 7, Bound: mind.Upper}},
		{MateScore - 1, BoundNone, mind.MateIn(1)},
		{MateScore - 5, BoundNone, mind.MateIn(3)},
		{-MateScore + 2, BoundNone, mind.MateIn(-1)},
		{-MateScore, BoundNone, mind.MateIn(0)},
	} {
		got := reported(c.score, c.bound)
		assert.Equal(t, c.want, got, "score %d", c.score)
		assert.Equal(t, c.score, Value(got), "score %d", c.score)
	}
}

// Driven as a mind.Searcher, the searcher takes the shared options, keeps
// its own (Strength), reports and answers.
func TestMindDrivesTheSearcher(t *testing.T) {
	easy, ok := DifficultyStrength("Easy")
	require.True(t, ok)
	s := New(1, Options{Strength: easy})
	var m mind.Searcher = s
	m.SetShared(mind.Shared{Threads: 2, MultiPV: 3, MoveOverhead: 7 * time.Millisecond})
	o := s.Options()
	assert.Equal(t, 2, o.Threads)
	assert.Equal(t, 3, o.MultiPV)
	assert.Equal(t, 7*time.Millisecond, o.MoveOverhead)
	assert.Equal(t, easy, o.Strength, "the searcher's own options stay")

	m.SetShared(mind.Shared{Threads: 1, MultiPV: 1})
	p, err := board.ParseFEN("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")
	require.NoError(t, err)
	s.SetOptions(Options{})
	var infos []mind.Info
	done := make(chan mind.Result, 1)
	m.Go(p, Limits{Depth: 3}, func(i mind.Info) { infos = append(infos, i) }, func(r mind.Result) { done <- r })
	r := <-done
	require.NoError(t, r.Err)
	assert.Equal(t, "a1a8", r.Best.UCI(false))
	assert.Equal(t, mind.MateIn(1), r.Score)
	require.NotEmpty(t, infos)
	assert.Equal(t, mind.MateIn(1), infos[len(infos)-1].Score)
	assert.GreaterOrEqual(t, infos[len(infos)-1].HashFull, 0)
}
