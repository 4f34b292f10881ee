package loop

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/twofold-chess/twofold/azero"
	"github.com/twofold-chess/twofold/ladder"
)

// Rounds is the settings of `engine climb`: rounds of policy iteration,
// the recipe that made the shipped network. Each round
//
//  1. plays Games self-play games with the current network,
//  2. packs them into a sample set (with the games of up to Window-1
//     rounds before it), the newest Holdout chunk files of the round held
//     out (RoundTrainer.Pack),
//  3. trains the current network on the training split in segments, one
//     learning rate each (Steps[i] steps at LR[i]), and exports the
//     candidate,
//  4. vets the candidate (Load) and measures the held-out loss of it and
//     its parent,
//  5. measures the candidate on the ladder (and the parent, unless it was
//     measured already with the same settings), once per seed, and
//  6. promotes it when it passes PromotionTest (or always, with
//     AlwaysPromote; never, with NeverPromote), recording the round and
//     redrawing the learning curve.
//
// Round 0 only measures the starting network. The state is saved after
// every stage (DIR/state.json), self-play after every chunk, the ladder
// after every seed, the trainer after every 100 steps: a killed run goes
// on where it was when the same command runs again.
type Rounds struct {
	RunDir string
	// Rounds stops after this many rounds in all (0: never).
	Rounds int
	// InitNetwork is the starting network of a new run (round 0), kept as
	// DIR/round-000/network.onnx; a run that has started ignores it.
	InitNetwork []byte
	// Self-play: games per round; SelfPlay's Games, ChunkDir, ChunkPrefix,
	// PGN and Progress are set by the rounds, its Seed is the run's seed.
	Games    int
	SelfPlay azero.SelfPlayConfig
	// Holdout is the number of newest chunk files kept out of training.
	Holdout int
	// Window is the number of rounds whose games a round trains on: its
	// own and up to Window-1 before it (0 or 1: its own only). A round
	// whose candidate was kept played the same network as the next, so
	// its games are as fresh as the next round's: a window lets rounds
	// too small to train on alone add up.
	Window int
	// Training: the segments (Steps[i] steps at LR[i], the same length),
	// the batch and L2; the first segment starts from the current network.
	Steps []int
	LR    []float64
	Batch int
	L2    float64
	// EMA and SurpriseWeight are every segment's TrainJob.EMA and
	// SurpriseWeight (0: off): the trainer's weight average, kept across
	// the segments of a round in its checkpoint, and policy-surprise
	// weighting.
	EMA, SurpriseWeight float64
	// The ladder: LadderPlayouts per move, Ladder.Games per rung and seed,
	// Ladder.Rungs (nil: all), Ladder.Workers games at a time in all; one
	// climb per seed of Seeds (Ladder.Seed and PGN are set by the rounds).
	LadderPlayouts int
	Ladder         ladder.ClimbConfig
	Seeds          []uint64
	// Promotion: the candidate must beat its parent by more than Z
	// standard errors (PromotionTest), unless AlwaysPromote (every
	// candidate is promoted) or NeverPromote (none is: a round that only
	// measures, its parent playing the next round's games again).
	Z                           float64
	AlwaysPromote, NeverPromote bool
	// ProgressEvery is the least time between two progress lines of a
	// long stage (0: a line for every chunk or ladder game).
	ProgressEvery time.Duration

	Trainer RoundTrainer
	// Load reads and vets a network file (onnx.Open in the engine): a
	// candidate it refuses never plays.
	Load func(path string) (azero.Backend, error)
	// Measure, when set, replaces the ladder: the results of one network
	// file for one seed (tests).
	Measure func(network string, seed uint64) ([]ladder.RungResult, error)
	Out     io.Writer
}

// RoundTrainer is what the rounds need of a trainer: Trainer's Train and
// Plot (Init is not used), the packing of a round's games into a sample
// set, and the held-out loss of networks.
type RoundTrainer interface {
	Trainer
	// Pack writes every sample of the chunk files in the directories
	// chunks (oldest first) to the sample set folder set, the newest
	// holdout files of the last directory as its held-out split.
	Pack(chunks []string, set string, holdout int) error
	// HeldOut measures networks (ONNX files) on set's held-out split.
	HeldOut(set string, networks ...string) ([]HeldOut, error)
}

