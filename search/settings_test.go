package search

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twofold-chess/twofold/mind"
	"github.com/twofold-chess/twofold/nnue"
)

func set(t *testing.T, opts []mind.Option, name, value string) {
	t.Helper()
	o, ok := mind.Find(opts, name)
	require.True(t, ok, name)
	require.NoError(t, o.Set(value), name)
}

// The settings start at their declared defaults, applied to the searcher;
// the strength options resolve as UCI has them (Difficulty, then
// UCI_LimitStrength with UCI_Elo, then Skill Level) and reach the searcher
// at once, with the evaluation they imply.
func TestSettingsReachTheSearcher(t *testing.T) {
	s := New(1, Options{})
	st := NewSettings(s, nil)
	opts := st.Declare()
	var names []string
	for _, o := range opts {
		names = append(names, o.Name)
	}
	assert.Equal(t, []string{"Hash", "Clear Hash", "Skill Level", "UCI_LimitStrength", "UCI_Elo", "Difficulty", "EvalFile", "Use NNUE"}, names)
	assert.Equal(t, Strength{}, s.Options().Strength)
	assert.Same(t, nnue.Default(), s.Options().Network)
	assert.Same(t, nnue.Default(), st.Evaluator())

	set(t, opts, "Skill Level", "5")
	assert.Equal(t, SkillStrength(5), s.Options().Strength)
	assert.Nil(t, st.Evaluator(), "a weakened mode evaluates by hand")
	set(t, opts, "UCI_Elo", "1800")
	set(t, opts, "UCI_LimitStrength", "true")
	assert.Equal(t, EloStrength(1800), s.Options().Strength)
	set(t, opts, "Difficulty", "Easy")
	easy, _ := DifficultyStrength("Easy")
	assert.Equal(t, easy, s.Options().Strength)
	set(t, opts, "Difficulty", "Max")
	set(t, opts, "UCI_LimitStrength", "false")
	set(t, opts, "Skill Level", "20")
	assert.Equal(t, Strength{}, s.Options().Strength)
	assert.Same(t, nnue.Default(), st.Evaluator())

	set(t, opts, "Use NNUE", "false")
	assert.Nil(t, st.Evaluator())
	assert.Same(t, nnue.Default(), st.Network(), "loaded, not used")
	assert.Contains(t, st.DescribeNetwork(), "not in use (Use NNUE is false")
}
