package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"runtime/pprof"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/twofold-chess/twofold/azero"
	"github.com/twofold-chess/twofold/azero/onnx"
	"github.com/twofold-chess/twofold/bench"
	"github.com/twofold-chess/twofold/nnue"
)

const benchHelp = `Usage: engine bench [--depth N] [--network FILE]
       engine bench --movetime MS [--threads T] [--hash MB] [--positions N] [--network FILE]
       engine bench --search mcts [--movetime MS] [--positions N] [--threads T] [--batch B] [--network FILE]

Searches a fixed list of positions to a fixed depth with one thread and a
fresh 16 MB hash table. The total node count is deterministic: it is the
signature of the search, quoted in commits that change the search. The last
line reads "N nodes M nps" (the OpenBench convention).

--network names the network of the searcher measured. For the alpha-beta
searcher it is an NNUE file (the UCI option EvalFile), by default the one
embedded in the binary, named on a first line with the kernel it runs on;
--network none searches with the hand-crafted evaluation (no first line).
For --search mcts it is an ONNX network (the UCI option NetworkFile).

With --search mcts it measures the MCTS searcher instead: the raw ONNX
Runtime evaluation rate of the network at batch 1, 8, 16 and 32 (one
session, one thread), then MCTS playouts per second over the first
--positions bench positions at --movetime each, and the share of the raw
rate the search keeps. Playouts are the "nodes" of the last line.

With --movetime (and --search alphabeta) it measures speed instead of the
signature: each of the first --positions bench positions (all by default)
is searched for --movetime with --threads Lazy SMP threads and one --hash
table, emptied before each position as a new game would. Lines give the
depth each search completed; the totals add the mean depth. The counts vary
from run to run with more than one thread; scripts/smp-scaling.sh compares
thread counts with it.

Flags:
`

