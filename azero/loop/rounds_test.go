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

// Pack stands in for sampleset.py: it checks that there is more than the
// held-out files and writes the set's meta.json.
func (s *stubTrainer) Pack(chunks []string, set string, holdout int) error {
	s.mu.Lock()
	s.packs = append(s.packs, chunks)
	s.mu.Unlock()
	var files []string
	for i, dir := range chunks {
		here, err := filepath.Glob(filepath.Join(dir, "*"+chunk.Ext))
		if err != nil {
			return err
		}
		if i == len(chunks)-1 && len(here) <= holdout {
			return fmt.Errorf("%d chunk files in %s: need more than --holdout %d", len(here), dir, holdout)
		}
		files = append(files, here...)
	}
	if err := os.MkdirAll(set, 0o755); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(set, "meta.json"), []byte(fmt.Sprintf(`{"files": %d}`, len(files))), 0o644)
}

// HeldOut stands in for evaluate.py: every network "fits" as well as
// its file is long.
func (s *stubTrainer) HeldOut(set string, networks ...string) ([]HeldOut, error) {
	var res []HeldOut
	for _, n := range networks {
		data, err := os.ReadFile(n)
		if err != nil {
			return nil, err
		}
		res = append(res, HeldOut{Network: n, Samples: 100, Policy: float64(len(data)), Entropy: 1, ValueMSE: 0.5})
	}
	return res, nil
}

// testRounds is a miniature run: 4 games a round, one chunk file each, one
// held out, two training segments, the uniform evaluator climbing the
// random rung twice (seeds 1 and 2), every candidate promoted.
func testRounds(t *testing.T, tr *stubTrainer) *Rounds {
	sp := azero.DefaultSelfPlay
	sp.Workers, sp.Parallel, sp.Playouts, sp.MaxPlies, sp.ChunkGames, sp.Seed = 1, 1, 8, 40, 1, 7
	return &Rounds{
		RunDir: t.TempDir(), Rounds: 1, InitNetwork: []byte("net start"),
		Games: 4, SelfPlay: sp, Holdout: 1,
		Steps: []int{10, 3}, LR: []float64{0.01, 0.001}, Batch: 16, L2: 1e-4,
		LadderPlayouts: 8, Ladder: ladder.ClimbConfig{Games: 2, MaxPlies: 30, Workers: 2, Rungs: []string{"random"}},
		Seeds: []uint64{1, 2}, Z: 1, AlwaysPromote: true,
		Trainer: tr, Load: stubLoad, Out: &strings.Builder{},
	}
}

func readRoundState(t *testing.T, dir string) RoundState {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, "state.json"))
	require.NoError(t, err)
	var st RoundState
	require.NoError(t, json.Unmarshal(data, &st))
	return st
}

func fileText(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	return string(data)
}

// ladderDir is the ladder key of the tests' Rounds: 8 playouts, 2 games,
// the random rung, at the play defaults' batch and search constants.
const ladderDir = "8p-2g-random-n16-c1.25-b19652-f0.3-t1.4"

// A changed search default must not read back measurements taken under the
// old one: the key names the batch and the constants.
func TestLadderKeyNamesTheSearchSettings(t *testing.T) {
	c := Rounds{LadderPlayouts: 8, Ladder: ladder.ClimbConfig{Games: 2, Rungs: []string{"random"}}}
	assert.Equal(t, ladderDir, c.ladderKey())
	saved := azero.DefaultOptions
	defer func() { azero.DefaultOptions = saved }()
	azero.DefaultOptions.Params.PolicyTemp = 1
	azero.DefaultOptions.BatchSize = 4
	assert.Equal(t, "8p-2g-random-n4-c1.25-b19652-f0.3-t1", c.ladderKey())
}