// HeldOut is a network's loss on held-out games (evaluate.py --json).
type HeldOut struct {
	Network  string  `json:"network"`
	Samples  int     `json:"samples"`
	Policy   float64 `json:"policy"`  // cross-entropy against the search's policy
	Entropy  float64 `json:"entropy"` // the targets' own entropy, the floor
	ValueMSE float64 `json:"value_mse"`
}

// RoundState is the rounds' progress (DIR/state.json).
type RoundState struct {
	Round int `json:"round"`
	// Stage of the round: selfplay, pack, train, check, ladder, promote
	// (round 0: ladder, promote).
	Stage    string `json:"stage"`
	Segments int    `json:"segments_done,omitempty"` // training segments done
	// Best is the current network, relative to the run directory, and
	// BestRound the round that made it.
	Best      string `json:"best"`
	BestRound int    `json:"best_round"`
	// Games is the self-play games of the finished rounds; RoundGames
	// those of the current round once its self-play is done.
	Games      int `json:"games"`
	RoundGames int `json:"round_games,omitempty"`
	// Processor and wall time spent on the run, in seconds.
	CPUSeconds  float64           `json:"cpu_seconds"`
	WallSeconds float64           `json:"wall_seconds"`
	SelfPlay    *SelfPlayProgress `json:"selfplay,omitempty"`
}

// Verdict is PromotionTest's reading of two ladder results.
type Verdict struct {
	// Points of the candidate and of the parent summed over the rungs,
	// out of Games games each.
	Candidate, Parent float64
	Games             int
	// Diff is Candidate - Parent, SE its standard error, Z the margin
	// asked for, in standard errors.
	Diff, SE, Z float64
	Promote     bool
}

func (v Verdict) String() string {
	word := "kept the parent"
	if v.Promote {
		word = "promoted"
	}
	return fmt.Sprintf("%+.1f points (%.1f against %.1f of %d games each), standard error %.1f, needed more than %.2f x %.1f = %.1f -> %s",
		v.Diff, v.Candidate, v.Parent, v.Games, v.SE, v.Z, v.SE, v.Z*v.SE, word)
}

// PromotionTest compares a candidate's ladder results with its parent's
// on the same rungs and games: the candidate passes when its points summed
// over the rungs exceed the parent's by more than z standard errors of
// that difference. A game scores 1, 1/2 or 0; each side's variance per
// rung is n times the per-game variance of its own results, and the two
// sides' games are independent, so SE = sqrt(sum of both sides' variances).
// With z = 1 a candidate no better than its parent passes about one time
// in six; each of the four rounds that made the shipped network (150 games
// a rung against alpha-beta depths 2 and 3) was better than its parent by
// some 1.3 to 1.8 standard errors, estimated from their percentages.
func PromotionTest(candidate, parent []ladder.RungResult, z float64) (Verdict, error) {
	v := Verdict{Z: z}
	if len(candidate) == 0 {
		return v, errors.New("no ladder results")
	}
	var variance float64
	for _, c := range candidate {
		i := slices.IndexFunc(parent, func(p ladder.RungResult) bool { return p.Name == c.Name })
		if i < 0 {
			return v, fmt.Errorf("the parent was not measured against %s", c.Name)
		}
		p := parent[i]
		if c.Games() != p.Games() || c.Games() == 0 {
			return v, fmt.Errorf("%s: %d games of the candidate, %d of the parent", c.Name, c.Games(), p.Games())
		}
		v.Candidate += c.Points()
		v.Parent += p.Points()
		v.Games += c.Games()
		variance += pointsVariance(c.Score) + pointsVariance(p.Score)
	}
	if len(parent) != len(candidate) {
		return v, fmt.Errorf("the parent was measured on %d rungs, the candidate on %d", len(parent), len(candidate))
	}
	v.Diff = v.Candidate - v.Parent
	v.SE = math.Sqrt(variance)
	v.Promote = v.Diff > z*v.SE
	return v, nil
}

