package main

import (
	"crypto/sha256"
	enc "encoding/binary"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twofold-chess/twofold/azero/chunk"
	"github.com/twofold-chess/twofold/azero/loop"
	"github.com/twofold-chess/twofold/azero/onnx"
	"github.com/twofold-chess/twofold/azero/onnx/onnxtest"
)

// stubTrainer is a train.py stand-in run by /bin/sh (--python /bin/sh), so
// the loop's tests need no PyTorch: it writes a checkpoint and copies
// $STUB_NET (or, when training, $STUB_TRAINED_NET) to --export; with
// $STUB_DIVERGE it fails as train.py does on a non-finite loss. It
// records an --init-onnx argument in $rundir/init-onnx. Its --check fails
// with $STUB_NO_TORCH, as train.py's does in a Python without PyTorch.
const stubTrainer = `
if [ "$1" = --check ]; then
  [ -z "$STUB_NO_TORCH" ] || { echo "ModuleNotFoundError: No module named 'torch'" >&2; exit 1; }
  echo "ok: torch stub"; exit 0
fi
all="$*"; export=""; rundir=""; init=0; from=""
while [ $# -gt 0 ]; do
  case "$1" in --export) export="$2"; shift;; --run-dir) rundir="$2"; shift;; --init-only) init=1;; --init-onnx) from="$2"; shift;; esac
  shift
done
mkdir -p "$rundir"
echo "$all" >> "$rundir/args"
if [ -n "$from" ]; then echo "$from" > "$rundir/init-onnx"; fi
if [ $init = 0 ] && [ -n "$STUB_DIVERGE" ]; then
  echo "error: training diverged: non-finite loss nan (policy nan, value nan) at step 5" >&2
  exit 3
fi
echo "checkpoint $$ $init" > "$rundir/checkpoint.pt"
net="$STUB_NET"
if [ $init = 0 ] && [ -n "$STUB_TRAINED_NET" ]; then net="$STUB_TRAINED_NET"; fi
if [ -n "$export" ]; then cp "$net" "$export"; fi
`

// trainArgs are a tiny loop's flags: a few short self-play games, the stub
// trainer, no gating games, no ladder.
func trainArgs(t *testing.T, runDir string, games int, extra ...string) []string {
	t.Helper()
	stub := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(stub, "train.py"), []byte(stubTrainer), 0o644))
	return append([]string{"train", "--run-dir", runDir, "--iterations", "1", "--games", strconv.Itoa(games),
		"--chunk-games", "1", "--workers", "1", "--parallel", "1", "--max-plies", "60",
		"--gate-games", "0", "--ladder-every", "0", "--python", "/bin/sh", "--trainer", stub}, extra...)
}

func defaultNet(t *testing.T) string {
	p, err := filepath.Abs(filepath.Join("..", "..", "azero", "onnx", "default.onnx"))
	require.NoError(t, err)
	return p
}

func readState(t *testing.T, runDir string) loop.State {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(runDir, "state.json"))
	require.NoError(t, err)
	var st loop.State
	require.NoError(t, json.Unmarshal(data, &st))
	return st
}

// A --q-ratio or --surprise-weight outside [0, 1], an --ema decay outside
// [0, 1), or negative --threads is refused before anything starts.
func TestTrainRefusesBadShares(t *testing.T) {
	if !onnx.Supported {
		t.Skip(onnx.ErrNotInBuild) // engine train refuses earlier, saying MCTS is not in the build
	}
	for _, c := range []struct{ flag, bad string }{
		{"--q-ratio", "-0.1"}, {"--q-ratio", "1.5"}, {"--q-ratio", "NaN"}, {"--q-ratio", "+Inf"},
		{"--ema", "-0.1"}, {"--ema", "1"}, {"--ema", "NaN"},
		{"--surprise-weight", "-0.5"}, {"--surprise-weight", "1.5"}, {"--surprise-weight", "NaN"},
		{"--threads", "-1"},
	} {
		dir := t.TempDir()
		code, _, stderr := engine(t, "", trainArgs(t, dir, 1, c.flag, c.bad)...)
		assert.Equal(t, 2, code, c)
		assert.Contains(t, stderr, c.flag+" "+c.bad, c)
		_, err := os.Stat(filepath.Join(dir, "state.json"))
		assert.True(t, os.IsNotExist(err), "nothing started for %v", c)
	}
}