// A whole miniature run without PyTorch or ONNX Runtime: round 0 measures
// the starting network, round 1 plays, packs, trains in two segments from
// it, checks, climbs the real ladder and promotes; every record is there.
func TestRoundsRunARound(t *testing.T) {
	tr := &stubTrainer{}
	c := testRounds(t, tr)
	require.NoError(t, RunRounds(c))
	dir, out := c.RunDir, c.Out.(*strings.Builder).String()

	st := readRoundState(t, dir)
	assert.Equal(t, 2, st.Round)
	assert.Equal(t, "selfplay", st.Stage)
	assert.Equal(t, "round-001/network.onnx", st.Best)
	assert.Equal(t, 1, st.BestRound)
	assert.Equal(t, 4, st.Games)
	assert.Greater(t, st.CPUSeconds, 0.0)
	assert.Greater(t, st.WallSeconds, 0.0)
	assert.Equal(t, "net start", fileText(t, filepath.Join(dir, "round-000", "network.onnx")))
	assert.Equal(t, "net round001-seg2", fileText(t, filepath.Join(dir, "best.onnx")))
	assert.Equal(t, "trained round001-seg2", fileText(t, filepath.Join(dir, "round-001", "network.pt")))

	chunks, err := filepath.Glob(filepath.Join(dir, "round-001", "chunks", "round001-*"+chunk.Ext))
	require.NoError(t, err)
	assert.Len(t, chunks, 4, "one chunk per game")
	assert.Equal(t, 4, count(t, filepath.Join(dir, "round-001", "games.pgn"), `[Event "Twofold self-play"]`))
	assert.Equal(t, [][]string{{filepath.Join(dir, "round-001", "chunks")}}, tr.packs)
	set := filepath.Join(dir, "round-001", "set")
	assert.Equal(t, []TrainJob{
		{Key: "round001-seg1", SampleSet: set, From: filepath.Join(dir, "round-000", "network.onnx"), Steps: 10, Batch: 16, LR: 0.01, L2: 1e-4},
		{Key: "round001-seg2", SampleSet: set, Steps: 3, Batch: 16, LR: 0.001, L2: 1e-4},
	}, tr.jobs)
	assert.FileExists(t, filepath.Join(dir, "round-001", "heldout.json"))

	// The ladder: each network once per seed, its games kept.
	for _, n := range []string{"round-000", "round-001"} {
		for _, s := range []string{"1", "2"} {
			base := filepath.Join(dir, n, "ladder", ladderDir, "seed-"+s)
			var sr seedResult
			require.NoError(t, json.Unmarshal([]byte(fileText(t, base+".json")), &sr))
			require.Len(t, sr.Results, 1)
			assert.Equal(t, "random", sr.Results[0].Name)
			assert.Equal(t, 2, sr.Results[0].Games())
			assert.Equal(t, 2, count(t, base+".pgn", `[Event "Twofold ladder, `+n+`/network.onnx, seed `+s+`"]`))
		}
	}

	rounds := lines(t, filepath.Join(dir, "rounds.csv"))
	require.Len(t, rounds, 2)
	assert.Regexp(t, `^1,round-000/network.onnx,round-001/network.onnx,4,\d+\.\d,\d+\.\d,4,-?\d+\.\d,\d+\.\d\d,1\.00,true,4,\d+\.\d\d$`, rounds[1])
	curve := lines(t, filepath.Join(dir, "curve.csv"))
	require.Len(t, curve, 3)
	assert.Equal(t, "round,network,games,cpu_hours,promoted,"+strings.Join(ladder.RungNames(), ","), curve[0])
	assert.Regexp(t, `^0,round-000/network.onnx,0,\d+\.\d{3},true,\d+\.\d,,,,,$`, curve[1])
	assert.Regexp(t, `^1,round-001/network.onnx,4,\d+\.\d{3},true,\d+\.\d,,,,,$`, curve[2])
	assert.FileExists(t, filepath.Join(dir, "curve.png"))
	assert.Equal(t, 2, tr.plots, "the curve redrawn after each round")

	for _, stage := range []string{"ladder", "promote", "selfplay", "pack", "train", "check"} {
		assert.Contains(t, out, "== round 1: "+stage+";")
	}
	assert.Contains(t, out, "round 1 selfplay: 4 games in ")
	assert.Contains(t, out, "round 1 train: segment 2 of 2, 3 steps at lr 0.001, batch 16")
	assert.Contains(t, out, "round 1 check: held-out loss on 100 samples: policy 9.0000 -> 17.0000")
	assert.Contains(t, out, "round 1 promote: round-001/network.onnx against round-000/network.onnx: ")
	assert.Contains(t, out, "done: 1 rounds; the current network is "+filepath.Join(dir, "round-001", "network.onnx"))

	// Once done, the same command does nothing more; a larger --rounds goes on.
	require.NoError(t, RunRounds(c))
	assert.Len(t, tr.jobs, 2)
	c.Rounds = 2
	require.NoError(t, RunRounds(c))
	assert.Len(t, tr.jobs, 4)
	assert.Equal(t, filepath.Join(dir, "round-001", "network.onnx"), tr.jobs[2].From, "round 2 starts from round 1's network")
	assert.Zero(t, tr.jobs[2].EMA+tr.jobs[2].SurpriseWeight+tr.jobs[3].EMA+tr.jobs[3].SurpriseWeight, "off unless asked for")
	assert.Equal(t, 3, readRoundState(t, dir).Round)
	assert.Len(t, lines(t, filepath.Join(dir, "curve.csv")), 4)

	// The opt-in techniques go to every segment of the next rounds.
	c.Rounds, c.EMA, c.SurpriseWeight = 3, 0.999, 0.5
	require.NoError(t, RunRounds(c))
	require.Len(t, tr.jobs, 6)
	for _, j := range tr.jobs[4:] {
		assert.Equal(t, [2]float64{0.999, 0.5}, [2]float64{j.EMA, j.SurpriseWeight}, j.Key)
	}
	assert.Contains(t, c.Out.(*strings.Builder).String(), "round 3 train: segment 2 of 2, 3 steps at lr 0.001, batch 16, weight average 0.999, surprise weight 0.5")
}