// pointsVariance is the variance of a score's points: the games times the
// variance of one game's result (1, 1/2 or 0) as observed.
func pointsVariance(s ladder.Score) float64 {
	n := float64(s.Games())
	mean := s.Points() / n
	meanSq := (float64(s.W) + float64(s.D)/4) / n
	return n * max(meanSq-mean*mean, 0)
}

// roundDir is a round's directory, relative to the run directory.
func roundDir(k int) string { return fmt.Sprintf("round-%03d", k) }

func (c *Rounds) path(parts ...string) string {
	return filepath.Join(append([]string{c.RunDir}, parts...)...)
}

// roundsRun is one invocation's working state.
type roundsRun struct {
	*Rounds
	st        RoundState
	statePath string
	cpuMark   float64
	wallMark  time.Time
}

// save adds the time spent since the last save to the state and writes it.
func (r *roundsRun) save() error {
	cpu, now := processCPUSeconds(), time.Now()
	r.st.CPUSeconds += cpu - r.cpuMark
	r.st.WallSeconds += now.Sub(r.wallMark).Seconds()
	r.cpuMark, r.wallMark = cpu, now
	return saveState(r.statePath, r.st)
}

func (r *roundsRun) logf(format string, args ...any) {
	fmt.Fprintf(r.Out, format+"\n", args...)
}

// RunRounds runs rounds until c.Rounds are done (or an error): it locks
// the run directory, measures the starting network if the run is new, and
// goes on from the saved state.
func RunRounds(c *Rounds) error {
	switch {
	case c.Trainer == nil || c.Load == nil || c.Out == nil:
		return errors.New("loop: Rounds needs a Trainer, Load and Out")
	case len(c.Steps) == 0 || len(c.Steps) != len(c.LR):
		return fmt.Errorf("loop: %d training segments' steps and %d learning rates", len(c.Steps), len(c.LR))
	case len(c.Seeds) == 0:
		return errors.New("loop: no ladder seeds")
	case c.Window < 0:
		return fmt.Errorf("loop: a window of %d rounds", c.Window)
	case c.AlwaysPromote && c.NeverPromote:
		return errors.New("loop: a round cannot both always and never promote")
	case c.Games <= c.Holdout*max(c.SelfPlay.ChunkGames, 1):
		return fmt.Errorf("loop: %d games a round in chunks of %d cannot leave the newest %d chunk files out and train on the rest",
			c.Games, c.SelfPlay.ChunkGames, c.Holdout)
	}
	if err := os.MkdirAll(c.RunDir, 0o755); err != nil {
		return err
	}
	unlock, err := LockRunDir(c.RunDir)
	if err != nil {
		return err
	}
	defer unlock()
	r := &roundsRun{Rounds: c, statePath: c.path("state.json"), cpuMark: processCPUSeconds(), wallMark: time.Now()}
	data, err := os.ReadFile(r.statePath)
	switch {
	case errors.Is(err, os.ErrNotExist):
		if len(c.InitNetwork) == 0 {
			return errors.New("loop: a new run needs a starting network")
		}
		first := filepath.Join(roundDir(0), "network.onnx")
		if err := os.MkdirAll(c.path(roundDir(0)), 0o755); err != nil {
			return err
		}
		if err := writeFile(c.path(first), c.InitNetwork); err != nil {
			return err
		}
		if err := copyFile(c.path(first), c.path("best.onnx")); err != nil {
			return err
		}
		r.st = RoundState{Round: 0, Stage: "ladder", Best: first}
		if err := r.save(); err != nil {
			return err
		}
	case err != nil:
		return err
	default:
		if err := json.Unmarshal(data, &r.st); err != nil {
			return fmt.Errorf("%s: %v", r.statePath, err)
		}
		if r.st.Stage == "" || r.st.Best == "" {
			return fmt.Errorf("%s is not the state of rounds (engine climb); use another run directory", r.statePath)
		}
	}
	start := time.Now()
	for c.Rounds == 0 || r.st.Round <= c.Rounds {
		if err := r.stage(start); err != nil {
			return err
		}
		if err := r.save(); err != nil {
			return err
		}
	}
	r.logf("done: %d rounds; the current network is %s (round %d), also in %s", c.Rounds, c.path(r.st.Best), r.st.BestRound, c.path("best.onnx"))
	return nil
}

