package loop

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twofold-chess/twofold/azero"
	"github.com/twofold-chess/twofold/azero/chunk"
	"github.com/twofold-chess/twofold/ladder"
)

// stubTrainer stands in for PyTorch: its "networks" are small text files
// the stub loader reads (a file starting with "nan" is a network with
// non-finite outputs), its checkpoint a line naming what made it.
type stubTrainer struct {
	mu      sync.Mutex
	jobs    []TrainJob
	plots   int
	diverge bool // Train fails as train.py does on a non-finite loss
	poison  bool // Train exports a network with NaN outputs
	fail    error
	failOn  string // Train fails with fail only for this job key ("": every job)
	inits   []NetShape
	packs   [][]string // Pack's chunk directories, call by call
}

func (s *stubTrainer) Init(dir string, shape NetShape, export string) error {
	s.inits = append(s.inits, shape)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "checkpoint.pt"), []byte(fmt.Sprintf("init %dx%d", shape.Blocks, shape.Channels)), 0o644); err != nil {
		return err
	}
	return os.WriteFile(export, []byte("net init"), 0o644)
}

func (s *stubTrainer) Train(dir string, job TrainJob, export string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.jobs = append(s.jobs, job)
	switch {
	case s.fail != nil && (s.failOn == "" || s.failOn == job.Key):
		return s.fail
	case s.diverge:
		return fmt.Errorf("%w: train.py exited with status 3", ErrDiverged)
	}
	if err := os.WriteFile(filepath.Join(dir, "checkpoint.pt"), []byte("trained "+job.Key), 0o644); err != nil {
		return err
	}
	net := "net " + job.Key
	if s.poison {
		net = "nan " + job.Key
	}
	if export == "" {
		return nil
	}
	return os.WriteFile(export, []byte(net), 0o644)
}

func (s *stubTrainer) Plot(csv, png string) error {
	s.plots++
	return os.WriteFile(png, []byte("png"), 0o644)
}

// stubLoad loads a stub network as the uniform evaluator.
func stubLoad(path string) (azero.Backend, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("cannot read network file: %w", err)
	}
	if strings.HasPrefix(string(data), "nan") {
		return nil, fmt.Errorf("network %s: network outputs NaN or infinity: value NaN", path)
	}
	return &azero.Uniform{}, nil
}

func testConfig(t *testing.T, tr Trainer, games int) *Config {
	sp := azero.DefaultSelfPlay
	sp.Workers, sp.Parallel, sp.Playouts, sp.MaxPlies, sp.ChunkGames, sp.Seed = 1, 1, 8, 40, 1, 7
	return &Config{
		RunDir: t.TempDir(), Iterations: 1, GamesPerIter: games,
		Steps: 10, Batch: 16, Window: 4, LR: 0.02, L2: 1e-4, Net: NetShape{Blocks: 1, Channels: 8},
		GateGames: 2, GatePlayouts: 8, GateRandomPlies: 2, GateSampleMoves: 2,
		LadderEvery: 1, LadderPlayouts: 8,
		Ladder:   ladder.ClimbConfig{Games: 2, MaxPlies: 30, Workers: 1, Seed: 1, Rungs: []string{"random"}},
		SelfPlay: sp, Trainer: tr, Load: stubLoad, Out: &strings.Builder{},
	}
}

func readState(t *testing.T, dir string) State {
	t.Helper()
	st, err := LoadState(filepath.Join(dir, "state.json"))
	require.NoError(t, err)
	return st
}

func lines(t *testing.T, path string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	return strings.Split(strings.TrimRight(string(data), "\n"), "\n")
}

func count(t *testing.T, path, s string) int {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	return strings.Count(string(data), s)
}

