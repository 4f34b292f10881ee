package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twofold-chess/twofold/azero/loop"
	"github.com/twofold-chess/twofold/azero/onnx"
	"github.com/twofold-chess/twofold/azero/onnx/onnxtest"
)

// Stand-ins for the other scripts of azero/train, run by /bin/sh: a
// sample set that is only its meta.json, a held-out loss for each network,
// a plot that is only a file.
const (
	stubSampleset = `while [ $# -gt 0 ]; do case "$1" in --out) out="$2"; shift;; esac; shift; done
mkdir -p "$out" && echo '{}' > "$out/meta.json"`
	stubEvaluate = `while [ "$1" != "--json" ]; do shift; done; shift
for n in "$@"; do echo "{\"network\": \"$n\", \"samples\": 10, \"policy\": 2.5, \"entropy\": 1, \"value_mse\": 0.5}"; done`
	stubPlot = `echo png > "$2"`
)

// climbArgs are a miniature run's flags: one round of 4 short games, the
// stub scripts, the random rung only. (Not --steps and --lr: a slice flag
// given twice appends.)
func climbArgs(t *testing.T, runDir string, extra ...string) []string {
	t.Helper()
	stub := t.TempDir()
	for name, text := range map[string]string{"train.py": stubTrainer, "sampleset.py": stubSampleset, "evaluate.py": stubEvaluate, "plot.py": stubPlot} {
		require.NoError(t, os.WriteFile(filepath.Join(stub, name), []byte(text), 0o644))
	}
	return append([]string{"climb", "--run-dir", runDir, "--rounds", "1", "--games", "4", "--chunk-games", "1",
		"--workers", "1", "--parallel", "1", "--playouts", "8", "--fast-playouts", "4", "--gumbel", "4", "--max-plies", "40",
		"--holdout", "1", "--batch", "32",
		"--ladder-games", "2", "--ladder-playouts", "8", "--ladder-rungs", "random", "--ladder-seeds", "1", "--ladder-workers", "1",
		"--progress", "0s", "--python", "/bin/sh", "--trainer", stub}, extra...)
}

// Settings that cannot work are refused before anything starts.
func TestClimbRefusesBadFlags(t *testing.T) {
	if !onnx.Supported {
		t.Skip(onnx.ErrNotInBuild) // engine climb refuses earlier, saying MCTS is not in the build
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--lr", "0.01"}, "--steps has 2 segments and --lr 1"},
		{[]string{"--lr", "0.01,-1"}, "--lr [0.01 -1]: want positive learning rates"},
		{[]string{"--steps", "0,1"}, "every segment needs at least one step"},
		{[]string{"--promote-z", "-1"}, "--promote-z -1"},
		{[]string{"--always-promote", "--never-promote"}, "give one of them at most"},
		{[]string{"--window", "0"}, "--window must be at least 1"},
		{[]string{"--threads", "-1"}, "--threads -1: want 0 (PyTorch's default) or more"},
		{[]string{"--ladder-rungs", "nobody"}, `--ladder-rungs: no rung "nobody"`},
		{[]string{"--ladder-games", "1"}, "--ladder-games at least 2"},
		{[]string{"--fast-playouts", "8"}, "--fast-playouts must be"},
		{[]string{"--ema", "1"}, "--ema 1: want a decay in [0, 1)"},
		{[]string{"--surprise-weight", "-0.5"}, "--surprise-weight -0.5: want a share in [0, 1]"},
		{[]string{"--trainer", "/no/such/dir"}, "--trainer /no/such/dir: no train.py there"},
	} {
		dir := t.TempDir()
		code, _, stderr := engine(t, "", climbArgs(t, dir, c.args...)...)
		assert.Equal(t, 2, code, c.args)
		assert.Contains(t, stderr, c.want, c.args)
		assert.NoFileExists(t, filepath.Join(dir, "state.json"), c.args)
	}
	code, _, stderr := engine(t, "", "climb")
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, "--run-dir is required")

	// A Python without PyTorch is found before the first self-play game,
	// not hours later at the first training.
	t.Setenv("STUB_NO_TORCH", "1")
	dir := t.TempDir()
	code, _, stderr = engine(t, "", climbArgs(t, dir)...)
	assert.Equal(t, 1, code)
	assert.Contains(t, stderr, "cannot run the trainer (exit status 1: ModuleNotFoundError: No module named 'torch'); make py-deps installs")
	assert.NoFileExists(t, filepath.Join(dir, "state.json"))
}

