package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/twofold-chess/twofold/azero"
	"github.com/twofold-chess/twofold/azero/onnx"
	"github.com/twofold-chess/twofold/ladder"
)

const trainHelp = `Usage: engine train --run-dir DIR [flags]

The AlphaZero loop, resumable: every iteration
  1. self-play with the best network -> DIR/chunks, DIR/games.pgn
  2. train one network continuously on the newest chunks (azero/train/train.py,
     checkpoint in DIR/trainer) and export it -> DIR/nets/iter-NNNN.onnx (+ .pt)
  3. gate: the new network against the best (MCTS, --gate-playouts, games
     paired with colours swapped from the fixed openings plus
     --gate-random-plies random plies, each side's first --gate-sample-moves
     moves drawn by visits); at 55% or more it becomes the best, which only
     decides who makes the data
  4. every --ladder-every iterations, the best network climbs the ladder
     -> DIR/ladder.csv and the plot DIR/ladder.png
State is in DIR/state.json; after a crash or a stop, the same command goes
on where it was: self-play keeps the games it finished and plays only the
rest, with fresh seeds, and training stops at the iteration's target step.
DIR/lock keeps a second loop off the directory. A candidate whose training
diverged (non-finite loss) or whose outputs are not finite is refused: it is
never gated, the trainer is rolled back to the last good checkpoint, and the
loop stops, saying so. The first iteration starts from a random network of
--blocks x --channels.

Flags:
`

// trainState is the loop's progress, saved after every phase.
type trainState struct {
	Iteration int    `json:"iteration"`
	Phase     string `json:"phase"` // selfplay, train, gate, ladder
	Best      string `json:"best"`  // network file, relative to the run dir
	BestIter  int    `json:"best_iteration"`
	// SelfPlay is the current iteration's self-play so far, saved after
	// every chunk, so that a killed loop continues the iteration instead of
	// replaying it (see selfplayIteration).
	SelfPlay *selfplayProgress `json:"selfplay,omitempty"`
}

type trainConfig struct {
	runDir, python, trainer                string
	iterations, gamesPerIter               int
	steps, batch, window, blocks, channels int
	lr, l2                                 float64
	gateGames, gatePlayouts                int
	gateRandomPlies, gateSampleMoves       int
	ladderEvery                            int
	ladder                                 ladderConfig
	selfplay                               *azero.SelfPlayConfig
	out                                    io.Writer
}