// --ema and --surprise-weight reach train.py's command line; without them
// it is what it was.
func TestTrainPassesTechniques(t *testing.T) {
	onnxtest.Open(t)
	t.Setenv("STUB_NET", defaultNet(t))
	for _, c := range []struct {
		flags []string
		want  string
	}{
		{nil, ""},
		{[]string{"--ema", "0.999", "--surprise-weight", "0.5"}, " --ema 0.999 --surprise-weight 0.5"},
	} {
		dir := t.TempDir()
		code, _, stderr := engine(t, "", trainArgs(t, dir, 1, c.flags...)...)
		require.Equal(t, 0, code, stderr)
		data, err := os.ReadFile(filepath.Join(dir, "trainer", "args"))
		require.NoError(t, err)
		args := strings.Split(strings.TrimSpace(string(data)), "\n")
		require.Len(t, args, 2, "init, then one iteration's training")
		assert.NotContains(t, args[0], "--ema", "the first network is not trained")
		threads := fmt.Sprintf(" --threads %d", runtime.NumCPU()) // every core by default
		assert.Regexp(t, ` --log-every 50`+regexp.QuoteMeta(c.want+threads)+` --export `, args[1], c.flags)
	}
}

// --init-network starts a run from an existing network: the vetted network
// is copied into the run directory and the trainer builds its first
// checkpoint from that copy; a file that is not a network stops it first.
func TestTrainInitNetwork(t *testing.T) {
	onnxtest.Open(t)
	t.Setenv("STUB_NET", defaultNet(t))
	dir := t.TempDir()
	code, _, stderr := engine(t, "", trainArgs(t, dir, 1, "--init-network", onnx.DefaultNetworkName)...)
	require.Equal(t, 0, code, stderr)
	copied, err := os.ReadFile(filepath.Join(dir, "init.onnx"))
	require.NoError(t, err)
	shipped, err := os.ReadFile(defaultNet(t))
	require.NoError(t, err)
	assert.Equal(t, sha256.Sum256(shipped), sha256.Sum256(copied), "the embedded network is the shipped file")
	arg, err := os.ReadFile(filepath.Join(dir, "trainer", "init-onnx"))
	require.NoError(t, err)
	assert.Equal(t, filepath.Join(dir, "init.onnx"), strings.TrimSpace(string(arg)))

	bad := filepath.Join(t.TempDir(), "bad.onnx")
	require.NoError(t, os.WriteFile(bad, []byte("not a network"), 0o644))
	dir = t.TempDir()
	code, _, stderr = engine(t, "", trainArgs(t, dir, 1, "--init-network", bad)...)
	assert.Equal(t, 1, code)
	assert.Contains(t, stderr, "engine train: --init-network: network "+bad)
	_, err = os.Stat(filepath.Join(dir, "state.json"))
	assert.True(t, os.IsNotExist(err), "nothing started")
}

// A second loop on a locked run directory fails at once, naming the
// directory and the holder's pid; the lock goes with its holder.
func TestTrainRunDirLocked(t *testing.T) {
	onnxtest.Open(t)
	dir := t.TempDir()
	release, err := loop.LockRunDir(dir)
	require.NoError(t, err)
	start := time.Now()
	code, _, stderr := engine(t, "", trainArgs(t, dir, 1)...)
	assert.Equal(t, 1, code)
	assert.Contains(t, stderr, "run directory "+dir+" is in use by another engine train or climb (pid "+strconv.Itoa(os.Getpid())+")")
	assert.Less(t, time.Since(start), 5*time.Second, "it must not wait for the lock")
	_, err = os.Stat(filepath.Join(dir, "state.json"))
	assert.True(t, os.IsNotExist(err), "the refused loop must not touch the run")

	release()
	release, err = loop.LockRunDir(dir)
	require.NoError(t, err)
	release()
}