// scores is a ladder stand-in: each network file's score against each
// rung, the same under every seed; it counts its calls.
type scores struct {
	mu    sync.Mutex
	score map[string]ladder.Score // by the round directory
	calls []string
	fail  map[string]error // by "network seed"
}

func (s *scores) measure(network string, seed uint64) ([]ladder.RungResult, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	key := fmt.Sprintf("%s %d", network, seed)
	if err := s.fail[key]; err != nil {
		return nil, err
	}
	s.calls = append(s.calls, key)
	sc, ok := s.score[filepath.Dir(network)]
	if !ok {
		return nil, fmt.Errorf("no score for %s", network)
	}
	return []ladder.RungResult{{Name: "alphabeta-d2", Score: sc}, {Name: "alphabeta-d3", Score: sc}}, nil
}

// A candidate is promoted only when the test passes: round 1 is clearly
// better than round 0 (+40 points of 200 games, standard error 8.5) and
// becomes the current network; round 2 is only a little better than round
// 1 (+4, standard error 7.9) and is kept out, so round 3 plays round 1's
// games and trains from it again. Each network is measured once per seed.
func TestRoundsPromoteByTheTest(t *testing.T) {
	tr := &stubTrainer{}
	c := testRounds(t, tr)
	c.Rounds, c.AlwaysPromote = 3, false
	sc := &scores{score: map[string]ladder.Score{
		"round-000": {W: 20, D: 10, L: 20}, "round-001": {W: 30, D: 10, L: 10},
		"round-002": {W: 31, D: 10, L: 9}, "round-003": {W: 10, D: 10, L: 30},
	}}
	c.Measure = sc.measure
	require.NoError(t, RunRounds(c))
	dir, out := c.RunDir, c.Out.(*strings.Builder).String()
	st := readRoundState(t, dir)
	assert.Equal(t, "round-001/network.onnx", st.Best)
	assert.Equal(t, 1, st.BestRound)
	assert.Equal(t, 12, st.Games)
	assert.Equal(t, "net round001-seg2", fileText(t, filepath.Join(dir, "best.onnx")))
	require.Len(t, tr.jobs, 6)
	assert.Equal(t, filepath.Join(dir, "round-001", "network.onnx"), tr.jobs[2].From)
	assert.Equal(t, filepath.Join(dir, "round-001", "network.onnx"), tr.jobs[4].From, "a refused candidate's round is played again from its parent")
	assert.ElementsMatch(t, []string{
		"round-000/network.onnx 1", "round-000/network.onnx 2", "round-001/network.onnx 1", "round-001/network.onnx 2",
		"round-002/network.onnx 1", "round-002/network.onnx 2", "round-003/network.onnx 1", "round-003/network.onnx 2",
	}, sc.calls)

	rounds := lines(t, filepath.Join(dir, "rounds.csv"))
	require.Len(t, rounds, 4)
	assert.Equal(t, "1,round-000/network.onnx,round-001/network.onnx,4,100.0,140.0,200,40.0,8.49,1.00,true,4,", rounds[1][:len(rounds[1])-len("0.00")])
	assert.Contains(t, rounds[2], ",round-002/network.onnx,4,140.0,144.0,200,4.0,")
	assert.Contains(t, rounds[2], ",false,8,")
	assert.Contains(t, rounds[3], "3,round-001/network.onnx,round-003/network.onnx,")
	assert.Contains(t, rounds[3], ",false,12,")
	assert.Contains(t, out, "round 2 promote: round-002/network.onnx against round-001/network.onnx: +4.0 points (144.0 against 140.0 of 200 games each), standard error 7.9, needed more than 1.00 x 7.9 = 7.9 -> kept the parent")
	curve := lines(t, filepath.Join(dir, "curve.csv"))
	require.Len(t, curve, 5)
	assert.True(t, strings.HasPrefix(curve[3], "2,round-002/network.onnx,8,"), curve[3])
	assert.Contains(t, curve[3], ",false,,,,72.0,72.0,")

	// With --always-promote the same scores promote every candidate.
	tr2 := &stubTrainer{}
	c2 := testRounds(t, tr2)
	c2.Rounds, c2.Measure = 2, sc.measure
	require.NoError(t, RunRounds(c2))
	assert.Equal(t, "round-002/network.onnx", readRoundState(t, c2.RunDir).Best)
	assert.Contains(t, c2.Out.(*strings.Builder).String(), "-> kept the parent (promoted all the same: --always-promote)")

	// With --never-promote round 1, which passes the test, is kept out:
	// round 2 plays round 0's games again and trains from it.
	tr3 := &stubTrainer{}
	c3 := testRounds(t, tr3)
	c3.Rounds, c3.AlwaysPromote, c3.NeverPromote, c3.Measure = 2, false, true, sc.measure
	require.NoError(t, RunRounds(c3))
	assert.Equal(t, "round-000/network.onnx", readRoundState(t, c3.RunDir).Best)
	require.Len(t, tr3.jobs, 4)
	assert.Equal(t, filepath.Join(c3.RunDir, "round-000", "network.onnx"), tr3.jobs[2].From)
	out3 := c3.Out.(*strings.Builder).String()
	assert.Contains(t, out3, "standard error 8.5, needed more than 1.00 x 8.5 = 8.5 -> promoted (kept the parent all the same: --never-promote)")
	assert.Contains(t, lines(t, filepath.Join(c3.RunDir, "rounds.csv"))[1], ",false,4,")

	c4 := testRounds(t, &stubTrainer{})
	c4.NeverPromote = true
	assert.ErrorContains(t, RunRounds(c4), "both always and never promote")
}