// Two whole iterations: self-play, training (the trainer's jobs as asked),
// the gate, the ladder, and every record in the run directory.
func TestLoopRunsIterations(t *testing.T) {
	tr := &stubTrainer{}
	c := testConfig(t, tr, 3)
	c.Iterations = 2
	require.NoError(t, Run(c))
	dir := c.RunDir

	st := readState(t, dir)
	assert.Equal(t, State{Iteration: 3, Phase: "selfplay", Best: st.Best, BestIter: st.BestIter}, st)
	require.Len(t, tr.jobs, 2)
	assert.Equal(t, TrainJob{Key: "iter-0001", Chunks: filepath.Join(dir, "chunks"), Window: 4, Steps: 10, Batch: 16, LR: 0.02, L2: 1e-4}, tr.jobs[0])
	assert.Equal(t, "iter-0002", tr.jobs[1].Key)

	chunks, err := filepath.Glob(filepath.Join(dir, "chunks", "iter000[12]-*"+chunk.Ext))
	require.NoError(t, err)
	assert.Len(t, chunks, 6, "one chunk per game")
	assert.Equal(t, 6, count(t, filepath.Join(dir, "games.pgn"), `[Event "Twofold self-play"]`))
	for _, f := range []string{"iter-0000.pt", "iter-0001.onnx", "iter-0001.pt", "iter-0002.onnx", "iter-0002.pt"} {
		assert.FileExists(t, filepath.Join(dir, "nets", f))
	}
	pt, err := os.ReadFile(filepath.Join(dir, "nets", "iter-0002.pt"))
	require.NoError(t, err)
	assert.Equal(t, "trained iter-0002", string(pt), "the checkpoint beside its network")

	gating := lines(t, filepath.Join(dir, "gating.csv"))
	require.Len(t, gating, 3)
	assert.Equal(t, "iteration,candidate,best,wins,draws,losses,percent,promoted", gating[0])
	assert.Regexp(t, `^1,nets/iter-0001.onnx,nets/iter-0000.onnx,\d+,\d+,\d+,\d+\.\d,(true|false)$`, gating[1])
	assert.Equal(t, 2, count(t, filepath.Join(dir, "gating.pgn"), `[Event "Twofold gating, iteration 1"]`))

	ladderCSV := lines(t, filepath.Join(dir, "ladder.csv"))
	require.Len(t, ladderCSV, 3)
	assert.Equal(t, ladder.CSVHeader(), ladderCSV[0])
	assert.True(t, strings.HasPrefix(ladderCSV[2], "2,"), ladderCSV[2])
	assert.Equal(t, 2, count(t, filepath.Join(dir, "ladder.pgn"), `[Event "Twofold ladder, iteration 2"]`))
	assert.FileExists(t, filepath.Join(dir, "ladder.png"))
	assert.Equal(t, 2, tr.plots)
	assert.Contains(t, c.Out.(*strings.Builder).String(), "done: best network")

	// The opt-in techniques go to every iteration's job.
	c.Iterations, c.EMA, c.SurpriseWeight = 3, 0.999, 0.5
	require.NoError(t, Run(c))
	require.Len(t, tr.jobs, 3)
	assert.Equal(t, TrainJob{Key: "iter-0003", Chunks: filepath.Join(dir, "chunks"), Window: 4, Steps: 10, Batch: 16, LR: 0.02, L2: 1e-4,
		EMA: 0.999, SurpriseWeight: 0.5}, tr.jobs[2])
}

// With InitNetwork a new run keeps the network as DIR/init.onnx and the
// trainer starts from that file; a resumed run neither rewrites it nor
// starts again.
func TestLoopStartsFromInitNetwork(t *testing.T) {
	tr := &stubTrainer{}
	c := testConfig(t, tr, 1)
	c.InitNetwork = []byte("the starting network")
	require.NoError(t, Run(c))
	from := filepath.Join(c.RunDir, "init.onnx")
	require.Equal(t, []NetShape{{Blocks: 1, Channels: 8, From: from}}, tr.inits)
	data, err := os.ReadFile(from)
	require.NoError(t, err)
	assert.Equal(t, "the starting network", string(data))

	c.Iterations = 2
	c.InitNetwork = []byte("another network")
	require.NoError(t, Run(c))
	assert.Len(t, tr.inits, 1, "the trainer was initialised once")
	data, err = os.ReadFile(from)
	require.NoError(t, err)
	assert.Equal(t, "the starting network", string(data))
}

// A trainer that diverges: the candidate is refused, nothing is gated, the
// trainer's checkpoint is rolled back, the refusal recorded, and the loop
// stops at the train phase, saying what to do; a second run that diverges
// again is refused again in the same words.
func TestLoopRefusesDivergedTraining(t *testing.T) {
	tr := &stubTrainer{diverge: true}
	c := testConfig(t, tr, 1)
	for range 2 {
		err := Run(c)
		require.Error(t, err)
		assert.Contains(t, err.Error(), "iteration 1: candidate nets/iter-0001.onnx refused: training diverged (non-finite loss or weights): train.py exited with status 3.")
		assert.Contains(t, err.Error(), "It was not gated and the best network stays nets/iter-0000.onnx; the trainer was rolled back to nets/iter-0000.pt")
		assert.Contains(t, err.Error(), "lower --lr (now 0.02); then run the same command again to retrain iteration 1")
		assert.Equal(t, State{Iteration: 1, Phase: "train", Best: "nets/iter-0000.onnx"}, readState(t, c.RunDir))
	}
	assert.Len(t, lines(t, filepath.Join(c.RunDir, "refused.csv")), 3, "a header and one line per refusal")
	assert.NoFileExists(t, filepath.Join(c.RunDir, "gating.csv"))
	ckpt, err := os.ReadFile(filepath.Join(c.RunDir, "trainer", "checkpoint.pt"))
	require.NoError(t, err)
	assert.Equal(t, "init 1x8", string(ckpt))
}