// SIGKILL in the middle of self-play, then the same command again: the
// iteration ends with exactly its games, none played twice, no chunk twice,
// no temporary files. (The loop used to replay the iteration with the same
// seed, duplicating the chunks and PGN games written before the kill.)
func TestTrainSelfplayResumesAfterKill(t *testing.T) {
	onnxtest.Open(t)
	const games = 20
	runDir := t.TempDir()
	args := trainArgs(t, runDir, games, "--playouts", "24")[1:]
	start := func() *exec.Cmd {
		cmd := exec.Command(binary(t), append([]string{"train"}, args...)...)
		cmd.Env = append(os.Environ(), "STUB_NET="+defaultNet(t))
		var out lockedBuffer
		cmd.Stdout, cmd.Stderr = &out, &out
		require.NoError(t, cmd.Start())
		t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
		return cmd
	}

	cmd := start()
	var st loop.State
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		require.True(t, time.Now().Before(deadline), "self-play recorded no progress")
		if data, err := os.ReadFile(filepath.Join(runDir, "state.json")); err == nil && json.Unmarshal(data, &st) == nil &&
			st.SelfPlay != nil && st.SelfPlay.Games >= 3 {
			break
		}
	}
	require.NoError(t, cmd.Process.Signal(syscall.SIGKILL))
	cmd.Wait()
	st = readState(t, runDir)
	require.Equal(t, "selfplay", st.Phase)
	require.Less(t, st.SelfPlay.Games, games, "killed too late to test anything")

	// What a kill at a worse moment leaves: a chunk renamed into place but
	// not yet recorded (here a copy of a recorded one), a writer's
	// temporary file, and PGN text after the recorded offset.
	chunks := filepath.Join(runDir, "chunks")
	data, err := os.ReadFile(filepath.Join(chunks, st.SelfPlay.Chunks[0]))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(chunks, "iter0001-99999999T999999.999-w0-000099.twfc.gz"), data, 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(chunks, ".tmp-chunk-123456"), data[:10], 0o644))
	pgn, err := os.OpenFile(filepath.Join(runDir, "games.pgn"), os.O_APPEND|os.O_WRONLY, 0o644)
	require.NoError(t, err)
	_, err = pgn.WriteString("[Event \"Twofold self-play\"]\n[Site \"cut short")
	require.NoError(t, err)
	require.NoError(t, pgn.Close())

	cmd = start()
	require.NoError(t, cmd.Wait(), "the resumed loop failed")
	st = readState(t, runDir)
	assert.Equal(t, 2, st.Iteration)
	assert.Nil(t, st.SelfPlay)

	entries, err := os.ReadDir(chunks)
	require.NoError(t, err)
	seen := map[[32]byte]string{}
	positions := 0
	for _, e := range entries {
		require.True(t, strings.HasPrefix(e.Name(), "iter0001-") && strings.HasSuffix(e.Name(), chunk.Ext), "stray file %s", e.Name())
		samples, err := chunk.Read(filepath.Join(chunks, e.Name()))
		require.NoError(t, err)
		h := sha256.New()
		for _, s := range samples {
			enc.Write(h, enc.LittleEndian, s.Features.Bits)
			for _, p := range s.Policy {
				enc.Write(h, enc.LittleEndian, p)
			}
		}
		sum := [32]byte(h.Sum(nil))
		assert.NotContains(t, seen, sum, "%s repeats %s", e.Name(), seen[sum])
		seen[sum] = e.Name()
		positions += len(samples)
	}
	assert.Len(t, entries, games, "one chunk per game (--chunk-games 1)")

	text, err := os.ReadFile(filepath.Join(runDir, "games.pgn"))
	require.NoError(t, err)
	pgnGames := strings.Split(string(text), "[Event ")[1:]
	assert.Len(t, pgnGames, games)
	moves := map[string]bool{}
	plies := 0
	for _, g := range pgnGames {
		movetext := g[strings.Index(g, "\n\n")+2:]
		assert.False(t, moves[movetext], "a game was played twice")
		moves[movetext] = true
		for _, tok := range strings.Fields(movetext) {
			if !strings.HasSuffix(tok, ".") && tok != "1-0" && tok != "0-1" && tok != "1/2-1/2" {
				plies++
			}
		}
	}
	// Every position is a sample (no --fast-playouts), so the chunks and
	// the PGN tell the same story.
	assert.Equal(t, plies, positions)
}

