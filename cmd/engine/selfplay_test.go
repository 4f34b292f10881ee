package main

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/twofold-chess/twofold/azero"
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
