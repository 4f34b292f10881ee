package search

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twofold-chess/twofold/board"
	"github.com/twofold-chess/twofold/mind"
	"github.com/twofold-chess/twofold/mind/mindtest"
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
		// Tablebase scores: cp 20000 less the plies to the position won.
		{TBWin, BoundExact, mind.CP(20000)},
		{TBWin - 7, BoundLower, mind.Score{Value: 19993, Bound: mind.Lower}},
		{-TBWin + 3, BoundExact, mind.CP(-19997)},
		{TBWinBound, BoundExact, mind.CP(20000 - MaxPly)},
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
	mindtest.Shared(t, s, func() mind.Shared {
		o := s.Options()
		return mind.Shared{Threads: o.Threads, MultiPV: o.MultiPV, MoveOverhead: o.MoveOverhead, Tablebases: o.Tablebases}
	})
	assert.Equal(t, easy, s.Options().Strength, "the searcher's own options stay")

	s.SetOptions(Options{})
	mindtest.MateInOne(t, s, Limits{Depth: 3})
	res := s.Search(mateInOne(t), Limits{Depth: 3}, func(i mind.Info) {
		assert.GreaterOrEqual(t, i.HashFull, 0, "a searcher with a hash table")
	})
	assert.Equal(t, mind.MateIn(1), res.Score)
}

func mateInOne(t *testing.T) *board.Position {
	p, err := board.ParseFEN("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")
	require.NoError(t, err)
	return p
}
