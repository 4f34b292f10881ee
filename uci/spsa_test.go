//go:build spsa

package uci

import (
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/twofold-chess/twofold/search"
)

// in spsa builds every search tunable is a spin option that setoption changes.
func TestTuneOptions(t *testing.T) {
	var declared []string
	for _, o := range New(io.Discard).options {
		declared = append(declared, o.declaration())
	}
	all := strings.Join(declared, "\n")
	for _, tn := range search.Tunables() {
		assert.Contains(t, all, "option name "+tn.Name+" type spin")
	}
	tn := search.Tunables()[0]
	old := *tn.Value
	defer func() { *tn.Value = old }()
	for _, o := range New(io.Discard).options {
		if o.Name == tn.Name {
			assert.NoError(t, o.Set("100"))
		}
	}
	assert.Equal(t, 100, *tn.Value)
}