// windowChunks is the chunk directories round k trains on, oldest first:
// those of the Window-1 rounds before it that played (round 0 does not)
// and its own, and the rounds' numbers. An earlier round whose chunks are
// gone (a run directory copied without them) is left out, saying so.
func (r *roundsRun) windowChunks(k int) (dirs []string, rounds []string) {
	for j := max(k-max(r.Window, 1)+1, 1); j <= k; j++ {
		dir := r.path(roundDir(j), "chunks")
		if _, err := os.Stat(dir); err != nil && j < k {
			r.logf("round %d pack: no games of round %d (%v); the window goes on without them", k, j, err)
			continue
		}
		dirs, rounds = append(dirs, dir), append(rounds, strconv.Itoa(j))
	}
	return dirs, rounds
}

// stage runs the current stage and moves the state to the next.
func (r *roundsRun) stage(start time.Time) error {
	st := &r.st
	k, dir := st.Round, roundDir(st.Round)
	candidate := filepath.Join(dir, "network.onnx")
	r.logf("== round %d: %s; current network %s; %d games, %.1f CPU-hours so far; %s in this run", k, st.Stage, st.Best,
		st.Games, st.CPUSeconds/3600, time.Since(start).Round(time.Second))
	if k == 0 {
		candidate = st.Best
	}
	switch st.Stage {
	case "selfplay":
		t0 := time.Now()
		tick := throttle{every: r.ProgressEvery}
		if err := os.MkdirAll(r.path(dir, "chunks"), 0o755); err != nil {
			return err
		}
		err := playGames(gamesJob{
			noun: "round", n: k, chunkDir: r.path(dir, "chunks"), pgnPath: r.path(dir, "games.pgn"),
			prefix: fmt.Sprintf("round%03d-", k), games: r.Games, network: r.path(st.Best),
			cfg: r.SelfPlay, seed: r.SelfPlay.Seed*1_000_003 + uint64(k), load: r.Load, out: r.Out,
			progress: &st.SelfPlay, save: r.save,
			report: func(before int, s azero.SelfPlayStats) {
				if tick.ready() {
					r.logf("round %d selfplay: %d of %d games, %.0f games/min, W/D/L %d/%d/%d, %.0f plies a game, about %s left",
						k, before+s.Games, r.Games, s.GamesPerMinute(), s.WhiteWins, s.Draws, s.Losses,
						float64(s.Plies)/max(float64(s.Games), 1), minutesLeft(r.Games-before-s.Games, s.GamesPerMinute()))
				}
			},
		})
		if err != nil {
			return err
		}
		st.RoundGames = st.SelfPlay.Games
		r.logf("round %d selfplay: %d games in %s", k, st.RoundGames, time.Since(t0).Round(time.Second))
		st.Stage, st.SelfPlay = "pack", nil
	case "pack":
		chunks, rounds := r.windowChunks(k)
		if len(rounds) > 1 {
			r.logf("round %d pack: the games of rounds %s", k, strings.Join(rounds, ", "))
		}
		if err := r.Trainer.Pack(chunks, r.path(dir, "set"), r.Holdout); err != nil {
			return err
		}
		st.Stage = "train"
	case "train":
		if err := os.MkdirAll(r.path(dir, "trainer"), 0o755); err != nil {
			return err
		}
		for i := st.Segments; i < len(r.Steps); i++ {
			job := TrainJob{Key: fmt.Sprintf("round%03d-seg%d", k, i+1), SampleSet: r.path(dir, "set"),
				Steps: r.Steps[i], Batch: r.Batch, LR: r.LR[i], L2: r.L2, EMA: r.EMA, SurpriseWeight: r.SurpriseWeight}
			if i == 0 {
				job.From = r.path(st.Best)
			}
			export := ""
			if i == len(r.Steps)-1 {
				export = r.path(candidate)
			}
			r.logf("round %d train: segment %d of %d, %d steps at lr %g, batch %d%s", k, i+1, len(r.Steps), job.Steps, job.LR, job.Batch, job.extras())
			t0 := time.Now()
			if err := r.Trainer.Train(r.path(dir, "trainer"), job, export); err != nil {
				if errors.Is(err, ErrDiverged) {
					return r.refuse(candidate, err.Error())
				}
				return err
			}
			r.logf("round %d train: segment %d done in %s", k, i+1, time.Since(t0).Round(time.Second))
			st.Segments = i + 1
			if err := r.save(); err != nil {
				return err
			}
		}
		// The weights beside the export (export.py --checkpoint).
		if err := copyFile(r.path(dir, "trainer", "checkpoint.pt"), r.path(dir, "network.pt")); err != nil {
			return err
		}
		st.Stage, st.Segments = "check", 0
	case "check":
		if _, err := r.Load(r.path(candidate)); err != nil {
			return r.refuse(candidate, err.Error())
		}
		r.heldOut(k, dir, st.Best, candidate)
		st.Stage = "ladder"
	case "ladder":
		if _, err := r.measure(candidate, true); err != nil {
			return err
		}
		if k > 0 {
			if _, err := r.measure(st.Best, true); err != nil {
				return err
			}
		}
		st.Stage = "promote"
	case "promote":
		return r.promote(k, candidate)
	default:
		return fmt.Errorf("%s: unknown stage %q", r.statePath, st.Stage)
	}
	return nil
}

