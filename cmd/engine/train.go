package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"

	"github.com/spf13/pflag"

	"github.com/twofold-chess/twofold/azero"
	"github.com/twofold-chess/twofold/azero/loop"
	"github.com/twofold-chess/twofold/azero/onnx"
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
--blocks x --channels, or with --init-network from an existing network's
weights (--init-network '<default>': the embedded one), copied to
DIR/init.onnx.

Flags:
`

// addTechniqueFlags adds the trainer's opt-in techniques that engine train
// and engine climb share: weight averaging and policy-surprise weighting
// (azero/train/train.py --ema, --surprise-weight; 0: off).
func addTechniqueFlags(fs *pflag.FlagSet, ema, surprise *float64) {
	fs.Float64Var(ema, "ema", 0, "export an exponential moving average of the weights with this decay, e.g. 0.999 (0 = off, the live weights)")
	fs.Float64Var(surprise, "surprise-weight", 0, "share of the sample weight given by policy surprise, KL(target || network policy), e.g. 0.5 (0 = off, uniform)")
}

// trainerThreads declares --threads of the commands that train: PyTorch's
// own default can be one thread where the machine has more, and while a
// round or an iteration trains nothing else runs.
func trainerThreads(fs *pflag.FlagSet) *int {
	return fs.Int("threads", runtime.NumCPU(), "trainer threads (default: the machine's cores; 0 = PyTorch's default)")
}

// checkTechniques refuses what addTechniqueFlags read and train.py would.
func checkTechniques(ema, surprise float64) error {
	if !(ema >= 0 && ema < 1) {
		return fmt.Errorf("--ema %v: want a decay in [0, 1)", ema)
	}
	if !(surprise >= 0 && surprise <= 1) {
		return fmt.Errorf("--surprise-weight %v: want a share in [0, 1]", surprise)
	}
	return nil
}

// trainerScripts is the directory of train.py that engine train and engine
// climb run: the --trainer flag's, else the checkout's azero/train found
// above the working directory or the binary.
func trainerScripts(flag string) (string, error) {
	dir := flag
	if dir == "" {
		if dir = loop.FindScripts(); dir == "" {
			return "", errors.New("no azero/train (train.py) above the working directory or the binary; pass --trainer DIR, a checkout's azero/train")
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "train.py")); err != nil {
		return "", fmt.Errorf("--trainer %s: no train.py there; pass a checkout's azero/train", dir)
	}
	return dir, nil
}

func runTrain(args []string, stdout, stderr io.Writer) int {
	fs := pflag.NewFlagSet("train", pflag.ContinueOnError)
	var c loop.Config
	fs.StringVar(&c.RunDir, "run-dir", "", "run directory (required)")
	fs.IntVar(&c.Iterations, "iterations", 0, "stop after this many iterations in all (0 = never)")
	fs.IntVar(&c.GamesPerIter, "games", 64, "self-play games per iteration")
	fs.IntVar(&c.Steps, "steps", 200, "training steps per iteration")
	fs.IntVar(&c.Batch, "batch", 256, "training batch size")
	fs.IntVar(&c.Window, "window", 40, "train on the newest this many chunk files")
	fs.Float64Var(&c.LR, "lr", 0.02, "learning rate")
	fs.Float64Var(&c.L2, "l2", 1e-4, "L2 weight decay")
	fs.Float64Var(&c.QRatio, "q-ratio", 0, "value target = (1-r)*game result + r*the search's root value (0 = the result alone)")
	addTechniqueFlags(fs, &c.EMA, &c.SurpriseWeight)
	fs.IntVar(&c.Net.Blocks, "blocks", 4, "residual blocks of a new network")
	fs.IntVar(&c.Net.Channels, "channels", 32, "channels of a new network")
	fs.BoolVar(&c.Net.WDL, "wdl", false, "a new network's value head predicts win/draw/loss (cross-entropy) instead of a tanh scalar")
	initNet := fs.String("init-network", "", "start a new run from this ONNX network's weights (its shape replaces --blocks/--channels/--wdl; "+onnx.DefaultNetworkName+" = the embedded one) instead of a random network")
	fs.IntVar(&c.GateGames, "gate-games", 20, "gating games (0 = always promote)")
	fs.IntVar(&c.GatePlayouts, "gate-playouts", 100, "gating playouts per move")
	fs.IntVar(&c.GateSampleMoves, "gate-sample-moves", 15, "each gating player's first moves of a game are drawn in proportion to visits, as in self-play (0 = always the most visited)")
	fs.IntVar(&c.GateRandomPlies, "gate-random-plies", 8, "random plies after each fixed opening for the gating games' starts (0 = the fixed openings)")
	fs.IntVar(&c.LadderEvery, "ladder-every", 2, "run the ladder every this many iterations (0 = never)")
	fs.IntVar(&c.Ladder.Games, "ladder-games", 10, "ladder games per rung")
	fs.IntVar(&c.LadderPlayouts, "ladder-playouts", 200, "ladder playouts per move")
	fs.StringSliceVar(&c.Ladder.Rungs, "ladder-rungs", nil, "ladder rungs (default: all)")
	python := fs.String("python", "/usr/bin/python3", "Python with PyTorch")
	threads := trainerThreads(fs)
	scripts := fs.String("trainer", "", "directory of train.py (default: azero/train found from the working directory or the binary)")
	selfplay := addSelfplayFlags(fs, azero.DefaultSelfPlay)
	ortLib := fs.String("onnxruntime", "", "path of "+onnx.LibraryName)
	if done, code := parseFlags(fs, args, trainHelp, stdout, stderr); done {
		return code
	}
	if c.RunDir == "" {
		fmt.Fprintln(stderr, "engine train: --run-dir is required")
		return 2
	}
	if err := checkSelfplay(selfplay); err != nil {
		fmt.Fprintln(stderr, "engine train:", err)
		return 2
	}
	if !(c.QRatio >= 0 && c.QRatio <= 1) {
		fmt.Fprintf(stderr, "engine train: --q-ratio %v: want a share in [0, 1]\n", c.QRatio)
		return 2
	}
	if err := checkTechniques(c.EMA, c.SurpriseWeight); err != nil {
		fmt.Fprintln(stderr, "engine train:", err)
		return 2
	}
	if *threads < 0 {
		fmt.Fprintf(stderr, "engine train: --threads %d: want 0 (PyTorch's default) or more\n", *threads)
		return 2
	}
	dir, err := trainerScripts(*scripts)
	if err != nil {
		fmt.Fprintln(stderr, "engine train:", err)
		return 2
	}
	*scripts = dir
	// ONNX Runtime first (with the embedded network), so that a missing
	// library is reported before anything else.
	if _, err := onnx.Open(*ortLib, ""); err != nil {
		fmt.Fprintln(stderr, "engine train:", err)
		return 1
	}
	if *initNet != "" {
		// Vetted like any network: it must load and give finite outputs.
		net, err := onnx.Open(*ortLib, *initNet)
		if err != nil {
			fmt.Fprintln(stderr, "engine train: --init-network:", err)
			return 1
		}
		c.InitNetwork = net.Model()
	}
	c.SelfPlay = *selfplay
	c.Ladder.MaxPlies, c.Ladder.Workers, c.Ladder.Seed = 400, selfplay.Workers, 1
	trainer := loop.PyTorch{Python: *python, Scripts: *scripts, Out: stdout, Threads: *threads}
	if err := trainer.Check(); err != nil {
		fmt.Fprintf(stderr, "engine train: %v\n", err)
		return 1
	}
	c.Trainer = trainer
	c.Load = func(path string) (azero.Backend, error) { return openBackend(*ortLib, path) }
	c.Out = stdout
	if err := loop.Run(&c); err != nil {
		fmt.Fprintln(stderr, "engine train:", err)
		return 1
	}
	return 0
}

// openBackend loads and vets a network file for the loop: onnx.Open runs
// it on fixture positions and refuses NaN or infinite outputs.
func openBackend(ortLib, path string) (azero.Backend, error) {
	net, err := onnx.Open(ortLib, path)
	if err != nil {
		return nil, err // not a nil *Network in the interface
	}
	return net, nil
}
