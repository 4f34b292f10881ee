package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/pflag"

	"github.com/twofold-chess/twofold/book"
	"github.com/twofold-chess/twofold/eval"
	"github.com/twofold-chess/twofold/eval/texel"
)

const texelHelp = `Usage: engine texel gen --out FILE [--games N] [--nodes N] [--book FILE] [--random-plies N] [--workers N] [--seed N]
       engine texel fit --data FILE [--data FILE ...] [--epochs N] [--lr X] [--write eval/weights.go]

Texel tuning of the evaluation weights, in two steps:

  gen   plays the engine against itself (fixed nodes per move, random
        opening plies) and writes quiet positions with the game result,
        one "FEN | result" line each.
  fit   fits the weights to those results (sigmoid least squares, Adam)
        starting from the current weights, prints the loss before and
        after, and with --write rewrites the weights file; rebuild the
        engine to play with the new weights.

Flags:
`

func runTexel(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || (args[0] != "gen" && args[0] != "fit") {
		if len(args) > 0 && (args[0] == "-h" || args[0] == "--help") {
			fmt.Fprint(stdout, texelHelp)
			return 0
		}
		fmt.Fprint(stderr, "engine texel: want 'gen' or 'fit'\n\n"+texelHelp)
		return 2
	}
	fs := pflag.NewFlagSet("texel "+args[0], pflag.ContinueOnError)
	out := fs.String("out", "", "gen: file to write positions to")
	games := fs.Int("games", 1000, "gen: games to play")
	nodes := fs.Uint64("nodes", 5000, "gen: search nodes per move")
	randomPlies := fs.Int("random-plies", 8, "gen: random opening plies")
	workers := fs.Int("workers", 1, "gen: games played at once")
	seed := fs.Int64("seed", 1, "gen: seed of the random openings")
	bookPath := fs.String("book", "", "gen: EPD or FEN file of openings to start from (before the random plies)")
	data := fs.StringArray("data", nil, "fit: position files (repeatable)")
	epochs := fs.Int("epochs", 2000, "fit: full passes over the data")
	lr := fs.Float64("lr", 1.0, "fit: Adam step size in centipawns")
	l2 := fs.Float64("l2", 2e-8, "fit: L2 pull of every weight toward its starting value")
	write := fs.String("write", "", "fit: rewrite this weights file (eval/weights.go)")
	if done, code := parseFlags(fs, args[1:], texelHelp, stdout, stderr); done {
		return code
	}
	if args[0] == "gen" {
		if *out == "" || *games < 1 || *nodes < 1 || *workers < 1 {
			fmt.Fprintln(stderr, "engine texel gen: --out is required; --games, --nodes and --workers must be positive")
			return 2
		}
		var openings []string
		if *bookPath != "" {
			var err error
			if openings, err = book.ReadEPD(*bookPath); err != nil {
				fmt.Fprintln(stderr, "engine texel gen:", err)
				return 1
			}
		}
		f, err := os.Create(*out)
		if err != nil {
			fmt.Fprintln(stderr, "engine texel gen:", err)
			return 1
		}
		n, err := texel.Generate(f, texel.GenOptions{Games: *games, Nodes: *nodes, RandomPlies: *randomPlies,
			Workers: *workers, Seed: *seed, Openings: openings, Progress: stdout})
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			fmt.Fprintln(stderr, "engine texel gen:", err)
			return 1
		}
		fmt.Fprintf(stdout, "wrote %d positions to %s\n", n, *out)
		return 0
	}

	if len(*data) == 0 || *epochs < 1 {
		fmt.Fprintln(stderr, "engine texel fit: --data is required and --epochs must be positive")
		return 2
	}
	start := eval.Current()
	var all []io.Reader
	for _, name := range *data {
		f, err := os.Open(name)
		if err != nil {
			fmt.Fprintln(stderr, "engine texel fit:", err)
			return 1
		}
		defer f.Close()
		all = append(all, f)
	}
	ds, err := texel.ReadDataset(io.MultiReader(all...), &start)
	if err != nil {
		fmt.Fprintln(stderr, "engine texel fit:", err)
		return 1
	}
	if ds.Len() == 0 {
		fmt.Fprintln(stderr, "engine texel fit: no positions in the data")
		return 1
	}
	k := ds.FitK(&start)
	before := ds.Loss(&start, k)
	fmt.Fprintf(stdout, "positions %d, K %s, loss before %.6f\n", ds.Len(), texel.FormatK(k), before)
	tuned, after := ds.Fit(&start, k, texel.FitOptions{Epochs: *epochs, LearningRate: *lr, L2: *l2, Progress: stdout})
	fmt.Fprintf(stdout, "loss after %.6f\n", after)
	if *write != "" {
		src, err := eval.WeightsSource(&tuned, fmt.Sprintf("Texel-tuned on %d positions from %s; K %s, loss %.6f -> %.6f.",
			ds.Len(), strings.Join(baseNames(*data), ", "), texel.FormatK(k), before, after))
		if err == nil {
			err = os.WriteFile(*write, src, 0o644)
		}
		if err != nil {
			fmt.Fprintln(stderr, "engine texel fit:", err)
			return 1
		}
		fmt.Fprintf(stdout, "wrote %s\n", *write)
	}
	return 0
}

func baseNames(paths []string) []string {
	out := make([]string, len(paths))
	for i, p := range paths {
		out[i] = filepath.Base(p)
	}
	return out
}