// heldOut logs and records (DIR/round-NNN/heldout.json) the held-out loss
// of the parent and the candidate; a failure is reported, not fatal, as
// the ladder is the judge.
func (r *roundsRun) heldOut(k int, dir, parent, candidate string) {
	res, err := r.Trainer.HeldOut(r.path(dir, "set"), r.path(parent), r.path(candidate))
	if err == nil && len(res) != 2 {
		err = fmt.Errorf("%d results for 2 networks", len(res))
	}
	if err == nil {
		data, _ := json.MarshalIndent(res, "", "  ")
		err = writeFile(r.path(dir, "heldout.json"), append(data, '\n'))
	}
	if err != nil {
		r.logf("round %d check: held-out loss not measured: %v", k, err)
		return
	}
	p, c := res[0], res[1]
	r.logf("round %d check: held-out loss on %d samples: policy %.4f -> %.4f (the targets' entropy %.4f), value mse %.4f -> %.4f",
		k, c.Samples, p.Policy, c.Policy, c.Entropy, p.ValueMSE, c.ValueMSE)
}

// refuse sets a candidate aside whose training diverged or whose network
// does not load: its files are renamed *.refused, the round's trainer is
// removed (so that the next attempt starts from the parent again), the
// refusal goes to DIR/refused.csv, and the run stops at the round's train
// stage, saying what to do.
func (r *roundsRun) refuse(candidate, reason string) error {
	k := r.st.Round
	r.logf("round %d: candidate %s refused: %s", k, candidate, reason)
	base := strings.TrimSuffix(candidate, ".onnx")
	for _, f := range []string{candidate, base + ".pt"} {
		if err := os.Rename(r.path(f), r.path(f)+".refused"); err != nil && !os.IsNotExist(err) {
			return err
		}
	}
	if err := os.RemoveAll(r.path(roundDir(k), "trainer")); err != nil {
		return err
	}
	if err := appendLine(r.path("refused.csv"), "round,candidate,reason", fmt.Sprintf("%d,%s,%q", k, candidate, reason)); err != nil {
		return err
	}
	r.st.Stage, r.st.Segments = "train", 0
	if err := r.save(); err != nil {
		return err
	}
	return fmt.Errorf("round %d: candidate %s refused: %s. The current network stays %s; if training diverged "+
		"(non-finite), lower --lr (now %s); then run the same command again to train round %d again from %s",
		k, candidate, reason, r.st.Best, joinFloats(r.LR), k, r.st.Best)
}

