package search_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/twofold-chess/twofold/board"
	"github.com/twofold-chess/twofold/search"
)

// strengthRank orders Strengths from weak to strong the way the ladder is
// built: fixed depths first (deeper, then smaller margin, is stronger), then
// node caps by hand-crafted evaluation, then node caps with the network
// (more nodes is stronger; the network's smallest cap outplays the largest
// cap by hand), then full strength.
func strengthRank(st search.Strength) float64 {
	switch {
	case st.Depth > 0:
		return float64(st.Depth)*1000 - float64(st.Margin)
	case st.Nodes > 0 && st.Network:
		return 1e9 + float64(st.Nodes)
	case st.Nodes > 0:
		return 1e6 + float64(st.Nodes)
	default:
		return 1e12
	}
}

func TestEloStrengthLadder(t *testing.T) {
	assert.Equal(t, search.Strength{}, search.EloStrength(search.MaxElo))
	assert.Equal(t, search.Strength{}, search.EloStrength(search.MaxElo+1000))
	weakest := search.EloStrength(search.MinElo)
	assert.NotEqual(t, search.Strength{}, weakest)
	assert.Equal(t, weakest, search.EloStrength(search.MinElo-500))
	assert.Equal(t, weakest, search.EloStrength(0))
	// Monotone: a higher Elo never plays weaker.
	prev := weakest
	for elo := search.MinElo; elo <= search.MaxElo; elo += 5 {
		st := search.EloStrength(elo)
		assert.GreaterOrEqual(t, strengthRank(st), strengthRank(prev), "Elo %d: %+v after %+v", elo, st, prev)
		assert.False(t, st.Depth > 0 && st.Nodes > 0, "Elo %d: %+v", elo, st)
		prev = st
	}
}

func TestNodeCappedStrength(t *testing.T) {
	st := search.Strength{Nodes: 3000}
	for _, threads := range []int{1, 2} {
		s := search.New(16, search.Options{Strength: st, Threads: threads})
		p := board.StartPosition()
		res := s.Search(p, search.Limits{}, nil)
		assert.True(t, isLegal(p, res.Best))
		// Limits are checked every 1024 nodes and at the end of an iteration.
		assert.Less(t, res.Nodes, uint64(3000+2048), "threads %d", threads)
		assert.Greater(t, res.Nodes, uint64(0))
		// A go nodes limit below the cap wins.
		res = s.Search(p, search.Limits{Nodes: 1000}, nil)
		assert.Less(t, res.Nodes, uint64(1000+2048))
	}
}

// Limited tells the weakened settings from full strength (the UCI loop
// evaluates the weakened ones by hand).
func TestStrengthLimited(t *testing.T) {
	easy, _ := search.DifficultyStrength("Easy")
	maxLevel, _ := search.DifficultyStrength("Max")
	for _, c := range []struct {
		name    string
		st      search.Strength
		limited bool
	}{
		{"zero", search.Strength{}, false},
		{"Skill Level 20", search.SkillStrength(20), false},
		{"Skill Level 10", search.SkillStrength(10), true},
		{"UCI_Elo 1500", search.EloStrength(1500), true},
		{"UCI_Elo 1900", search.EloStrength(1900), true},
		{"Difficulty Easy", easy, true},
		{"Difficulty Max", maxLevel, false},
	} {
		assert.Equal(t, c.limited, c.st.Limited(), c.name)
	}
}