// nanNetwork writes a copy of the ONNX model src with every float
// initializer's raw data set to NaN, as a diverged trainer exported it. The
// protobuf is walked by hand (ModelProto.graph = 7, GraphProto.initializer
// = 5, TensorProto.data_type = 2 with FLOAT = 1, raw_data = 9) and patched
// in place, so its structure is untouched.
func nanNetwork(t *testing.T, src, dst string) {
	t.Helper()
	data, err := os.ReadFile(src)
	require.NoError(t, err)
	type field struct {
		num, wire  int
		start, end int // a length-delimited field's bytes
		varint     uint64
	}
	fields := func(b []byte) []field {
		var out []field
		for i := 0; i < len(b); {
			key, n := enc.Uvarint(b[i:])
			require.Positive(t, n, "bad protobuf")
			i += n
			f := field{num: int(key >> 3), wire: int(key & 7)}
			switch f.wire {
			case 0:
				f.varint, n = enc.Uvarint(b[i:])
				i += n
			case 1:
				i += 8
			case 5:
				i += 4
			case 2:
				l, n := enc.Uvarint(b[i:])
				f.start, f.end = i+n, i+n+int(l)
				i = f.end
			default:
				t.Fatalf("protobuf wire type %d", f.wire)
			}
			out = append(out, f)
		}
		return out
	}
	poisoned := 0
	for _, g := range fields(data) {
		if g.num != 7 || g.wire != 2 {
			continue
		}
		graph := data[g.start:g.end]
		for _, init := range fields(graph) {
			if init.num != 5 || init.wire != 2 {
				continue
			}
			tensor := graph[init.start:init.end]
			var float bool
			var raw []byte
			for _, f := range fields(tensor) {
				if f.num == 2 && f.wire == 0 {
					float = f.varint == 1
				}
				if f.num == 9 && f.wire == 2 {
					raw = tensor[f.start:f.end]
				}
			}
			if float && len(raw) > 0 {
				for i := 0; i+4 <= len(raw); i += 4 {
					enc.LittleEndian.PutUint32(raw[i:], 0x7fc00000) // float32 NaN
				}
				poisoned++
			}
		}
	}
	require.Positive(t, poisoned, "no float initializers in %s", src)
	require.NoError(t, os.WriteFile(dst, data, 0o644))
}