// promote decides on round k's candidate, records the round and redraws
// the learning curve; round 0 only records its network. The records are
// written once per round, so a promotion killed half-way and run again
// neither repeats nor loses one.
func (r *roundsRun) promote(k int, candidate string) error {
	st := &r.st
	res, err := r.measure(candidate, false)
	if err != nil {
		return err
	}
	promoted, games := true, st.Games+st.RoundGames
	cpuHours := (st.CPUSeconds + processCPUSeconds() - r.cpuMark) / 3600
	if k > 0 {
		parent, err := r.measure(st.Best, false)
		if err != nil {
			return err
		}
		v, err := PromotionTest(res, parent, r.Z)
		if err != nil {
			return err
		}
		promoted = (v.Promote || r.AlwaysPromote) && !r.NeverPromote
		note := ""
		switch {
		case r.AlwaysPromote && !v.Promote:
			note = " (promoted all the same: --always-promote)"
		case r.NeverPromote && v.Promote:
			note = " (kept the parent all the same: --never-promote)"
		}
		r.logf("round %d promote: %s against %s: %s%s", k, candidate, st.Best, v, note)
		if err := appendRoundLine(r.path("rounds.csv"),
			"round,parent,network,games,points_parent,points_network,games_each,diff,stderr,z,promoted,games_total,cpu_hours", k,
			fmt.Sprintf("%s,%s,%d,%.1f,%.1f,%d,%.1f,%.2f,%.2f,%v,%d,%.2f", st.Best, candidate, st.RoundGames,
				v.Parent, v.Candidate, v.Games, v.Diff, v.SE, v.Z, promoted, games, cpuHours)); err != nil {
			return err
		}
	}
	if err := appendRoundLine(r.path("curve.csv"), curveHeader(), k, curveRow(candidate, games, cpuHours, promoted, res)); err != nil {
		return err
	}
	if err := r.Trainer.Plot(r.path("curve.csv"), r.path("curve.png")); err != nil {
		r.logf("plot: %v", err) // the curve is still in the CSV
	}
	if promoted && k > 0 {
		if err := copyFile(r.path(candidate), r.path("best.onnx")); err != nil {
			return err
		}
		st.Best, st.BestRound = candidate, k
	}
	st.Round, st.Stage, st.Games, st.RoundGames = k+1, "selfplay", games, 0
	return nil
}

// appendRoundLine appends "k,line" to a CSV file (the header first in a
// new file) unless the file has a line of round k already.
func appendRoundLine(path, header string, k int, line string) error {
	data, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	prefix := fmt.Sprintf("%d,", k)
	for _, l := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(l, prefix) {
			return nil
		}
	}
	return appendLine(path, header, prefix+line)
}

// curveHeader and curveRow are the lines of DIR/curve.csv: a measured
// network's score (%) against every rung, by the self-play games and
// processor hours spent so far.
func curveHeader() string {
	return "round,network,games,cpu_hours,promoted," + strings.Join(ladder.RungNames(), ",")
}

// curveRow is a line of curve.csv after its round.
func curveRow(network string, games int, cpuHours float64, promoted bool, res []ladder.RungResult) string {
	// ladder.CSVRow's fields after its first are the rungs' scores.
	_, scores, _ := strings.Cut(ladder.CSVRow(0, res), ",")
	return fmt.Sprintf("%s,%d,%.3f,%v,%s", network, games, cpuHours, promoted, scores)
}

