package nnue

import (
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twofold-chess/twofold/movegen"
)

// TestGolden reads networks written by testdata/golden.py, a writer and
// evaluator of formats v1, v2 (8 output buckets) and v3 (4 king buckets) independent of this package (as the trainer's
// export is), and checks every kernel's evaluation against the scores it
// computed in exact integer arithmetic.
func TestGolden(t *testing.T) {
	for _, name := range []string{"crelu", "screlu", "screlu-b8", "screlu-k4"} {
		n, err := Load("testdata/golden-" + name + ".nnue")
		require.NoError(t, err)
		assert.Equal(t, 16, n.Hidden())
		data, err := os.ReadFile("testdata/golden-" + name + ".txt")
		require.NoError(t, err)
		lines := strings.Split(strings.TrimSpace(string(data)), "\n")
		require.NotEmpty(t, lines)
		for _, kn := range Kernels() {
			nk, err := n.WithKernel(kn)
			require.NoError(t, err)
			for _, line := range lines {
				score, fen, ok := strings.Cut(line, ";")
				require.True(t, ok, line)
				want, err := strconv.Atoi(score)
				require.NoError(t, err)
				p, err := movegen.ParseFEN(fen)
				require.NoError(t, err)
				assert.Equal(t, want, nk.Evaluate(p), "%s on %s: %s", name, kn, fen)
			}
		}
	}
}
