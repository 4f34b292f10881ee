package texel

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twofold-chess/twofold/board"
	"github.com/twofold-chess/twofold/eval"
)

func TestGenerateWritesLabelledQuietPositions(t *testing.T) {
	var buf bytes.Buffer
	n, err := Generate(&buf, GenOptions{Games: 2, Nodes: 300, RandomPlies: 4, Workers: 2, Seed: 7, MaxPlies: 60})
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	require.Len(t, lines, n)
	require.Positive(t, n)
	for _, l := range lines {
		fen, res, ok := strings.Cut(l, " | ")
		require.True(t, ok, l)
		_, err := board.ParseFEN(fen)
		assert.NoError(t, err, l)
		assert.Contains(t, []string{"1", "0", "1/2"}, res, l)
	}
	// Reproducible for a seed with one worker.
	var a, b bytes.Buffer
	_, err = Generate(&a, GenOptions{Games: 1, Nodes: 300, RandomPlies: 4, Seed: 3, MaxPlies: 40})
	require.NoError(t, err)
	_, err = Generate(&b, GenOptions{Games: 1, Nodes: 300, RandomPlies: 4, Seed: 3, MaxPlies: 40})
	require.NoError(t, err)
	assert.Equal(t, a.String(), b.String())
}

func TestParseResult(t *testing.T) {
	for in, want := range map[string]float64{"1": 1, "1-0": 1, "0": 0, "0-1": 0, "1/2": 0.5, "0.5": 0.5, "1/2-1/2": 0.5} {
		got, err := parseResult(in)
		require.NoError(t, err, in)
		assert.Equal(t, want, got, in)
	}
	_, err := parseResult("2")
	assert.Error(t, err)
}

func TestReadDatasetRejectsBadLines(t *testing.T) {
	w := eval.Current()
	for _, bad := range []string{"no separator", "8/8/8/8 w - - 0 1 | 1", board.StartFEN + " | maybe"} {
		_, err := ReadDataset(strings.NewReader(bad+"\n"), &w)
		assert.Error(t, err, bad)
	}
}

// The linear model the fit uses must be the evaluation itself: otherwise the
// tuner would optimise something the engine does not compute.
func TestLinearModelMatchesEvaluation(t *testing.T) {
	w := eval.Current()
	fens := []string{board.StartFEN,
		"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
		"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 b - - 0 1",
		"8/8/4k3/8/2B5/8/4K3/8 w - - 0 1"}
	ds, err := ReadDataset(strings.NewReader(strings.Join(fens, " | 1\n")+" | 1\n"), &w)
	require.NoError(t, err)
	p := toParams(&w)
	for i, f := range fens {
		pos, err := board.ParseFEN(f)
		require.NoError(t, err)
		var tr eval.Trace
		want := eval.TraceOf(pos, &w, &tr)
		assert.InDelta(t, float64(want), p.evaluate(&ds.samples[i]), 1.0, f)
	}
}

// On data whose results follow the material, the fit lowers the loss.
func TestFitLowersLoss(t *testing.T) {
	lines := []string{
		"4k3/8/8/8/8/8/8/3QK3 w - - 0 1 | 1",
		"3qk3/8/8/8/8/8/8/4K3 w - - 0 1 | 0",
		"4k3/8/8/8/8/8/8/3RK3 b - - 0 1 | 1",
		"3rk3/8/8/8/8/8/8/4K3 b - - 0 1 | 0",
		"4k3/pppp4/8/8/8/8/PPPP4/4K3 w - - 0 1 | 1/2",
	}
	var w eval.Weights // all zero: predicts 0.5 everywhere
	ds, err := ReadDataset(strings.NewReader(strings.Join(lines, "\n")), &w)
	require.NoError(t, err)
	before := ds.Loss(&w, 1)
	fitted, after := ds.Fit(&w, 1, FitOptions{Epochs: 200, LearningRate: 5})
	assert.Less(t, after, before/2)
	assert.InDelta(t, after, ds.Loss(&fitted, 1), 1e-4) // rounding to whole centipawns
}
