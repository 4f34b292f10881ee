package loop

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// argsStub is a train.py and plot.py stand-in run by /bin/sh: it records
// its arguments, and exits 3 (train.py's "diverged") when asked to.
const argsStub = `echo "$0 $*" >> "$STUB_LOG"; [ -z "$STUB_EXIT" ] || exit "$STUB_EXIT"`

// The PyTorch trainer runs the scripts with the loop's arguments and tells
// a diverged training (exit status 3) from other failures.
func TestPyTorchTrainer(t *testing.T) {
	scripts := t.TempDir()
	for _, s := range []string{"train.py", "plot.py"} {
		require.NoError(t, os.WriteFile(filepath.Join(scripts, s), []byte(argsStub), 0o644))
	}
	log := filepath.Join(t.TempDir(), "log")
	t.Setenv("STUB_LOG", log)
	var out strings.Builder
	p := PyTorch{Python: "/bin/sh", Scripts: scripts, Out: &out}
	require.NoError(t, p.Init("/run/trainer", NetShape{Blocks: 4, Channels: 32}, "/run/nets/iter-0000.onnx"))
	require.NoError(t, p.Init("/run/wdl", NetShape{Blocks: 2, Channels: 8, WDL: true}, "/run/nets/iter-0000.onnx"))
	require.NoError(t, p.Init("/run/warm", NetShape{Blocks: 4, Channels: 32, From: "/run/init.onnx"}, "/run/nets/iter-0000.onnx"))
	require.NoError(t, p.Train("/run/trainer", TrainJob{Key: "iter-0003", Chunks: "/run/chunks", Window: 40, Steps: 200, Batch: 256, LR: 0.02, L2: 1e-4, QRatio: 0.5}, "/run/nets/iter-0003.onnx"))
	require.NoError(t, p.Plot("/run/ladder.csv", "/run/ladder.png"))
	data, err := os.ReadFile(log)
	require.NoError(t, err)
	train, plot := filepath.Join(scripts, "train.py"), filepath.Join(scripts, "plot.py")
	assert.Equal(t, []string{
		train + " --init-only --exit-with-parent --run-dir /run/trainer --blocks 4 --channels 32 --export /run/nets/iter-0000.onnx",
		train + " --init-only --exit-with-parent --run-dir /run/wdl --blocks 2 --channels 8 --wdl --export /run/nets/iter-0000.onnx",
		train + " --init-only --exit-with-parent --run-dir /run/warm --blocks 4 --channels 32 --init-onnx /run/init.onnx --export /run/nets/iter-0000.onnx",
		train + " --exit-with-parent --target-key iter-0003 --chunks /run/chunks --window 40 --run-dir /run/trainer --steps 200 --batch 256 --lr 0.02 --l2 0.0001 --q-ratio 0.5 --log-every 50 --export /run/nets/iter-0003.onnx",
		plot + " /run/ladder.csv /run/ladder.png",
	}, strings.Split(strings.TrimSpace(string(data)), "\n"))

	t.Setenv("STUB_EXIT", "3")
	err = p.Train("/run/trainer", TrainJob{Key: "k"}, "/x.onnx")
	assert.ErrorIs(t, err, ErrDiverged)
	err = p.Plot("a", "b")
	require.Error(t, err)
	assert.NotErrorIs(t, err, ErrDiverged, "only train.py's status 3 means diverged")
	t.Setenv("STUB_EXIT", "1")
	err = p.Train("/run/trainer", TrainJob{Key: "k"}, "/x.onnx")
	require.Error(t, err)
	assert.NotErrorIs(t, err, ErrDiverged)
}
