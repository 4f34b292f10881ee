package main

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/twofold-chess/twofold/azero"
	"github.com/twofold-chess/twofold/azero/onnx"
)

// Self-play settings that cannot work are refused with the flag's name.
func TestCheckSelfplay(t *testing.T) {
	for _, tc := range []struct {
		name   string
		change func(*azero.SelfPlayConfig)
		flag   string // "" = accepted
	}{
		{"defaults", func(*azero.SelfPlayConfig) {}, ""},
		{"no playouts", func(c *azero.SelfPlayConfig) { c.Playouts = 0 }, "--playouts"},
		{"fast as many as full", func(c *azero.SelfPlayConfig) { c.FastPlayouts = c.Playouts }, "--fast-playouts"},
		{"full share 0", func(c *azero.SelfPlayConfig) { c.FastPlayouts, c.FullShare = 8, 0 }, "--full-share"},
		{"Gumbel", func(c *azero.SelfPlayConfig) { c.GumbelActions = 16 }, ""},
		{"Gumbel negative", func(c *azero.SelfPlayConfig) { c.GumbelActions = -1 }, "--gumbel"},
		{"Gumbel absurd", func(c *azero.SelfPlayConfig) { c.GumbelActions = 1 << 20 }, "--gumbel"},
		{"no workers", func(c *azero.SelfPlayConfig) { c.Workers = 0 }, "--workers"},
		{"no games in lockstep", func(c *azero.SelfPlayConfig) { c.Parallel = 0 }, "--parallel"},
		{"no leaves", func(c *azero.SelfPlayConfig) { c.LeavesPerGame = 0 }, "--leaves"},
		{"empty chunks", func(c *azero.SelfPlayConfig) { c.ChunkGames = 0 }, "--chunk-games"},
		{"no plies", func(c *azero.SelfPlayConfig) { c.MaxPlies = 0 }, "--max-plies"},
		{"negative sampling", func(c *azero.SelfPlayConfig) { c.SamplePlies = -1 }, "--sample-plies"},
		{"noise weight above 1", func(c *azero.SelfPlayConfig) { c.NoiseWeight = 1.5 }, "--noise-weight"},
		{"noise alpha 0", func(c *azero.SelfPlayConfig) { c.NoiseAlpha = 0 }, "--noise-alpha"},
		{"noise alpha 0 without noise", func(c *azero.SelfPlayConfig) { c.NoiseAlpha, c.NoiseWeight = 0, 0 }, ""},
		{"policy temperature 0", func(c *azero.SelfPlayConfig) { c.Params.PolicyTemp = 0 }, "--policy-temp"},
		{"policy temperature NaN", func(c *azero.SelfPlayConfig) { c.Params.PolicyTemp = math.NaN() }, "--policy-temp"},
		{"policy temperature 1.4", func(c *azero.SelfPlayConfig) { c.Params.PolicyTemp = 1.4 }, ""},
		{"resign NaN", func(c *azero.SelfPlayConfig) { c.ResignThreshold = math.NaN() }, "--resign"},
		{"resign check above 1", func(c *azero.SelfPlayConfig) { c.ResignCheck = 2 }, "--resign-check"},
	} {
		c := azero.DefaultSelfPlay
		tc.change(&c)
		err := checkSelfplay(&c)
		if tc.flag == "" {
			assert.NoError(t, err, tc.name)
		} else if assert.Error(t, err, tc.name) {
			assert.Contains(t, err.Error(), tc.flag, tc.name)
		}
	}
}

// A count of games below 1 once meant "until stopped".
func TestSelfplayRefusesNoGames(t *testing.T) {
	if !onnx.Supported {
		t.Skip(onnx.ErrNotInBuild) // engine selfplay refuses earlier, saying MCTS is not in the build
	}
	for _, n := range []string{"0", "-3"} {
		code, _, errOut := engine(t, "", "selfplay", "--games", n)
		assert.Equal(t, 2, code, n)
		assert.Contains(t, errOut, "--games must be at least 1", n)
	}
}