// One miniature round through the command: the embedded network plays,
// the stub trainer "trains" it, both climb the ladder, and the round is
// recorded; run again, the finished run does nothing more.
func TestClimbRunsARound(t *testing.T) {
	onnxtest.Open(t)
	t.Setenv("STUB_NET", defaultNet(t))
	dir := t.TempDir()
	args := climbArgs(t, dir, "--steps", "2,1", "--lr", "0.01,0.001")
	code, stdout, stderr := engine(t, "", args...)
	require.Equal(t, 0, code, stderr)
	for _, s := range []string{"== round 0: ladder;", "== round 1: selfplay;", "round 1 selfplay: 4 games in", "== round 1: train;",
		"round 1 check: held-out loss on 10 samples: policy 2.5000 -> 2.5000", "round 1 promote: round-001/network.onnx against round-000/network.onnx: ",
		"done: 1 rounds"} {
		assert.Contains(t, stdout, s)
	}
	data, err := os.ReadFile(filepath.Join(dir, "state.json"))
	require.NoError(t, err)
	var st loop.RoundState
	require.NoError(t, json.Unmarshal(data, &st))
	assert.Equal(t, 2, st.Round)
	assert.Equal(t, 4, st.Games)
	shipped, err := os.ReadFile(defaultNet(t))
	require.NoError(t, err)
	first, err := os.ReadFile(filepath.Join(dir, "round-000", "network.onnx"))
	require.NoError(t, err)
	assert.Equal(t, shipped, first, "round 0 is the embedded network")
	arg, err := os.ReadFile(filepath.Join(dir, "round-001", "trainer", "init-onnx"))
	require.NoError(t, err)
	assert.Equal(t, filepath.Join(dir, "round-000", "network.onnx"), strings.TrimSpace(string(arg)), "round 1 trained from round 0's network")
	assert.FileExists(t, filepath.Join(dir, "round-001", "network.onnx"))
	assert.FileExists(t, filepath.Join(dir, "curve.png"))
	curve, err := os.ReadFile(filepath.Join(dir, "curve.csv"))
	require.NoError(t, err)
	assert.Len(t, strings.Split(strings.TrimSpace(string(curve)), "\n"), 3)

	code, stdout, stderr = engine(t, "", args...)
	require.Equal(t, 0, code, stderr)
	assert.NotContains(t, stdout, "== round")
	assert.Contains(t, stdout, "done: 1 rounds")

	// The trainer's opt-in techniques: off in round 1 (today's command
	// line), on in a round 2 asked for with them, in both its segments.
	code, stdout, stderr = engine(t, "", append(args, "--rounds", "2", "--ema", "0.999", "--surprise-weight", "0.5")...)
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, stdout, "round 2 train: segment 1 of 2, 2 steps at lr 0.01, batch 32, weight average 0.999, surprise weight 0.5")
	for round, want := range map[string]string{"round-001": " --log-every 50 ", "round-002": " --ema 0.999 --surprise-weight 0.5 "} {
		data, err := os.ReadFile(filepath.Join(dir, round, "trainer", "args"))
		require.NoError(t, err)
		segments := strings.Split(strings.TrimSpace(string(data)), "\n")
		require.Len(t, segments, 2, round)
		for _, s := range segments {
			assert.Contains(t, s, want, round)
			assert.Contains(t, s, fmt.Sprintf(" --threads %d", runtime.NumCPU()), "the trainer gets every core")
			if round == "round-001" {
				assert.NotContains(t, s, "--ema", round)
				assert.NotContains(t, s, "--surprise-weight", round)
			}
		}
	}
}
