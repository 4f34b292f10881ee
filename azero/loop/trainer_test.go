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

// Check runs train.py --check and, when it fails, says why and how to get
// PyTorch.
func TestPyTorchCheck(t *testing.T) {
	scripts := t.TempDir()
	stub := `[ "$1" = --check ] || exit 2; [ -z "$STUB_NO_TORCH" ] || { echo "Traceback (most recent call last):" >&2; echo "ModuleNotFoundError: No module named 'torch'" >&2; exit 1; }`
	require.NoError(t, os.WriteFile(filepath.Join(scripts, "train.py"), []byte(stub), 0o644))
	p := PyTorch{Python: "/bin/sh", Scripts: scripts, Out: &strings.Builder{}}
	require.NoError(t, p.Check())
	t.Setenv("STUB_NO_TORCH", "1")
	err := p.Check()
	require.Error(t, err)
	assert.Contains(t, err.Error(), "/bin/sh cannot run the trainer (exit status 1: ModuleNotFoundError: No module named 'torch'); make py-deps installs")
}

// evaluateStub is evaluate.py's stand-in: one JSON line per network named
// after --json, as evaluate.py --json prints.
const evaluateStub = `echo "$0 $*" >> "$STUB_LOG"
while [ "$1" != "--json" ]; do shift; done; shift
for n in "$@"; do echo "{\"network\": \"$n\", \"shape\": \"4x32\", \"samples\": 7, \"policy\": 1.5, \"entropy\": 1.25, \"value_mse\": 0.5}"; done`

// The rounds' uses of the scripts: training on a sample set from a
// network, with the device and threads, a segment that exports nothing,
// packing, and the held-out loss read from evaluate.py's JSON.
func TestPyTorchRoundsTrainer(t *testing.T) {
	scripts := t.TempDir()
	for s, text := range map[string]string{"train.py": argsStub, "sampleset.py": argsStub, "evaluate.py": evaluateStub} {
		require.NoError(t, os.WriteFile(filepath.Join(scripts, s), []byte(text), 0o644))
	}
	log := filepath.Join(t.TempDir(), "log")
	t.Setenv("STUB_LOG", log)
	var out strings.Builder
	p := PyTorch{Python: "/bin/sh", Scripts: scripts, Out: &out, Device: "cuda", Threads: 2}
	require.NoError(t, p.Train("/run/round-001/trainer", TrainJob{Key: "round001-seg1", SampleSet: "/run/round-001/set", From: "/run/round-000/network.onnx",
		Steps: 3000, Batch: 1024, LR: 0.01, L2: 1e-4}, ""))
	require.NoError(t, p.Train("/run/round-001/trainer", TrainJob{Key: "round001-seg2", SampleSet: "/run/round-001/set",
		Steps: 900, Batch: 1024, LR: 0.001, L2: 1e-4}, "/run/round-001/network.onnx"))
	require.NoError(t, p.Pack([]string{"/run/round-001/chunks"}, "/run/round-001/set", 24))
	require.NoError(t, p.Pack([]string{"/run/round-001/chunks", "/run/round-002/chunks"}, "/run/round-002/set", 24))
	res, err := p.HeldOut("/run/round-001/set", "/a.onnx", "/b.onnx")
	require.NoError(t, err)
	assert.Equal(t, []HeldOut{
		{Network: "/a.onnx", Samples: 7, Policy: 1.5, Entropy: 1.25, ValueMSE: 0.5},
		{Network: "/b.onnx", Samples: 7, Policy: 1.5, Entropy: 1.25, ValueMSE: 0.5},
	}, res)
	data, err := os.ReadFile(log)
	require.NoError(t, err)
	train, sampleset, evaluate := filepath.Join(scripts, "train.py"), filepath.Join(scripts, "sampleset.py"), filepath.Join(scripts, "evaluate.py")
	assert.Equal(t, []string{
		train + " --exit-with-parent --target-key round001-seg1 --sample-set /run/round-001/set --run-dir /run/round-001/trainer --steps 3000 --batch 1024 --lr 0.01 --l2 0.0001 --q-ratio 0 --log-every 50 --init-onnx /run/round-000/network.onnx --device cuda --threads 2",
		train + " --exit-with-parent --target-key round001-seg2 --sample-set /run/round-001/set --run-dir /run/round-001/trainer --steps 900 --batch 1024 --lr 0.001 --l2 0.0001 --q-ratio 0 --log-every 50 --device cuda --threads 2 --export /run/round-001/network.onnx",
		sampleset + " --chunks /run/round-001/chunks --out /run/round-001/set --holdout 24",
		sampleset + " --chunks /run/round-001/chunks --chunks /run/round-002/chunks --out /run/round-002/set --holdout 24",
		evaluate + " --sample-set /run/round-001/set --json /a.onnx /b.onnx",
	}, strings.Split(strings.TrimSpace(string(data)), "\n"))

	// A network evaluate.py could not measure is an error.
	require.NoError(t, os.WriteFile(evaluate, []byte(`echo '{"network": "/a.onnx"}'`), 0o644))
	_, err = p.HeldOut("/set", "/a.onnx", "/b.onnx")
	assert.ErrorContains(t, err, "evaluate.py measured 1 of 2 networks")
	require.NoError(t, os.WriteFile(evaluate, []byte(`exit 2`), 0o644))
	_, err = p.HeldOut("/set", "/a.onnx")
	assert.ErrorContains(t, err, "evaluate.py")
}

// The opt-in techniques reach train.py's command line when set, and
// leave it as it was when off.
func TestPyTorchTrainerTechniques(t *testing.T) {
	scripts := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(scripts, "train.py"), []byte(argsStub), 0o644))
	const base = " --exit-with-parent --target-key k --sample-set /set --run-dir /run --steps 10 --batch 64 --lr 0.01 --l2 0.0001 --q-ratio 0 --log-every 50"
	for _, c := range []struct {
		ema, surprise float64
		want          string
	}{
		{0, 0, base + " --export /n.onnx"},
		{0.999, 0, base + " --ema 0.999 --export /n.onnx"},
		{0, 0.5, base + " --surprise-weight 0.5 --export /n.onnx"},
		{0.9995, 1, base + " --ema 0.9995 --surprise-weight 1 --export /n.onnx"},
	} {
		log := filepath.Join(t.TempDir(), "log")
		t.Setenv("STUB_LOG", log)
		p := PyTorch{Python: "/bin/sh", Scripts: scripts, Out: &strings.Builder{}}
		job := TrainJob{Key: "k", SampleSet: "/set", Steps: 10, Batch: 64, LR: 0.01, L2: 1e-4, EMA: c.ema, SurpriseWeight: c.surprise}
		require.NoError(t, p.Train("/run", job, "/n.onnx"))
		data, err := os.ReadFile(log)
		require.NoError(t, err)
		assert.Equal(t, filepath.Join(scripts, "train.py")+c.want, strings.TrimSpace(string(data)), "ema %v, surprise %v", c.ema, c.surprise)
	}
}