func runTrain(args []string, stdout, stderr io.Writer) int {
	fs := pflag.NewFlagSet("train", pflag.ContinueOnError)
	var c trainConfig
	fs.StringVar(&c.runDir, "run-dir", "", "run directory (required)")
	fs.IntVar(&c.iterations, "iterations", 0, "stop after this many iterations in all (0 = never)")
	fs.IntVar(&c.gamesPerIter, "games", 64, "self-play games per iteration")
	fs.IntVar(&c.steps, "steps", 200, "training steps per iteration")
	fs.IntVar(&c.batch, "batch", 256, "training batch size")
	fs.IntVar(&c.window, "window", 40, "train on the newest this many chunk files")
	fs.Float64Var(&c.lr, "lr", 0.02, "learning rate")
	fs.Float64Var(&c.l2, "l2", 1e-4, "L2 weight decay")
	fs.IntVar(&c.blocks, "blocks", 4, "residual blocks of a new network")
	fs.IntVar(&c.channels, "channels", 32, "channels of a new network")
	fs.IntVar(&c.gateGames, "gate-games", 20, "gating games (0 = always promote)")
	fs.IntVar(&c.gatePlayouts, "gate-playouts", 100, "gating playouts per move")
	fs.IntVar(&c.gateSampleMoves, "gate-sample-moves", 15, "each gating player's first moves of a game are drawn in proportion to visits, as in self-play (0 = always the most visited)")
	fs.IntVar(&c.gateRandomPlies, "gate-random-plies", 8, "random plies after each fixed opening for the gating games' starts (0 = the fixed openings)")
	fs.IntVar(&c.ladderEvery, "ladder-every", 2, "run the ladder every this many iterations (0 = never)")
	fs.IntVar(&c.ladder.games, "ladder-games", 10, "ladder games per rung")
	fs.IntVar(&c.ladder.playouts, "ladder-playouts", 200, "ladder playouts per move")
	fs.StringSliceVar(&c.ladder.rungs, "ladder-rungs", nil, "ladder rungs (default: all)")
	fs.StringVar(&c.python, "python", "/usr/bin/python3", "Python with PyTorch")
	fs.StringVar(&c.trainer, "trainer", "", "directory of train.py (default: azero/train found from the working directory or the binary)")
	c.selfplay = addSelfplayFlags(fs, azero.DefaultSelfPlay)
	ortLib := fs.String("onnxruntime", "", "path of "+onnx.LibraryName)
	if done, code := parseFlags(fs, args, trainHelp, stdout, stderr); done {
		return code
	}
	if c.runDir == "" {
		fmt.Fprintln(stderr, "engine train: --run-dir is required")
		return 2
	}
	if err := checkSelfplay(c.selfplay); err != nil {
		fmt.Fprintln(stderr, "engine train:", err)
		return 2
	}
	if c.trainer == "" {
		c.trainer = findTrainer()
	}
	if _, err := os.Stat(filepath.Join(c.trainer, "train.py")); err != nil {
		fmt.Fprintf(stderr, "engine train: train.py not found in %q; pass --trainer DIR\n", c.trainer)
		return 2
	}
	if _, err := onnx.LoadRuntime(*ortLib); err != nil {
		fmt.Fprintln(stderr, "engine train:", err)
		return 1
	}
	c.ladder.maxPlies, c.ladder.workers, c.ladder.seed = 400, c.selfplay.Workers, 1
	c.out = stdout
	if err := trainLoop(&c); err != nil {
		fmt.Fprintln(stderr, "engine train:", err)
		return 1
	}
	return 0
}

// findTrainer looks for azero/train above the working directory and the binary.
func findTrainer() string {
	var starts []string
	if wd, err := os.Getwd(); err == nil {
		starts = append(starts, wd)
	}
	if exe, err := os.Executable(); err == nil {
		starts = append(starts, filepath.Dir(exe))
	}
	for _, s := range starts {
		for dir := s; ; dir = filepath.Dir(dir) {
			cand := filepath.Join(dir, "azero", "train")
			if _, err := os.Stat(filepath.Join(cand, "train.py")); err == nil {
				return cand
			}
			if filepath.Dir(dir) == dir {
				break
			}
		}
	}
	return ""
}

func (c *trainConfig) path(parts ...string) string {
	return filepath.Join(append([]string{c.runDir}, parts...)...)
}

func loadState(path string) (trainState, error) {
	var st trainState
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return trainState{Iteration: 1, Phase: "selfplay"}, nil
	}
	if err != nil {
		return st, err
	}
	return st, json.Unmarshal(data, &st)
}

