package search

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestTunables(t *testing.T) {
	names := map[string]bool{}
	for _, tn := range Tunables() {
		assert.False(t, names[tn.Name], "duplicate %s", tn.Name)
		names[tn.Name] = true
		assert.True(t, tn.Min <= *tn.Value && *tn.Value <= tn.Max, "%s default %d outside %d..%d", tn.Name, *tn.Value, tn.Min, tn.Max)
		assert.Positive(t, tn.Step, tn.Name)
	}

	before := lmrTable[20][30]
	old := tp.lmrDiv
	t.Cleanup(func() { require.NoError(t, SetTunable("LMRDiv", old)) })
	require.NoError(t, SetTunable("LMRDiv", 150))
	assert.Equal(t, 150, tp.lmrDiv)
	assert.Greater(t, lmrTable[20][30], before, "a smaller divisor reduces more")

	assert.ErrorContains(t, SetTunable("LMRDiv", 5000), "120..400")
	assert.ErrorContains(t, SetTunable("NoSuchThing", 1), "no tunable")
	assert.Equal(t, 150, tp.lmrDiv, "a refused value changes nothing")
}