// ladderKey names the settings that make two ladder measurements
// comparable: playouts, games, rungs and the settings the ladder's player
// searches with (azero.DefaultOptions: the batch and the PUCT constants),
// so a changed default measures again rather than reading back results
// taken under the old one.
func (c *Rounds) ladderKey() string {
	rungs := "all"
	if len(c.Ladder.Rungs) > 0 {
		rs := slices.Clone(c.Ladder.Rungs)
		slices.Sort(rs)
		rungs = strings.Join(rs, "+")
	}
	o, p := azero.DefaultOptions, azero.DefaultOptions.Params
	return fmt.Sprintf("%dp-%dg-%s-n%d-c%g-b%g-f%g-t%g", c.LadderPlayouts, c.Ladder.Games, rungs,
		o.BatchSize, p.CPuct, p.CPuctBase, p.FPUReduction, p.PolicyTemp)
}

// seedResult is one seed's ladder measurement of a network, saved as
// DIR/round-NNN/ladder/KEY/seed-S.json.
type seedResult struct {
	Network string              `json:"network"`
	Seed    uint64              `json:"seed"`
	Results []ladder.RungResult `json:"results"`
}

// measure returns a network's ladder results over every seed, summed by
// rung: the seeds measured already (with the same settings) are read
// back, the others climbed, several at a time when Ladder.Workers is
// more than the rungs. With show it logs the results.
func (r *roundsRun) measure(network string, show bool) ([]ladder.RungResult, error) {
	dir := r.path(filepath.Dir(network), "ladder", r.ladderKey())
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	perSeed := make([][]ladder.RungResult, len(r.Seeds))
	var todo []int
	for i, s := range r.Seeds {
		data, err := os.ReadFile(filepath.Join(dir, fmt.Sprintf("seed-%d.json", s)))
		if errors.Is(err, os.ErrNotExist) {
			todo = append(todo, i)
			continue
		}
		var sr seedResult
		if err == nil {
			err = json.Unmarshal(data, &sr)
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %v", dir, err)
		}
		perSeed[i] = sr.Results
	}
	if len(todo) > 0 {
		if err := r.climbSeeds(network, dir, todo, perSeed); err != nil {
			return nil, err
		}
	}
	var sum []ladder.RungResult
	for _, res := range perSeed {
		for _, rr := range res {
			i := slices.IndexFunc(sum, func(s ladder.RungResult) bool { return s.Name == rr.Name })
			if i < 0 {
				sum = append(sum, ladder.RungResult{Name: rr.Name})
				i = len(sum) - 1
			}
			sum[i].W += rr.W
			sum[i].D += rr.D
			sum[i].L += rr.L
		}
	}
	// In ladder order, as CSVRow and the tables have them.
	names := ladder.RungNames()
	slices.SortFunc(sum, func(a, b ladder.RungResult) int {
		return slices.Index(names, a.Name) - slices.Index(names, b.Name)
	})
	if show {
		var parts []string
		for _, s := range sum {
			parts = append(parts, fmt.Sprintf("%s %s (%.1f%%)", s.Name, s.Score, s.Percent()))
		}
		r.logf("round %d ladder: %s over %d seeds: %s", r.st.Round, network, len(r.Seeds), strings.Join(parts, ", "))
	}
	return sum, nil
}