func saveState(path string, st trainState) error {
	data, _ := json.MarshalIndent(st, "", "  ")
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// exitDiverged is train.py's exit status for a non-finite loss or network:
// it then neither saves the checkpoint nor exports.
const exitDiverged = 3

// errDiverged reports that train.py refused to make a candidate.
var errDiverged = errors.New("training diverged (non-finite loss or weights)")

// python runs a trainer script, its output going to the loop's output. It
// cannot outlive the loop (runChild).
func (c *trainConfig) runPython(script string, args ...string) error {
	cmd := exec.Command(c.python, append([]string{filepath.Join(c.trainer, script)}, args...)...)
	cmd.Stdout, cmd.Stderr = c.out, c.out
	if err := runChild(cmd); err != nil {
		var exit *exec.ExitError
		if script == "train.py" && errors.As(err, &exit) && exit.ExitCode() == exitDiverged {
			return fmt.Errorf("%w: %s exited with status %d", errDiverged, script, exitDiverged)
		}
		return fmt.Errorf("%s %s: %v", script, args, err)
	}
	return nil
}

func trainLoop(c *trainConfig) error {
	if err := os.MkdirAll(c.runDir, 0o755); err != nil {
		return err
	}
	unlock, err := lockRunDir(c.runDir)
	if err != nil {
		return err
	}
	defer unlock()
	for _, d := range []string{"chunks", "nets", "trainer"} {
		if err := os.MkdirAll(c.path(d), 0o755); err != nil {
			return err
		}
	}
	statePath := c.path("state.json")
	st, err := loadState(statePath)
	if err != nil {
		return fmt.Errorf("%s: %v", statePath, err)
	}
	if st.Best == "" {
		st.Best = filepath.Join("nets", "iter-0000.onnx")
		if err := c.runPython("train.py", "--init-only", "--exit-with-parent", "--run-dir", c.path("trainer"), "--blocks", fmt.Sprint(c.blocks),
			"--channels", fmt.Sprint(c.channels), "--export", c.path(st.Best)); err != nil {
			return err
		}
		// The starting weights beside the first network: a refused
		// candidate of iteration 1 rolls the trainer back to them.
		if err := copyFile(c.path("trainer", "checkpoint.pt"), c.path("nets", "iter-0000.pt")); err != nil {
			return err
		}
		if err := saveState(statePath, st); err != nil {
			return err
		}
	}
	// An export killed half-way leaves its temporary file (export.py).
	if olds, err := filepath.Glob(c.path("nets", ".export-*.onnx.tmp")); err == nil {
		for _, o := range olds {
			os.Remove(o)
		}
	}
	start := time.Now()
	for c.iterations == 0 || st.Iteration <= c.iterations {
		it := st.Iteration
		candidate := filepath.Join("nets", fmt.Sprintf("iter-%04d.onnx", it))
		fmt.Fprintf(c.out, "== iteration %d (%s) best %s, %s elapsed\n", it, st.Phase, st.Best, time.Since(start).Round(time.Second))
		switch st.Phase {
		case "selfplay":
			if err := c.selfplayIteration(it, &st, statePath); err != nil {
				return err
			}
			st.Phase, st.SelfPlay = "train", nil
		case "train":
			// The target key makes a restarted phase end at the step an
			// uninterrupted one would have, not --steps after the kill.
			if err := c.runPython("train.py", "--exit-with-parent", "--target-key", fmt.Sprintf("iter-%04d", it),
				"--chunks", c.path("chunks"), "--window", fmt.Sprint(c.window),
				"--run-dir", c.path("trainer"), "--steps", fmt.Sprint(c.steps), "--batch", fmt.Sprint(c.batch),
				"--lr", fmt.Sprint(c.lr), "--l2", fmt.Sprint(c.l2), "--log-every", "50", "--export", c.path(candidate)); err != nil {
				if errors.Is(err, errDiverged) {
					return c.refuse(it, candidate, &st, statePath, err.Error())
				}
				return err
			}
			// Keep the weights beside the export: export.py --checkpoint can
			// then rebuild the network and its golden outputs for shipping.
			if err := copyFile(c.path("trainer", "checkpoint.pt"), c.path(strings.TrimSuffix(candidate, ".onnx")+".pt")); err != nil {
				return err
			}
			st.Phase = "gate"
		case "gate":
			// A network with NaN outputs would crash the gate, and the
			// rerun would crash again; it is refused instead.
			if err := checkCandidate(c.path(candidate)); err != nil {
				return c.refuse(it, candidate, &st, statePath, err.Error())
			}
			promoted, score, err := c.gate(it, candidate, st.Best)
			if err != nil {
				return err
			}
			fmt.Fprintf(c.out, "gate: %s vs %s: %s (%.1f%%) -> %s\n", candidate, st.Best, score, score.Percent(), map[bool]string{true: "promoted", false: "kept the best"}[promoted])
			if err := appendLine(c.path("gating.csv"), "iteration,candidate,best,wins,draws,losses,percent,promoted",
				fmt.Sprintf("%d,%s,%s,%d,%d,%d,%.1f,%v", it, candidate, st.Best, score.W, score.D, score.L, score.Percent(), promoted)); err != nil {
				return err
			}
			if promoted {
				st.Best, st.BestIter = candidate, it
			}
			st.Phase = "ladder"
		case "ladder":
			if c.ladderEvery > 0 && it%c.ladderEvery == 0 {
				net, err := onnx.LoadNetwork(c.path(st.Best))
				if err != nil {
					return err
				}
				lc := c.ladder
				if lc.pgn, err = openPGNLog(c.path("ladder.pgn"), fmt.Sprintf("Twofold ladder, iteration %d", it)); err != nil {
					return err
				}
				results, err := climbLadder(net, lc, func(r string, s ladder.Score) {
					fmt.Fprintf(c.out, "ladder %-14s %s\n", r, s)
				})
				if perr := lc.pgn.close(); err == nil {
					err = perr
				}
				if err != nil {
					return err
				}
				if err := appendCSV(c.path("ladder.csv"), it, results); err != nil {
					return err
				}
				if err := c.runPython("plot.py", c.path("ladder.csv"), c.path("ladder.png")); err != nil {
					fmt.Fprintln(c.out, "plot:", err) // the curve is still in the CSV
				}
			}
			st.Iteration++
			st.Phase = "selfplay"
		default:
			return fmt.Errorf("%s: unknown phase %q", statePath, st.Phase)
		}
		if err := saveState(statePath, st); err != nil {
			return err
		}
	}
	fmt.Fprintf(c.out, "done: best network %s (iteration %d)\n", c.path(st.Best), st.BestIter)
	return nil
}

// gate plays the candidate against the best; it is promoted at 55% or more.
// Its games go to gating.pgn in the run directory.
func (c *trainConfig) gate(it int, candidate, best string) (bool, ladder.Score, error) {
	if c.gateGames == 0 {
		return true, ladder.Score{}, nil
	}
	cn, err := onnx.LoadNetwork(c.path(candidate))
	if err != nil {
		return false, ladder.Score{}, err
	}
	bn, err := onnx.LoadNetwork(c.path(best))
	if err != nil {
		return false, ladder.Score{}, err
	}
	cp, err := azero.NewPlayer(cn, "candidate", c.gatePlayouts)
	if err != nil {
		return false, ladder.Score{}, err
	}
	defer cp.Close()
	bp, err := azero.NewPlayer(bn, "best", c.gatePlayouts)
	if err != nil {
		return false, ladder.Score{}, err
	}
	defer bp.Close()
	cp.SampleMoves(c.gateSampleMoves, uint64(2*it))
	bp.SampleMoves(c.gateSampleMoves, uint64(2*it+1))
	log, err := openPGNLog(c.path("gating.pgn"), fmt.Sprintf("Twofold gating, iteration %d", it))
	if err != nil {
		return false, ladder.Score{}, err
	}
	starts := ladder.RandomStarts((c.gateGames+1)/2, c.gateRandomPlies, uint64(it))
	s := ladder.MatchFrom(cp, bp, starts, c.gateGames, 400, func(done int, _ ladder.Score, g ladder.GameResult) {
		log.matchGame(g, candidate, best, done)
	})
	if err := log.close(); err != nil {
		return false, ladder.Score{}, err
	}
	return s.Percent() >= 55, s, nil
}

func copyFile(from, to string) error {
	data, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	if err := os.WriteFile(to+".tmp", data, 0o644); err != nil {
		return err
	}
	return os.Rename(to+".tmp", to)
}

func appendLine(path, header, line string) error {
	_, statErr := os.Stat(path)
	f, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	if os.IsNotExist(statErr) {
		fmt.Fprintln(f, header)
	}
	fmt.Fprintln(f, line)
	return f.Close()
}