// With a window of two rounds every round trains on its games and those
// of the round before it (round 1 has none before it: round 0 only
// measures), the older first, so the held-out files stay the round's own.
func TestRoundsTrainOnAWindow(t *testing.T) {
	tr := &stubTrainer{}
	c := testRounds(t, tr)
	c.Rounds, c.Window = 3, 2
	require.NoError(t, RunRounds(c))
	dir := c.RunDir
	chunks := func(k int) string { return filepath.Join(dir, roundDir(k), "chunks") }
	assert.Equal(t, [][]string{{chunks(1)}, {chunks(1), chunks(2)}, {chunks(2), chunks(3)}}, tr.packs)
	out := c.Out.(*strings.Builder).String()
	assert.Contains(t, out, "round 3 pack: the games of rounds 2, 3")
	assert.NotContains(t, out, "round 1 pack:")

	// A run directory brought back without an earlier round's games
	// trains on what is there, saying what is missing.
	require.NoError(t, os.RemoveAll(chunks(3)))
	tr.packs = nil
	c.Rounds, c.Window = 4, 3
	require.NoError(t, RunRounds(c))
	assert.Equal(t, [][]string{{chunks(2), chunks(4)}}, tr.packs)
	out = c.Out.(*strings.Builder).String()
	assert.Contains(t, out, "round 4 pack: no games of round 3")
	assert.Contains(t, out, "round 4 pack: the games of rounds 2, 4")

	c2 := testRounds(t, &stubTrainer{})
	c2.Window = -1
	assert.ErrorContains(t, RunRounds(c2), "a window of -1 rounds")
}

