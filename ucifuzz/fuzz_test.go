package ucifuzz

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// repoRoot finds the module root above the test's working directory.
func repoRoot(t *testing.T) string {
	dir, err := os.Getwd()
	require.NoError(t, err)
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		require.NotEqual(t, parent, dir, "no go.mod above the test directory")
		dir = parent
	}
}

// TestFuzzTheEngine builds the real engine and sends it a few hundred
// fuzzed lines, half the processes searching with MCTS. Any failure fails
// the test; the reproducers are in the test's log.
func TestFuzzTheEngine(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and fuzzes the engine binary")
	}
	root := repoRoot(t)
	engine := filepath.Join(t.TempDir(), "engine")
	out, err := exec.Command("go", "build", "-o", engine, filepath.Join(root, "cmd", "engine")).CombinedOutput()
	require.NoError(t, err, "go build: %s", out)
	if _, err := os.Stat(filepath.Join(root, "lib", "libonnxruntime.so.1")); err != nil {
		t.Logf("no ONNX Runtime in lib/: the MCTS processes fall back to AlphaBeta")
	}
	repro := t.TempDir()
	// The engine finds lib/ from its working directory, the repository root.
	sum, err := Fuzz(Config{Run: RunOptions{Engine: engine, Dir: root, MemLimitMB: 6144}, Seed: 1, Inputs: 300, PerProcess: 60, Parallel: 2, ReproDir: repro})
	require.NoError(t, err)
	t.Log(sum.Line())
	if sum.Failed() {
		for _, path := range sum.First {
			if data, err := os.ReadFile(path); err == nil {
				t.Logf("%s:\n%s", path, clip(string(data), 4000))
			}
		}
	}
	assert.False(t, sum.Failed(), "%s", sum.Report())
	assert.Positive(t, sum.BestMoves)
}
