package azero

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twofold-chess/twofold/mind"
)

// NaN once passed the real-valued options' range test (x < lo || x > hi is
// false for NaN) and infinities passed where the range allowed, and a
// search with such a constant overflowed the stack.
func TestRealOptionRefusesNonFinite(t *testing.T) {
	for _, c := range []struct {
		v      string
		lo, hi float64
		ok     bool
	}{
		{"1.25", 0.01, 100, true},
		{" 2 ", 0.01, 100, true},
		{"0.01", 0.01, 100, true},
		{"100", 0.01, 100, true},
		{"NaN", 0.01, 100, false},
		{"nan", -2, 2, false},
		{"-NaN", -2, 2, false},
		{"inf", 1, 1e9, false},
		{"+Inf", 1, 1e9, false},
		{"-inf", -2, 2, false},
		{"infinity", 0, math.Inf(1), false},
		{"1e999", 1, 1e9, false},
		{"0x1p-2", 0, 1, true},
		{"", 0, 1, false},
		{"101", 0.01, 100, false},
	} {
		x, err := parseReal("X", c.v, c.lo, c.hi)
		if c.ok {
			assert.NoError(t, err, c.v)
			assert.False(t, math.IsNaN(x) || math.IsInf(x, 0))
		} else {
			assert.Error(t, err, c.v)
		}
	}
}

// Params.Check holds the constants to the UCI options' ranges, which
// engine ladder relies on for its flags.
func TestParamsCheck(t *testing.T) {
	assert.NoError(t, DefaultParams.Check())
	for _, c := range []struct {
		change func(*Params)
		want   string
	}{
		{func(p *Params) { p.CPuct = 0 }, "CPuct wants a number from 0.01 to 100, got 0"},
		{func(p *Params) { p.CPuct = math.NaN() }, "CPuct wants"},
		{func(p *Params) { p.CPuctBase = 2e9 }, "CPuctBase wants a number from 1 to 1e+09"},
		{func(p *Params) { p.FPUReduction = math.Inf(-1) }, "FPUReduction wants a number from -2 to 2, got -Inf"},
		{func(p *Params) { p.PolicyTemp = 0.05 }, "PolicyTemperature wants a number from 0.1 to 10"},
	} {
		p := DefaultParams
		c.change(&p)
		assert.ErrorContains(t, p.Check(), c.want)
	}
	edge := Params{CPuct: 100, CPuctBase: 1, FPUReduction: -2, PolicyTemp: 0.1}
	assert.NoError(t, edge.Check(), "the ranges are closed")
}

// The settings keep their values while no searcher is open, give them to
// the one Open makes (with the shared options), pass each change on to it,
// and Close frees it.
func TestSettingsReachTheOpenSearcher(t *testing.T) {
	st := NewSettings()
	opts := st.Declare()
	set := func(name, value string) {
		t.Helper()
		o, ok := mind.Find(opts, name)
		require.True(t, ok, name)
		require.NoError(t, o.Set(value), name)
	}
	set("CPuct", "2.5")
	set("MCTSBatchSize", "8")
	s, err := st.Open(&Uniform{}, mind.Shared{Threads: 2, MultiPV: 3})
	require.NoError(t, err)
	o := s.Options()
	assert.Equal(t, 2.5, o.Params.CPuct)
	assert.Equal(t, 8, o.BatchSize)
	assert.Equal(t, 2, o.Threads)
	assert.Equal(t, 3, o.MultiPV)
	assert.Equal(t, DefaultOptions.RamLimitMB, o.RamLimitMB)

	set("RamLimitMb", "64")
	o = s.Options()
	assert.Equal(t, 64, o.RamLimitMB)
	assert.Equal(t, 2, o.Threads, "the shared options stay")

	fpu, ok := mind.Find(opts, "FPUReduction")
	require.True(t, ok)
	require.Error(t, fpu.Set("NaN"))
	assert.Equal(t, DefaultParams.FPUReduction, s.Options().Params.FPUReduction, "a refused value changes nothing")

	st.Close()
	set("CPuct", "3")
	s2, err := st.Open(&Uniform{}, mind.Shared{Threads: 1, MultiPV: 1})
	require.NoError(t, err)
	defer st.Close()
	assert.Equal(t, 3.0, s2.Options().Params.CPuct)
	assert.Equal(t, 64, s2.Options().RamLimitMB)
}