// Killed at any stage, the same command goes on where it was: a training
// segment that failed is the first one run again (the one before it is
// not), a ladder seed measured before a failure is read back, not played
// again, and a promotion run twice records its round once.
func TestRoundsResume(t *testing.T) {
	stop := errors.New("killed")
	tr := &stubTrainer{fail: stop, failOn: "round001-seg2"}
	c := testRounds(t, tr)
	c.AlwaysPromote = false
	sc := &scores{score: map[string]ladder.Score{"round-000": {W: 10, D: 0, L: 40}, "round-001": {W: 40, D: 0, L: 10}},
		fail: map[string]error{"round-001/network.onnx 2": stop}}
	c.Measure = sc.measure
	dir := c.RunDir

	require.ErrorIs(t, RunRounds(c), stop)
	st := readRoundState(t, dir)
	assert.Equal(t, 1, st.Round)
	assert.Equal(t, "train", st.Stage)
	assert.Equal(t, 1, st.Segments)
	assert.Equal(t, 4, st.RoundGames)

	tr.fail = nil
	require.ErrorIs(t, RunRounds(c), stop)
	require.Len(t, tr.jobs, 3)
	assert.Equal(t, []string{"round001-seg1", "round001-seg2", "round001-seg2"}, []string{tr.jobs[0].Key, tr.jobs[1].Key, tr.jobs[2].Key})
	assert.Equal(t, "ladder", readRoundState(t, dir).Stage)
	assert.FileExists(t, filepath.Join(dir, "round-001", "ladder", ladderDir, "seed-1.json"))
	assert.NoFileExists(t, filepath.Join(dir, "round-001", "ladder", ladderDir, "seed-2.json"))

	delete(sc.fail, "round-001/network.onnx 2")
	require.NoError(t, RunRounds(c))
	assert.Len(t, tr.jobs, 3)
	assert.Len(t, tr.packs, 1, "packed once")
	assert.ElementsMatch(t, []string{"round-000/network.onnx 1", "round-000/network.onnx 2", "round-001/network.onnx 1", "round-001/network.onnx 2"}, sc.calls)
	st = readRoundState(t, dir)
	assert.Equal(t, "round-001/network.onnx", st.Best)
	assert.Equal(t, 4, st.Games)

	// As a kill between the records and the state would leave it.
	st.Round, st.Stage, st.Best, st.BestRound, st.Games, st.RoundGames = 1, "promote", "round-000/network.onnx", 0, 0, 4
	data, err := json.Marshal(st)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "state.json"), data, 0o644))
	require.NoError(t, RunRounds(c))
	st = readRoundState(t, dir)
	assert.Equal(t, 4, st.Games, "the round's games counted once")
	assert.Equal(t, "round-001/network.onnx", st.Best)
	assert.Len(t, lines(t, filepath.Join(dir, "rounds.csv")), 2)
	assert.Len(t, lines(t, filepath.Join(dir, "curve.csv")), 3)
}