// climbSeeds climbs the ladder with network for the seeds todo (indices
// of r.Seeds), saving each seed's results when it is done.
func (r *roundsRun) climbSeeds(network, dir string, todo []int, perSeed [][]ladder.RungResult) error {
	rungs := max(len(r.Ladder.Rungs), 1)
	if len(r.Ladder.Rungs) == 0 {
		rungs = len(ladder.RungNames())
	}
	workers := max(r.Ladder.Workers, 1)
	parallel := max(workers/rungs, 1)
	var net azero.Backend
	if r.Measure == nil {
		var err error
		if net, err = r.Load(r.path(network)); err != nil {
			return err
		}
	}
	r.logf("round %d ladder: %s, %d playouts a move, %d games a rung, seeds %v", r.st.Round, network, r.LadderPlayouts, r.Ladder.Games, seedsOf(r.Seeds, todo))
	var mu sync.Mutex
	tick := throttle{every: r.ProgressEvery}
	progress := map[uint64]map[string]ladder.Score{}
	total := len(todo) * rungs * r.Ladder.Games
	report := func(seed uint64, rung string, s ladder.Score) {
		mu.Lock()
		defer mu.Unlock()
		if progress[seed] == nil {
			progress[seed] = map[string]ladder.Score{}
		}
		progress[seed][rung] = s
		if !tick.ready() {
			return
		}
		byRung := map[string]ladder.Score{}
		done := 0
		for _, m := range progress {
			for name, sc := range m {
				b := byRung[name]
				b.W, b.D, b.L = b.W+sc.W, b.D+sc.D, b.L+sc.L
				byRung[name] = b
				done += sc.Games()
			}
		}
		names := make([]string, 0, len(byRung))
		for name := range byRung {
			names = append(names, name)
		}
		slices.Sort(names)
		var parts []string
		for _, name := range names {
			parts = append(parts, fmt.Sprintf("%s %.1f%% of %d", name, byRung[name].Percent(), byRung[name].Games()))
		}
		r.logf("round %d ladder: %s: %d of %d games; %s", r.st.Round, network, done, total, strings.Join(parts, ", "))
	}
	errs := make([]error, len(todo))
	sem := make(chan struct{}, parallel)
	var wg sync.WaitGroup
	for j, i := range todo {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			seed := r.Seeds[i]
			res, err := r.climbOne(network, net, dir, seed, min(workers, rungs), func(rung string, s ladder.Score) { report(seed, rung, s) })
			if err == nil {
				data, _ := json.MarshalIndent(seedResult{Network: network, Seed: seed, Results: res}, "", "  ")
				err = writeFile(filepath.Join(dir, fmt.Sprintf("seed-%d.json", seed)), append(data, '\n'))
			}
			perSeed[i], errs[j] = res, err
		}()
	}
	wg.Wait()
	return errors.Join(errs...)
}

// climbOne is one seed's climb, its games in DIR/.../seed-S.pgn.
func (r *roundsRun) climbOne(network string, net azero.Backend, dir string, seed uint64, workers int, report func(string, ladder.Score)) ([]ladder.RungResult, error) {
	if r.Measure != nil {
		return r.Measure(network, seed)
	}
	lc := r.Ladder
	lc.Seed, lc.Workers = seed, workers
	lc.Progress = func(rung string, _ int, s ladder.Score) { report(rung, s) }
	pgn := filepath.Join(dir, fmt.Sprintf("seed-%d.pgn", seed))
	os.Remove(pgn) // the games of a killed attempt
	var err error
	if lc.PGN, err = ladder.OpenPGNLog(pgn, fmt.Sprintf("Twofold ladder, %s, seed %d", network, seed)); err != nil {
		return nil, err
	}
	subject := fmt.Sprintf("Twofold MCTS %s %dp", network, r.LadderPlayouts)
	res, err := ladder.Climb(func() (ladder.Player, error) {
		return azero.NewPlayer(net, "mcts", r.LadderPlayouts)
	}, subject, lc, nil)
	if perr := lc.PGN.Close(); err == nil {
		err = perr
	}
	return res, err
}

func seedsOf(seeds []uint64, idx []int) []uint64 {
	out := make([]uint64, len(idx))
	for j, i := range idx {
		out[j] = seeds[i]
	}
	return out
}

func joinFloats(xs []float64) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = fmt.Sprint(x)
	}
	return strings.Join(s, ",")
}

// throttle lets a progress line through at most once every every.
type throttle struct {
	every time.Duration
	last  time.Time
}

func (t *throttle) ready() bool {
	now := time.Now()
	if !t.last.IsZero() && now.Sub(t.last) < t.every {
		return false
	}
	t.last = now
	return true
}

// minutesLeft formats the time n more games take at perMinute.
func minutesLeft(n int, perMinute float64) string {
	if perMinute <= 0 {
		return "?"
	}
	return (time.Duration(float64(n)/perMinute*60) * time.Second).Round(time.Minute).String()
}