// A candidate whose network the loader refuses (NaN outputs) is set aside
// before the gate; once the trainer behaves, the same run goes on from the
// train phase and the new network is promoted (no gating games: always).
func TestLoopRefusesNonFiniteCandidate(t *testing.T) {
	tr := &stubTrainer{poison: true}
	c := testConfig(t, tr, 1)
	c.GateGames = 0
	err := Run(c)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "network outputs NaN or infinity")
	dir := c.RunDir
	assert.Equal(t, State{Iteration: 1, Phase: "train", Best: "nets/iter-0000.onnx"}, readState(t, dir))
	assert.NoFileExists(t, filepath.Join(dir, "nets", "iter-0001.onnx"))
	assert.FileExists(t, filepath.Join(dir, "nets", "iter-0001.onnx.refused"))
	assert.FileExists(t, filepath.Join(dir, "nets", "iter-0001.pt.refused"))
	assert.Regexp(t, `^1,nets/iter-0001.onnx,".*network outputs NaN or infinity.*",nets/iter-0000.pt$`, lines(t, filepath.Join(dir, "refused.csv"))[1])

	tr.poison = false
	out := &strings.Builder{}
	c.Out = out
	require.NoError(t, Run(c))
	assert.Contains(t, out.String(), "== iteration 1 (train)")
	assert.NotContains(t, out.String(), "(selfplay)", "self-play of iteration 1 was done")
	st := readState(t, dir)
	assert.Equal(t, "nets/iter-0001.onnx", st.Best)
	assert.Equal(t, 1, st.BestIter)
}

// A killed self-play resumes: the recorded games stay, chunk files and PGN
// text written after the record go, temporary files go, and only the
// remaining games are played, so the iteration ends with exactly its games.
func TestLoopResumesSelfPlay(t *testing.T) {
	stop := errors.New("stopped before training")
	tr := &stubTrainer{fail: stop}
	c := testConfig(t, tr, 2)
	require.ErrorIs(t, Run(c), stop)
	dir := c.RunDir
	chunkDir := filepath.Join(dir, "chunks")
	recorded, err := iterationChunks(chunkDir, "iter0001-")
	require.NoError(t, err)
	require.Len(t, recorded, 2)
	pgn := filepath.Join(dir, "games.pgn")
	fi, err := os.Stat(pgn)
	require.NoError(t, err)

	// As a kill would leave it: self-play with 2 of 4 games recorded, then
	// a chunk renamed into place but not recorded, a writer's temporary
	// file and PGN text after the recorded offset.
	st := readState(t, dir)
	st.Phase = "selfplay"
	st.SelfPlay = &SelfPlayProgress{Iteration: 1, Games: 2, PGNOffset: fi.Size(), Chunks: recorded}
	data, err := json.Marshal(st)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "state.json"), data, 0o644))
	raw, err := os.ReadFile(filepath.Join(chunkDir, recorded[0]))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(chunkDir, "iter0001-99999999T999999.999-w0-000099"+chunk.Ext), raw, 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(chunkDir, ".tmp-chunk-123456"), raw[:10], 0o644))
	f, err := os.OpenFile(pgn, os.O_APPEND|os.O_WRONLY, 0o644)
	require.NoError(t, err)
	_, err = f.WriteString("[Event \"Twofold self-play\"]\n[Site \"cut short")
	require.NoError(t, err)
	require.NoError(t, f.Close())

	c.GamesPerIter = 4
	tr.fail = nil
	out := &strings.Builder{}
	c.Out = out
	require.NoError(t, Run(c))
	assert.Contains(t, out.String(), "selfplay: iteration 1 resumes after 2 of 4 games")
	assert.Contains(t, out.String(), "removed 1 chunk files of iteration 1 written after its last saved progress")
	assert.Contains(t, out.String(), "removed 1 temporary chunk files")
	all, err := iterationChunks(chunkDir, "iter0001-")
	require.NoError(t, err)
	assert.Len(t, all, 4)
	assert.Subset(t, all, recorded)
	leftovers, _ := filepath.Glob(filepath.Join(chunkDir, ".tmp-*"))
	assert.Empty(t, leftovers)
	assert.Equal(t, 4, count(t, pgn, `[Event "Twofold self-play"]`))
	assert.Zero(t, count(t, pgn, "cut short"))
	assert.Nil(t, readState(t, dir).SelfPlay)
}

// Run says what a Config lacks rather than failing half-way.
func TestLoopNeedsItsParts(t *testing.T) {
	c := testConfig(t, nil, 1)
	assert.ErrorContains(t, Run(c), "needs a Trainer")
}
