package main

import (
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"time"

	"github.com/spf13/pflag"

	"github.com/twofold-chess/twofold/azero"
	"github.com/twofold-chess/twofold/azero/loop"
	"github.com/twofold-chess/twofold/azero/onnx"
	"github.com/twofold-chess/twofold/ladder"
)

const climbHelp = `Usage: engine climb --run-dir DIR [flags]

Rounds of policy iteration, the recipe that made the shipped network,
resumable. Round 0 measures the starting network (--init-network) on the
ladder; then every round
  1. self-play: --games games of the current network (Gumbel root, playout
     cap randomization) -> DIR/round-NNN/chunks, games.pgn
  2. pack: a sample set of them (and of the --window - 1 rounds before),
     the round's newest --holdout chunk files held out
     (azero/train/sampleset.py) -> DIR/round-NNN/set
  3. train: the current network trained on the set in segments, --steps[i]
     steps at --lr[i] each, batch --batch (azero/train/train.py --init-onnx)
     -> DIR/round-NNN/network.onnx (+ .pt)
  4. check: the candidate must load and give finite outputs; its held-out
     loss and its parent's (evaluate.py) -> DIR/round-NNN/heldout.json
  5. ladder: the candidate, and the parent unless measured already, against
     --ladder-rungs, --ladder-games a rung under each of --ladder-seeds
  6. promote: the candidate becomes the current network when its points
     summed over the rungs beat the parent's by more than --promote-z
     standard errors of the difference (a game scores 1, 1/2 or 0); else
     the next round plays the parent's games again (--always-promote and
     --never-promote measure without deciding)
After every round: DIR/rounds.csv (the test's numbers), DIR/curve.csv and
DIR/curve.png (each network's score per rung by self-play games and
processor hours), DIR/best.onnx (the current network). One line per stage,
progress lines every --progress in the long ones.

State is in DIR/state.json; after a crash, a kill or Ctrl-C the same
command goes on where it was (self-play keeps its finished games, training
its checkpoint, the ladder its finished seeds). A larger --rounds continues
a finished run; flags may change between invocations and apply from there
on. A candidate whose training diverged or whose outputs are not finite is
refused and the run stops, saying what to do.

Flags:
`

// climbDefaults are the self-play settings of the rounds that made the
// shipped network.
func climbDefaults() azero.SelfPlayConfig {
	d := azero.DefaultSelfPlay
	d.GumbelActions, d.Playouts, d.FastPlayouts, d.Parallel, d.MaxPlies = 16, 64, 16, 16, 300
	d.Workers = runtime.NumCPU()
	return d
}