// A killed self-play keeps its recorded games and plays only the rest.
func TestRoundsResumeSelfPlay(t *testing.T) {
	stop := errors.New("killed")
	tr := &stubTrainer{}
	c := testRounds(t, tr)
	c.Games = 2
	sc := &scores{score: map[string]ladder.Score{"round-000": {W: 1, L: 1}, "round-001": {W: 2}}}
	c.Measure = sc.measure
	c.Trainer = packFails{tr, stop}
	require.ErrorIs(t, RunRounds(c), stop)
	dir := c.RunDir
	st := readRoundState(t, dir)
	require.Equal(t, "pack", st.Stage)
	// Back to self-play with its 2 games recorded, and 4 games wanted now.
	recorded, err := iterationChunks(filepath.Join(dir, "round-001", "chunks"), "round001-")
	require.NoError(t, err)
	require.Len(t, recorded, 2)
	fi, err := os.Stat(filepath.Join(dir, "round-001", "games.pgn"))
	require.NoError(t, err)
	st.Stage, st.RoundGames = "selfplay", 0
	st.SelfPlay = &SelfPlayProgress{Iteration: 1, Games: 2, PGNOffset: fi.Size(), Chunks: recorded}
	data, err := json.Marshal(st)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "state.json"), data, 0o644))

	c.Games, c.Trainer = 4, tr
	out := &strings.Builder{}
	c.Out = out
	require.NoError(t, RunRounds(c))
	assert.Contains(t, out.String(), "selfplay: round 1 resumes after 2 of 4 games")
	all, err := iterationChunks(filepath.Join(dir, "round-001", "chunks"), "round001-")
	require.NoError(t, err)
	assert.Len(t, all, 4)
	assert.Subset(t, all, recorded)
	assert.Equal(t, 4, readRoundState(t, dir).Games)
}

// packFails is a trainer whose Pack fails.
type packFails struct {
	*stubTrainer
	err error
}

func (p packFails) Pack([]string, string, int) error { return p.err }

// A diverged training or a candidate that does not load is refused: its
// files set aside, the round's trainer removed, the refusal recorded, and
// the run stopped at the train stage, saying what to do; run again, the
// round trains from its parent.
func TestRoundsRefuseBadCandidates(t *testing.T) {
	tr := &stubTrainer{diverge: true}
	c := testRounds(t, tr)
	dir := c.RunDir
	err := RunRounds(c)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "round 1: candidate round-001/network.onnx refused: training diverged (non-finite loss or weights)")
	assert.Contains(t, err.Error(), "The current network stays round-000/network.onnx; if training diverged (non-finite), lower --lr (now 0.01,0.001)")
	st := readRoundState(t, dir)
	assert.Equal(t, "train", st.Stage)
	assert.Zero(t, st.Segments)
	assert.NoDirExists(t, filepath.Join(dir, "round-001", "trainer"))

	tr.diverge, tr.poison = false, true
	err = RunRounds(c)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "network outputs NaN or infinity")
	assert.FileExists(t, filepath.Join(dir, "round-001", "network.onnx.refused"))
	assert.FileExists(t, filepath.Join(dir, "round-001", "network.pt.refused"))
	assert.NoFileExists(t, filepath.Join(dir, "round-001", "network.onnx"))
	assert.Len(t, lines(t, filepath.Join(dir, "refused.csv")), 3)
	assert.Equal(t, "train", readRoundState(t, dir).Stage)

	tr.poison = false
	require.NoError(t, RunRounds(c))
	assert.Equal(t, "round-001/network.onnx", readRoundState(t, dir).Best)
	last := tr.jobs[len(tr.jobs)-2]
	assert.Equal(t, "round001-seg1", last.Key)
	assert.Equal(t, filepath.Join(dir, "round-000", "network.onnx"), last.From)
}

