package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/twofold-chess/twofold/board"
	"github.com/twofold-chess/twofold/movegen"
	"github.com/twofold-chess/twofold/perft"
)

const perftHelp = `Usage: engine perft [--fen FEN] [--depth N] [--divide] [--chess960]
       engine perft --suite FILE [--depth N] [--max-nodes N]

Counts the leaf nodes of the legal move tree, the standard check of a move
generator, and reports time and speed (nodes per second).

With --suite, checks every reference count of an EPD file whose lines read
"FEN ;D1 20 ;D2 400 ...", prints one line per position and a summary, and
exits with status 1 if any count differs.

Flags:
`

func runPerft(args []string, stdout, stderr io.Writer) int {
	fs := pflag.NewFlagSet("perft", pflag.ContinueOnError)
	fen := fs.String("fen", board.StartFEN, "position to count from")
	depth := fs.IntP("depth", "d", 0, "depth in plies (default 5; with --suite: the deepest count to check, 0 = all)")
	divide := fs.Bool("divide", false, "print the count under each root move first")
	suite := fs.String("suite", "", "EPD file of reference counts to check")
	maxNodes := fs.Uint64("max-nodes", 0, "with --suite: skip reference counts above this many nodes (0 = no limit)")
	chess960 := fs.Bool("chess960", false, "write castling as king takes rook (Chess960 positions are detected from the FEN)")
	if done, code := parseFlags(fs, args, perftHelp, stdout, stderr); done {
		return code
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "engine perft: unexpected argument %q (quote the FEN: --fen \"...\")\n", fs.Arg(0))
		return 2
	}
	if *depth < 0 || *depth > 20 {
		fmt.Fprintf(stderr, "engine perft: --depth must be between 1 and 20, got %d\n", *depth)
		return 2
	}
	if *suite != "" {
		if fs.Changed("fen") || *divide {
			fmt.Fprintln(stderr, "engine perft: --suite cannot be combined with --fen or --divide")
			return 2
		}
		return perftSuite(*suite, perft.SuiteOptions{MaxDepth: *depth, MaxNodes: *maxNodes}, stdout, stderr)
	}
	if fs.Changed("max-nodes") {
		fmt.Fprintln(stderr, "engine perft: --max-nodes only applies with --suite")
		return 2
	}
	if *depth == 0 {
		*depth = 5
	}
	p, err := movegen.ParseFEN(*fen)
	if err != nil {
		fmt.Fprintln(stderr, "engine perft:", err)
		return 2
	}
	p.SetChess960(*chess960)

	start := time.Now()
	var nodes uint64
	if *divide {
		nodes, _ = perft.WriteDivide(stdout, p, *depth, nil)
	} else {
		nodes = perft.Count(p, *depth)
		fmt.Fprintf(stdout, "Nodes searched: %d\n", nodes)
	}
	elapsed := time.Since(start)
	fmt.Fprintf(stdout, "Time: %d ms\nNodes/second: %d\n", elapsed.Milliseconds(), nps(nodes, elapsed))
	return 0
}

func perftSuite(path string, opt perft.SuiteOptions, stdout, stderr io.Writer) int {
	f, err := os.Open(path)
	if err != nil {
		fmt.Fprintln(stderr, "engine perft:", err)
		return 2
	}
	defer f.Close()
	entries, err := perft.ReadSuite(f)
	if err != nil {
		fmt.Fprintf(stderr, "engine perft: %s: %v\n", path, err)
		return 2
	}

	// Results arrive one count at a time; print a position's line once its
	// last count is in, so each position reads as a single line.
	var line strings.Builder
	current, currentFEN, failed := -1, "", false
	flush := func() {
		if current < 0 {
			return
		}
		status := "ok  "
		if failed {
			status = "FAIL"
		}
		fmt.Fprintf(stdout, "%s line %3d  %s%s\n", status, current, currentFEN, line.String())
		line.Reset()
		failed = false
	}
	sum := perft.RunSuite(entries, opt, func(r perft.Result) {
		if r.Entry.Line != current {
			flush()
			current, currentFEN = r.Entry.Line, r.Entry.FEN
		}
		switch {
		case r.Err != nil:
			failed = true
			fmt.Fprintf(&line, "  error: %v", r.Err)
		case !r.OK():
			failed = true
			fmt.Fprintf(&line, "  D%d %d != %d (expected)", r.Depth, r.Got, r.Want)
		default:
			fmt.Fprintf(&line, "  D%d %d", r.Depth, r.Got)
		}
	})
	flush()
	fmt.Fprintf(stdout, "\npositions %d, counts checked %d, skipped %d, failed %d\n",
		sum.Positions, sum.Checked, sum.Skipped, sum.Failed)
	fmt.Fprintf(stdout, "Nodes searched: %d\nTime: %d ms\nNodes/second: %d\n",
		sum.Nodes, sum.Elapsed.Milliseconds(), nps(sum.Nodes, sum.Elapsed))
	if sum.Failed > 0 {
		return 1
	}
	return 0
}

func nps(nodes uint64, d time.Duration) uint64 {
	if d <= 0 {
		return 0
	}
	return uint64(float64(nodes) / d.Seconds())
}