func runClimb(args []string, stdout, stderr io.Writer) int {
	fs := pflag.NewFlagSet("climb", pflag.ContinueOnError)
	var c loop.Rounds
	fs.StringVar(&c.RunDir, "run-dir", "", "run directory (required)")
	fs.IntVar(&c.Rounds, "rounds", 0, "stop after this many rounds in all (0 = never)")
	initNet := fs.String("init-network", onnx.DefaultNetworkName, "the starting network of a new run ("+onnx.DefaultNetworkName+" = the embedded one)")
	fs.IntVar(&c.Games, "games", 24000, "self-play games per round")
	fs.IntVar(&c.Holdout, "holdout", 24, "newest chunk files of a round held out of training")
	fs.IntVar(&c.Window, "window", 1, "rounds whose games a round trains on: its own and the window - 1 before it")
	fs.IntSliceVar(&c.Steps, "steps", []int{3000, 900}, "training segments' steps, from the current network")
	lrs := fs.StringSlice("lr", []string{"0.01", "0.001"}, "the segments' learning rates, one for each of --steps")
	fs.IntVar(&c.Batch, "batch", 1024, "training batch size")
	fs.Float64Var(&c.L2, "l2", 1e-4, "L2 weight decay")
	addTechniqueFlags(fs, &c.EMA, &c.SurpriseWeight)
	device := fs.String("device", "auto", "train.py --device: auto, cpu or cuda")
	threads := trainerThreads(fs)
	fs.IntVar(&c.LadderPlayouts, "ladder-playouts", 800, "ladder playouts per move")
	fs.IntVar(&c.Ladder.Games, "ladder-games", 50, "ladder games per rung and seed (even: each opening twice, colours swapped)")
	fs.StringSliceVar(&c.Ladder.Rungs, "ladder-rungs", []string{"alphabeta-d2", "alphabeta-d3"}, "ladder rungs: "+fmt.Sprint(ladder.RungNames()))
	seeds := fs.UintSlice("ladder-seeds", []uint{1, 2, 3}, "ladder seeds: one climb of --ladder-games a rung each")
	fs.IntVar(&c.Ladder.Workers, "ladder-workers", runtime.NumCPU(), "ladder games played at the same time")
	fs.Float64Var(&c.Z, "promote-z", 1, "promote a candidate whose points beat its parent's by more than this many standard errors")
	fs.BoolVar(&c.AlwaysPromote, "always-promote", false, "promote every candidate that is not refused (measure only)")
	fs.BoolVar(&c.NeverPromote, "never-promote", false, "keep the parent whatever the candidate scores (measure only)")
	fs.DurationVar(&c.ProgressEvery, "progress", time.Minute, "least time between two progress lines of a long stage")
	python := fs.String("python", "/usr/bin/python3", "Python with PyTorch")
	scripts := fs.String("trainer", "", "directory of train.py (default: azero/train found from the working directory or the binary)")
	selfplay := addSelfplayFlags(fs, climbDefaults())
	ortLib := fs.String("onnxruntime", "", "path of "+onnx.LibraryName)
	if done, code := parseFlags(fs, args, climbHelp, stdout, stderr); done {
		return code
	}
	bad := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "engine climb: "+format+"\n", a...)
		return 2
	}
	for _, s := range *lrs {
		lr, err := strconv.ParseFloat(s, 64)
		if err != nil || !(lr > 0) || math.IsInf(lr, 0) {
			return bad("--lr %v: want positive learning rates", *lrs)
		}
		c.LR = append(c.LR, lr)
	}
	switch {
	case c.RunDir == "":
		return bad("--run-dir is required")
	case len(c.Steps) == 0 || len(c.Steps) != len(c.LR):
		return bad("--steps has %d segments and --lr %d: give one learning rate a segment", len(c.Steps), len(c.LR))
	case slices.ContainsFunc(c.Steps, func(s int) bool { return s < 1 }):
		return bad("--steps %v: every segment needs at least one step", c.Steps)
	case c.Games < 1 || c.Holdout < 0 || c.Batch < 1 || c.Window < 1:
		return bad("--games, --batch and --window must be at least 1 and --holdout at least 0")
	case c.LadderPlayouts < 1 || c.Ladder.Games < 2 || len(*seeds) == 0:
		return bad("--ladder-playouts must be at least 1, --ladder-games at least 2, and --ladder-seeds not empty")
	case *threads < 0:
		return bad("--threads %d: want 0 (PyTorch's default) or more", *threads)
	case !(c.Z >= 0) || math.IsInf(c.Z, 0):
		return bad("--promote-z %v: want a margin of 0 or more standard errors", c.Z)
	case c.AlwaysPromote && c.NeverPromote:
		return bad("--always-promote and --never-promote: give one of them at most")
	}
	if err := checkTechniques(c.EMA, c.SurpriseWeight); err != nil {
		return bad("%v", err)
	}
	for _, r := range c.Ladder.Rungs {
		if !slices.Contains(ladder.RungNames(), r) {
			return bad("--ladder-rungs: no rung %q; the rungs: %v", r, ladder.RungNames())
		}
	}
	if err := checkSelfplay(selfplay); err != nil {
		return bad("%v", err)
	}
	for _, s := range *seeds {
		c.Seeds = append(c.Seeds, uint64(s))
	}
	dir, err := trainerScripts(*scripts)
	if err != nil {
		return bad("%v", err)
	}
	*scripts = dir
	// ONNX Runtime first (with the embedded network), so that a missing
	// library is reported before anything else.
	if _, err := onnx.Open(*ortLib, ""); err != nil {
		fmt.Fprintln(stderr, "engine climb:", err)
		return 1
	}
	if _, err := os.Stat(filepath.Join(c.RunDir, "state.json")); os.IsNotExist(err) {
		// Vetted like any network: it must load and give finite outputs.
		net, err := onnx.Open(*ortLib, *initNet)
		if err != nil {
			fmt.Fprintln(stderr, "engine climb: --init-network:", err)
			return 1
		}
		c.InitNetwork = net.Model()
	}
	c.SelfPlay = *selfplay
	c.Ladder.MaxPlies = 400
	trainer := loop.PyTorch{Python: *python, Scripts: *scripts, Out: stdout, Device: *device, Threads: *threads}
	if err := trainer.Check(); err != nil {
		fmt.Fprintf(stderr, "engine climb: %v\n", err)
		return 1
	}
	c.Trainer = trainer
	c.Load = func(path string) (azero.Backend, error) { return openBackend(*ortLib, path) }
	c.Out = stdout
	if err := loop.RunRounds(&c); err != nil {
		fmt.Fprintln(stderr, "engine climb:", err)
		return 1
	}
	return 0
}