// The promotion test: points summed over the rungs, against the parent's,
// by more than z standard errors.
func TestPromotionTest(t *testing.T) {
	rr := func(d2, d3 ladder.Score) []ladder.RungResult {
		return []ladder.RungResult{{Name: "alphabeta-d2", Score: d2}, {Name: "alphabeta-d3", Score: d3}}
	}
	// A parent of 67.0% and 50.3% over 150 games a rung (r3h's scores) and
	// a candidate of r4n's: 105/22/23 and 73/12/65.
	parent := rr(ladder.Score{W: 89, D: 23, L: 38}, ladder.Score{W: 69, D: 13, L: 68})
	cand := rr(ladder.Score{W: 105, D: 22, L: 23}, ladder.Score{W: 73, D: 12, L: 65})
	v, err := PromotionTest(cand, parent, 1)
	require.NoError(t, err)
	assert.InDelta(t, 195.0, v.Candidate, 1e-9)
	assert.InDelta(t, 176.0, v.Parent, 1e-9)
	assert.Equal(t, 300, v.Games)
	assert.InDelta(t, 19.0, v.Diff, 1e-9)
	assert.InDelta(t, 10.81, v.SE, 0.01)
	assert.True(t, v.Promote)
	v, err = PromotionTest(cand, parent, 1.96)
	require.NoError(t, err)
	assert.False(t, v.Promote, "not at 95%")
	assert.Contains(t, v.String(), "+19.0 points (195.0 against 176.0 of 300 games each), standard error 10.8, needed more than 1.96 x 10.8 = 21.2 -> kept the parent")

	// Equal scores never pass, whatever the margin; all wins against all
	// losses always do.
	v, err = PromotionTest(parent, parent, 0)
	require.NoError(t, err)
	assert.False(t, v.Promote)
	v, err = PromotionTest(rr(ladder.Score{W: 4}, ladder.Score{W: 4}), rr(ladder.Score{L: 4}, ladder.Score{L: 4}), 3)
	require.NoError(t, err)
	assert.True(t, v.Promote)

	_, err = PromotionTest(cand[:1], parent[1:], 1)
	assert.ErrorContains(t, err, "the parent was not measured against alphabeta-d2")
	_, err = PromotionTest(cand, rr(ladder.Score{W: 1}, ladder.Score{W: 1}), 1)
	assert.ErrorContains(t, err, "alphabeta-d2: 150 games of the candidate, 1 of the parent")
	_, err = PromotionTest(cand[:1], parent, 1)
	assert.ErrorContains(t, err, "the parent was measured on 2 rungs, the candidate on 1")
}

// RunRounds says what its settings lack before it starts.
func TestRoundsNeedTheirParts(t *testing.T) {
	c := testRounds(t, nil)
	c.Trainer = nil
	assert.ErrorContains(t, RunRounds(c), "needs a Trainer")
	c = testRounds(t, &stubTrainer{})
	c.LR = c.LR[:1]
	assert.ErrorContains(t, RunRounds(c), "2 training segments' steps and 1 learning rates")
	c = testRounds(t, &stubTrainer{})
	c.Games = 1
	assert.ErrorContains(t, RunRounds(c), "1 games a round in chunks of 1 cannot leave the newest 1 chunk files out")
	c = testRounds(t, &stubTrainer{})
	c.InitNetwork = nil
	assert.ErrorContains(t, RunRounds(c), "a new run needs a starting network")
	assert.NoFileExists(t, filepath.Join(c.RunDir, "state.json"))
	// The run directory of an engine train loop is not taken for one of rounds.
	c = testRounds(t, &stubTrainer{})
	require.NoError(t, os.WriteFile(filepath.Join(c.RunDir, "state.json"), []byte(`{"iteration": 3, "phase": "gate", "best": "nets/iter-0002.onnx"}`), 0o644))
	assert.ErrorContains(t, RunRounds(c), "is not the state of rounds (engine climb); use another run directory")
}