func runBench(args []string, stdout, stderr io.Writer) int {
	fs := pflag.NewFlagSet("bench", pflag.ContinueOnError)
	depth := fs.IntP("depth", "d", bench.DefaultDepth, "search depth in plies")
	mode := fs.String("search", "alphabeta", "searcher to measure: alphabeta or mcts")
	moveTime := fs.Int("movetime", 10000, "milliseconds per position (mcts: default 10000; alphabeta: the speed bench)")
	positions := fs.Int("positions", 1, "how many bench positions to search, from the first (mcts: default 1; alphabeta: all)")
	threads := fs.Int("threads", 1, "search threads (alphabeta: with --movetime)")
	hash := fs.Int("hash", 16, "alphabeta: the table's megabytes, with --movetime")
	batch := fs.Int("batch", azero.DefaultOptions.BatchSize, "mcts: leaves per network run")
	network := fs.String("network", "", "alphabeta: NNUE network file, or none for the hand-crafted evaluation (default: the embedded one);\nmcts: ONNX network file (default: the embedded one)")
	ortLib := fs.String("onnxruntime", "", "mcts: path of "+onnx.LibraryName+" (default: $"+onnx.LibraryEnv+", then lib/)")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the run to this file (for go tool pprof, or a PGO build)")
	if done, code := parseFlags(fs, args, benchHelp, stdout, stderr); done {
		return code
	}
	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err != nil {
			fmt.Fprintln(stderr, "engine bench:", err)
			return 1
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			fmt.Fprintln(stderr, "engine bench:", err)
			return 1
		}
		defer pprof.StopCPUProfile()
	}
	// OpenBench and fastchess call "engine bench" with a positional depth.
	if fs.NArg() == 1 {
		d, err := strconv.Atoi(fs.Arg(0))
		if err != nil {
			fmt.Fprintf(stderr, "engine bench: unexpected argument %q (a depth?)\n", fs.Arg(0))
			return 2
		}
		*depth = d
	} else if fs.NArg() > 1 {
		fmt.Fprintf(stderr, "engine bench: unexpected arguments %q\n", fs.Args())
		return 2
	}
	if *depth < 1 || *depth > 60 {
		fmt.Fprintf(stderr, "engine bench: --depth must be between 1 and 60, got %d\n", *depth)
		return 2
	}
	mcts := *mode == "mcts" || *mode == "MCTS"
	if !mcts && *mode != "alphabeta" && *mode != "AlphaBeta" {
		fmt.Fprintf(stderr, "engine bench: --search wants alphabeta or mcts, got %q\n", *mode)
		return 2
	}
	// A flag of the other searcher (or of the speed bench without
	// --movetime) would be ignored: say so rather than measure something
	// else than was asked.
	speed := !mcts && fs.Changed("movetime")
	other := []string{"positions", "threads", "hash", "batch", "onnxruntime"}
	switch {
	case mcts:
		other = []string{"depth", "hash"}
	case speed:
		other = []string{"depth", "batch", "onnxruntime"}
	}
	for _, name := range other {
		if fs.Changed(name) || (name == "depth" && fs.NArg() == 1) {
			why := "does not apply to --search " + *mode
			switch {
			case speed:
				why = "does not apply to the speed bench (--movetime)"
			case !mcts && name != "batch" && name != "onnxruntime":
				why = "needs --movetime: the depth bench is the one-thread signature"
			}
			fmt.Fprintf(stderr, "engine bench: --%s %s (see engine bench --help)\n", name, why)
			return 2
		}
	}
	if *moveTime > int(bench.MaxMoveTime/time.Millisecond) { // before it can overflow a Duration
		fmt.Fprintf(stderr, "engine bench: --movetime is at most %d (an hour), got %d\n", bench.MaxMoveTime/time.Millisecond, *moveTime)
		return 2
	}
	if !mcts {
		net, err := loadNNUE(*network)
		if err != nil {
			fmt.Fprintln(stderr, "engine bench:", err)
			return 1
		}
		if !speed {
			bench.Run(context.Background(), stdout, *depth, net) // cannot fail: nothing cancels it
			return 0
		}
		n := 0 // all
		if fs.Changed("positions") {
			n = *positions
		}
		if *moveTime < 1 || *threads < 1 || *hash < 1 || *positions < 1 {
			fmt.Fprintln(stderr, "engine bench: --movetime, --positions, --threads and --hash must be positive")
			return 2
		}
		if _, err := bench.RunSpeed(context.Background(), stdout, bench.SpeedConfig{
			MoveTime: time.Duration(*moveTime) * time.Millisecond, Threads: *threads, HashMB: *hash, Positions: n, Network: net,
		}); err != nil {
			fmt.Fprintln(stderr, "engine", err) // "engine bench: ..."
			return 2
		}
		return 0
	}
	if *moveTime < 1 || *threads < 1 || *batch < 1 || *positions < 1 {
		fmt.Fprintln(stderr, "engine bench: --movetime, --positions, --threads and --batch must be positive")
		return 2
	}
	net, err := onnx.Open(*ortLib, *network)
	if err != nil {
		fmt.Fprintln(stderr, "engine bench:", err)
		return 1
	}
	_, err = bench.RunMCTS(stdout, bench.MCTSConfig{
		Backend: net, Name: net.Name(), MoveTime: time.Duration(*moveTime) * time.Millisecond, Positions: *positions,
		Threads: *threads, BatchSize: *batch, Batches: []int{1, 8, 16, 32}, EvalTime: 2 * time.Second,
	})
	if err != nil {
		fmt.Fprintln(stderr, "engine bench:", err)
		return 1
	}
	return 0
}

// loadNNUE resolves an alpha-beta --network flag: empty or "default" is the
// embedded network, "none" the hand-crafted evaluation (nil), anything
// else a network file.
func loadNNUE(name string) (*nnue.Network, error) {
	switch strings.ToLower(name) {
	case "", "default", strings.ToLower(nnue.DefaultName):
		return nnue.Default(), nil
	case "none":
		return nil, nil
	}
	return nnue.Load(name)
}