// A candidate with NaN outputs (what the old trainer exported at --lr 1e6)
// is refused before the gate: not promoted, set aside, the trainer rolled
// back, the refusal recorded; the loop stops saying what to do; and the
// same command then retrains instead of crashing again.
func TestTrainRefusesNonFiniteCandidate(t *testing.T) {
	onnxtest.Open(t)
	runDir := t.TempDir()
	nan := filepath.Join(t.TempDir(), "nan.onnx")
	nanNetwork(t, defaultNet(t), nan)
	t.Setenv("STUB_NET", defaultNet(t))
	t.Setenv("STUB_TRAINED_NET", nan)
	args := trainArgs(t, runDir, 2, "--playouts", "4", "--lr", "1e6")
	_, err := onnx.Open("", nan)
	require.ErrorIs(t, err, onnx.ErrNonFiniteNetwork, "the poisoned network must be what azero refuses")

	code, stdout, stderr := engine(t, "", args...)
	require.Equal(t, 1, code, stdout+stderr)
	assert.Contains(t, stdout, "iteration 1: candidate nets/iter-0001.onnx refused: network "+runDir+"/nets/iter-0001.onnx: network outputs NaN or infinity")
	assert.Contains(t, stderr, "It was not gated and the best network stays nets/iter-0000.onnx")
	assert.Contains(t, stderr, "the trainer was rolled back to nets/iter-0000.pt")
	assert.Contains(t, stderr, "lower --lr (now 1e+06); then run the same command again to retrain iteration 1")
	st := readState(t, runDir)
	assert.Equal(t, loop.State{Iteration: 1, Phase: "train", Best: "nets/iter-0000.onnx"}, st)
	assert.NoFileExists(t, filepath.Join(runDir, "nets", "iter-0001.onnx"))
	assert.FileExists(t, filepath.Join(runDir, "nets", "iter-0001.onnx.refused"))
	assert.FileExists(t, filepath.Join(runDir, "nets", "iter-0001.pt.refused"))
	ckpt, err := os.ReadFile(filepath.Join(runDir, "trainer", "checkpoint.pt"))
	require.NoError(t, err)
	init, err := os.ReadFile(filepath.Join(runDir, "nets", "iter-0000.pt"))
	require.NoError(t, err)
	assert.Equal(t, string(init), string(ckpt), "the trainer must restart from the last good checkpoint")
	refused, err := os.ReadFile(filepath.Join(runDir, "refused.csv"))
	require.NoError(t, err)
	assert.Regexp(t, `^iteration,candidate,reason,trainer_rolled_back_to\n1,nets/iter-0001.onnx,".*network outputs NaN or infinity.*",nets/iter-0000.pt\n$`, string(refused))

	// Once the trainer behaves, the same command goes on from the train phase.
	t.Setenv("STUB_TRAINED_NET", "")
	code, stdout, stderr = engine(t, "", args...)
	require.Equal(t, 0, code, stdout+stderr)
	assert.Contains(t, stdout, "== iteration 1 (train)")
	assert.NotContains(t, stdout, "(selfplay)", "self-play of iteration 1 was done")
	assert.Equal(t, "nets/iter-0001.onnx", readState(t, runDir).Best)
}

// A trainer that stops on a non-finite loss (train.py's exit status 3)
// gets the same treatment, and a rerun that diverges again is refused again
// in the same words, not a crash.
func TestTrainRefusesDivergedTraining(t *testing.T) {
	onnxtest.Open(t)
	runDir := t.TempDir()
	t.Setenv("STUB_NET", defaultNet(t))
	t.Setenv("STUB_DIVERGE", "1")
	args := trainArgs(t, runDir, 2, "--playouts", "4")
	for attempt := range 2 {
		code, stdout, stderr := engine(t, "", args...)
		require.Equal(t, 1, code, stdout+stderr)
		assert.Contains(t, stdout, "error: training diverged: non-finite loss nan")
		assert.Contains(t, stderr, "iteration 1: candidate nets/iter-0001.onnx refused: training diverged (non-finite loss or weights): train.py exited with status 3.")
		assert.Contains(t, stderr, "lower --lr (now 0.02)")
		assert.Equal(t, loop.State{Iteration: 1, Phase: "train", Best: "nets/iter-0000.onnx"}, readState(t, runDir), "attempt %d", attempt)
		assert.NoFileExists(t, filepath.Join(runDir, "nets", "iter-0001.onnx"))
	}
	refused, err := os.ReadFile(filepath.Join(runDir, "refused.csv"))
	require.NoError(t, err)
	assert.Equal(t, 3, strings.Count(string(refused), "\n"), "a header and one line per refusal")
}
