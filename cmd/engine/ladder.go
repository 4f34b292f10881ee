package main

import (
	"fmt"
	"io"
	"path/filepath"

	"github.com/spf13/pflag"

	"github.com/twofold-chess/twofold/azero"
	"github.com/twofold-chess/twofold/azero/loop"
	"github.com/twofold-chess/twofold/azero/onnx"
	"github.com/twofold-chess/twofold/ladder"
)

const ladderHelp = `Usage: engine ladder [--network FILE] [flags]

Measures a network (MCTS, --playouts per move) against the fixed ladder: a
uniformly random mover, a one-ply greedy player, and alpha-beta at depths
1 to 4 with a fixed material + piece-square evaluation. Games are played
in-process from the ladder's fixed openings with colours swapped; --games
per rung. Prints score and W/D/L per rung; --csv appends a learning-curve
row.

Flags:
`

func runLadder(args []string, stdout, stderr io.Writer) int {
	fs := pflag.NewFlagSet("ladder", pflag.ContinueOnError)
	network := fs.String("network", "", "network file (default: the embedded one)")
	var c ladder.ClimbConfig
	fs.IntVar(&c.Games, "games", 20, "games per rung (even: each opening twice, colours swapped)")
	playouts := fs.Int("playouts", 800, "MCTS playouts per move")
	fs.IntVar(&c.MaxPlies, "max-plies", 400, "ply cap (a draw)")
	fs.IntVar(&c.Workers, "workers", 2, "rungs played at the same time")
	fs.Uint64Var(&c.Seed, "seed", 1, "random seed of the rungs")
	fs.StringSliceVar(&c.Rungs, "rungs", nil, "only these rungs (default: all): "+fmt.Sprint(ladder.RungNames()))
	csv := fs.String("csv", "", "append a row to this learning-curve CSV")
	pgnPath := fs.String("pgn", "", "append every game to this PGN file")
	iteration := fs.Int("iteration", 0, "iteration number for the CSV row")
	ortLib := fs.String("onnxruntime", "", "path of "+onnx.LibraryName)
	params := azero.DefaultParams
	fs.Float64Var(&params.CPuct, "cpuct", params.CPuct, "MCTS exploration constant c_init (the UCI option CPuct)")
	fs.Float64Var(&params.CPuctBase, "cpuct-base", params.CPuctBase, "MCTS exploration growth c_base (CPuctBase)")
	fs.Float64Var(&params.FPUReduction, "fpu-reduction", params.FPUReduction, "first-play urgency reduction of unvisited moves (FPUReduction)")
	fs.Float64Var(&params.PolicyTemp, "policy-temp", params.PolicyTemp, "softmax temperature of the network's policy (PolicyTemperature)")
	batch := fs.Int("batch", azero.DefaultOptions.BatchSize, "MCTS leaves per network run (MCTSBatchSize)")
	if done, code := parseFlags(fs, args, ladderHelp, stdout, stderr); done {
		return code
	}
	bad := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "engine ladder: "+format+"\n", a...)
		return 2
	}
	switch {
	case *batch < 1 || *batch > 256:
		return bad("--batch must be between 1 and 256 (MCTSBatchSize), got %d", *batch)
	case *playouts < 1:
		return bad("--playouts must be at least 1, got %d", *playouts)
	case c.Games < 2:
		return bad("--games must be at least 2 (each opening twice, colours swapped), got %d", c.Games)
	case c.MaxPlies < 1 || c.Workers < 1:
		return bad("--max-plies and --workers must be at least 1, got %d and %d", c.MaxPlies, c.Workers)
	}
	if err := params.Check(); err != nil {
		return bad("%v (--cpuct, --cpuct-base, --fpu-reduction, --policy-temp)", err)
	}
	net, code := loadNetwork(*ortLib, *network, stderr)
	if net == nil {
		return code
	}
	var err error
	if c.PGN, err = ladder.OpenPGNLog(*pgnPath, "Twofold ladder"); err != nil {
		fmt.Fprintln(stderr, "engine ladder:", err)
		return 1
	}
	subject := fmt.Sprintf("Twofold MCTS %s %dp", filepath.Base(net.Name()), *playouts)
	results, err := ladder.Climb(func() (ladder.Player, error) {
		p, err := azero.NewPlayer(net, "mcts", *playouts)
		if err == nil {
			p.SetParams(params)
			p.SetBatchSize(*batch)
		}
		return p, err
	}, subject, c, func(rung string, s ladder.Score) {
		fmt.Fprintf(stdout, "%-14s %s\n", rung, s)
	})
	if perr := c.PGN.Close(); err == nil {
		err = perr
	}
	if err != nil {
		fmt.Fprintln(stderr, "engine ladder:", err)
		return 1
	}
	fmt.Fprintf(stdout, "\nnetwork %s, %d playouts per move\n", net.Name(), *playouts)
	ladder.FormatTable(stdout, results)
	if *csv != "" {
		if err := loop.AppendCSV(*csv, *iteration, results); err != nil {
			fmt.Fprintln(stderr, "engine ladder:", err)
			return 1
		}
	}
	return 0
}
