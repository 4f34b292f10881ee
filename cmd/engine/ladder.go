package main

import (
	"fmt"
	"io"
	"path/filepath"
	"sync"

	"github.com/spf13/pflag"

	"github.com/twofold-chess/twofold/azero"
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

type ladderConfig struct {
	games, playouts, maxPlies, workers int
	seed                               uint64
	rungs                              []string
	pgn                                *pgnLog // every game (nil = none)
}

func runLadder(args []string, stdout, stderr io.Writer) int {
	fs := pflag.NewFlagSet("ladder", pflag.ContinueOnError)
	network := fs.String("network", "", "network file (default: the embedded one)")
	var c ladderConfig
	fs.IntVar(&c.games, "games", 20, "games per rung (even: each opening twice, colours swapped)")
	fs.IntVar(&c.playouts, "playouts", 800, "MCTS playouts per move")
	fs.IntVar(&c.maxPlies, "max-plies", 400, "ply cap (a draw)")
	fs.IntVar(&c.workers, "workers", 2, "rungs played at the same time")
	fs.Uint64Var(&c.seed, "seed", 1, "random seed of the rungs")
	fs.StringSliceVar(&c.rungs, "rungs", nil, "only these rungs (default: all): "+fmt.Sprint(ladder.RungNames()))
	csv := fs.String("csv", "", "append a row to this learning-curve CSV")
	pgnPath := fs.String("pgn", "", "append every game to this PGN file")
	iteration := fs.Int("iteration", 0, "iteration number for the CSV row")
	ortLib := fs.String("onnxruntime", "", "path of "+onnx.LibraryName)
	if done, code := parseFlags(fs, args, ladderHelp, stdout, stderr); done {
		return code
	}
	net, code := loadNetwork(*ortLib, *network, stderr)
	if net == nil {
		return code
	}
	var err error
	if c.pgn, err = openPGNLog(*pgnPath, "Twofold ladder"); err != nil {
		fmt.Fprintln(stderr, "engine ladder:", err)
		return 1
	}
	results, err := climbLadder(net, c, func(rung string, s ladder.Score) {
		fmt.Fprintf(stdout, "%-14s %s\n", rung, s)
	})
	if perr := c.pgn.close(); err == nil {
		err = perr
	}
	if err != nil {
		fmt.Fprintln(stderr, "engine ladder:", err)
		return 1
	}
	fmt.Fprintf(stdout, "\nnetwork %s, %d playouts per move\n", net.Name(), c.playouts)
	ladder.FormatTable(stdout, results)
	if *csv != "" {
		if err := appendCSV(*csv, *iteration, results); err != nil {
			fmt.Fprintln(stderr, "engine ladder:", err)
			return 1
		}
	}
	return 0
}

// climbLadder plays net against every rung, c.workers rungs at a time,
// each with its own MCTS player.
func climbLadder(net *onnx.Network, c ladderConfig, done func(string, ladder.Score)) ([]ladder.RungResult, error) {
	rungs := ladder.Rungs(c.seed)
	if len(c.rungs) > 0 {
		var keep []ladder.Player
		for _, r := range rungs {
			for _, name := range c.rungs {
				if r.Name() == name {
					keep = append(keep, r)
				}
			}
		}
		if len(keep) == 0 {
			return nil, fmt.Errorf("no rung named %v; rungs: %v", c.rungs, ladder.RungNames())
		}
		rungs = keep
	}
	results := make([]ladder.RungResult, len(rungs))
	errs := make([]error, len(rungs))
	sem := make(chan struct{}, max(c.workers, 1))
	var wg sync.WaitGroup
	var mu sync.Mutex
	for i, rung := range rungs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			p, err := azero.NewPlayer(net, "mcts", c.playouts)
			if err != nil {
				errs[i] = err
				return
			}
			defer p.Close()
			subject := fmt.Sprintf("Twofold MCTS %s %dp", filepath.Base(net.Name()), c.playouts)
			s := ladder.Match(p, rung, c.games, c.maxPlies, func(done int, _ ladder.Score, g ladder.GameResult) {
				c.pgn.matchGame(g, subject, rung.Name(), done)
			})
			results[i] = ladder.RungResult{Name: rung.Name(), Score: s}
			if done != nil {
				mu.Lock()
				done(rung.Name(), s)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return results, nil
}

// appendCSV adds a learning-curve row, writing the header to a new file.
func appendCSV(path string, iteration int, results []ladder.RungResult) error {
	return appendLine(path, ladder.CSVHeader(), ladder.CSVRow(iteration, results))
}
