package bench

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/twofold-chess/twofold/board"
	"github.com/twofold-chess/twofold/mind"
	"github.com/twofold-chess/twofold/movegen"
	"github.com/twofold-chess/twofold/nnue"
	"github.com/twofold-chess/twofold/search"
	"github.com/twofold-chess/twofold/timeman"
)

// DefaultDepth is the depth "engine bench" and the UCI "bench" use.
const DefaultDepth = 11

// openings are well-known lines written as UCI moves from the start
// position; the position at the end of each is benchmarked.
var openings = []string{
	"e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 b5a4 g8f6 e1g1 f8e7 f1e1 b7b5 a4b3 d7d6 c2c3 e8g8",
	"e2e4 c7c5 g1f3 d7d6 d2d4 c5d4 f3d4 g8f6 b1c3 a7a6 c1e3 e7e5 d4b3 c8e6",
	"d2d4 g8f6 c2c4 e7e6 b1c3 f8b4 e2e3 e8g8 f1d3 d7d5 g1f3 c7c5 e1g1",
	"d2d4 d7d5 c2c4 c7c6 g1f3 g8f6 b1c3 d5c4 a2a4 c8f5 e2e3 e7e6 f1c4 f8b4",
	"e2e4 e7e6 d2d4 d7d5 b1c3 g8f6 c1g5 f8e7 e4e5 f6d7 g5e7 d8e7 f2f4",
	"e2e4 c7c6 d2d4 d7d5 e4e5 c8f5 g1f3 e7e6 f1e2 c6c5 c1e3",
	"c2c4 e7e5 b1c3 g8f6 g1f3 b8c6 g2g3 d7d5 c4d5 f6d5 f1g2 d5b6 e1g1 f8e7",
	"d2d4 g8f6 c2c4 g7g6 b1c3 f8g7 e2e4 d7d6 g1f3 e8g8 f1e2 e7e5 e1g1 b8c6 d4d5 c6e7",
	"e2e4 e7e5 g1f3 b8c6 f1c4 f8c5 c2c3 g8f6 d2d3 d7d6 e1g1 e8g8",
	"e2e4 e7e5 g1f3 g8f6 f3e5 d7d6 e5f3 f6e4 d2d4 d6d5 f1d3",
	"d2d4 d7d5 c2c4 e7e6 b1c3 g8f6 c1g5 f8e7 e2e3 e8g8 g1f3 h7h6 g5h4 b7b6",
	"e2e4 c7c5 b1c3 b8c6 g2g3 g7g6 f1g2 f8g7 d2d3 d7d6 f2f4 e7e6 g1f3 g8e7",
	"e2e4 d7d5 e4d5 d8d5 b1c3 d5a5 d2d4 g8f6 g1f3 c8f5 f1c4 e7e6 c1d2 c7c6",
	"d2d4 f7f5 g2g3 g8f6 f1g2 g7g6 g1f3 f8g7 e1g1 e8g8 c2c4 d7d6 b1c3 d8e8",
	"e2e4 e7e5 f2f4 e5f4 g1f3 g7g5 h2h4 g5g4 f3e5 g8f6",
	"g1f3 d7d5 g2g3 g8f6 f1g2 c7c6 e1g1 c8g4 d2d3 b8d7 b1d2 e7e5",
	"e2e4 c7c5 g1f3 e7e6 d2d4 c5d4 f3d4 b8c6 b1c3 d8c7 f1e2 a7a6 e1g1 g8f6",
	"d2d4 g8f6 c2c4 e7e6 g1f3 b7b6 g2g3 c8a6 b2b3 f8b4 c1d2 b4e7",
	"e2e4 g7g6 d2d4 f8g7 b1c3 d7d6 c1e3 a7a6 d1d2 b7b5 f2f3 b8d7",
	"e2e4 e7e5 g1f3 b8c6 d2d4 e5d4 f3d4 g8f6 d4c6 b7c6 e4e5 d8e7 d1e2 f6d5 c2c4",
	"d2d4 g8f6 c2c4 c7c5 d4d5 b7b5 c4b5 a7a6 b5a6 g7g6 b1c3 c8a6",
	"e2e4 c7c5 g1f3 b8c6 d2d4 c5d4 f3d4 g8f6 b1c3 e7e5 d4b5 d7d6 c1g5 a7a6 b5a3 b7b5",
	"d2d4 d7d5 c1f4 g8f6 e2e3 e7e6 g1f3 c7c5 c2c3 b8c6 b1d2 f8d6 f4g3",
	"c2c4 c7c5 g1f3 g8f6 b1c3 b8c6 g2g3 g7g6 f1g2 f8g7 e1g1 e8g8 d2d4 c5d4 f3d4",
	"e2e4 e7e5 g1f3 b8c6 f1b5 g8f6 e1g1 f6e4 d2d4 e4d6 b5c6 d7c6 d4e5 d6f5 d1d8 e8d8",
	"e2e4 c7c5 g1f3 d7d6 d2d4 c5d4 f3d4 g8f6 b1c3 g7g6 c1e3 f8g7 f2f3 e8g8 d1d2 b8c6 e1c1",
	"d2d4 g8f6 c2c4 g7g6 b1c3 d7d5 c4d5 f6d5 e2e4 d5c3 b2c3 f8g7 f1c4 c7c5 g1e2",
	"e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 b5c6 d7c6 e1g1 f7f6 d2d4 e5d4 f3d4 c6c5",
	"d2d4 d7d5 c2c4 d5c4 g1f3 g8f6 e2e3 e7e6 f1c4 c7c5 e1g1 a7a6 d1e2 b7b5 c4d3",
	"e2e4 c7c6 d2d4 d7d5 b1c3 d5e4 c3e4 c8f5 e4g3 f5g6 h2h4 h7h6 g1f3 b8d7 h4h5 g6h7",
	"c2c4 g8f6 b1c3 e7e5 g1f3 b8c6 e2e3 f8b4 d1c2 e8g8 c3d5 f8e8 c2f5",
	"e2e4 e7e5 b1c3 g8f6 f2f4 d7d5 f4e5 f6e4 g1f3 f8e7 d2d4 e8g8",
	"d2d4 e7e6 c2c4 f8b4 c1d2 a7a5 g1f3 g8f6 g2g3 d7d5 f1g2 e8g8 e1g1 b8c6",
	"e2e4 d7d6 d2d4 g8f6 b1c3 g7g6 f2f4 f8g7 g1f3 c7c5 d4c5 d8a5 f1d3 a5c5 d1e2",
}

// fens are middlegames and endgames: the chessprogramming-wiki perft
// positions and pawn endings from the classic perft suite.
var fens = []string{
	"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
	"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
	"r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
	"rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
	"r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
	"8/2k1p3/3pP3/3P2K1/8/8/8/8 w - - 0 1",
	"8/8/8/8/8/4k3/4P3/4K3 w - - 0 1",
	"8/8/3k4/3p4/8/3P4/3K4/8 w - - 0 1",
	"k7/8/3p4/8/3P4/8/8/7K w - - 0 1",
	"3k4/3pp3/8/8/8/8/3PP3/3K4 w - - 0 1",
	"8/PPPk4/8/8/8/8/4Kppp/8 w - - 0 1",
	"n1n5/PPPk4/8/8/8/8/4Kppp/5N1N w - - 0 1",
	"7k/RR6/8/8/8/8/rr6/7K w - - 0 1",
	"K7/8/8/3Q4/4q3/8/8/7k w - - 0 1",
	"8/8/4k3/3Nn3/3nN3/4K3/8/8 w - - 0 1",
	"8/8/1B6/7b/7k/8/2B1b3/7K w - - 0 1",
}

// Positions returns the benchmark positions in order (openings first).
func Positions() []*board.Position {
	var ps []*board.Position
	for _, line := range openings {
		p := board.StartPosition()
		for _, s := range strings.Fields(line) {
			m, err := movegen.ParseUCI(p, s)
			if err != nil {
				panic(fmt.Sprintf("bench: opening %q: %v", line, err)) // caught by the package tests
			}
			p.Make(m)
		}
		// Drop the history: benchmarks start from the position, not the game.
		fresh, err := board.ParseFEN(p.FEN())
		if err != nil {
			panic(err)
		}
		ps = append(ps, fresh)
	}
	for _, f := range fens {
		p, err := movegen.ParseFEN(f)
		if err != nil {
			panic(fmt.Sprintf("bench: %v", err))
		}
		ps = append(ps, p)
	}
	return ps
}

// Report is the outcome of a benchmark run.
type Report struct {
	Nodes   uint64
	Elapsed time.Duration
}

// NPS returns the nodes per second.
func (r Report) NPS() uint64 { return timeman.NPS(r.Nodes, r.Elapsed) }

// Run searches every position to depth with one thread and a fresh table,
// printing a line per position, then the totals as Stockfish does, and as
// its last line "N nodes M nps" (the OpenBench convention). The search
// evaluates with net, or with the hand-crafted evaluation when net is nil;
// a network is named on a first line (the output without one is unchanged).
// Cancelling ctx stops it within milliseconds: it then returns ctx's error
// and prints no totals (a partial signature would look like a real one).
func Run(ctx context.Context, w io.Writer, depth int, net *nnue.Network) (Report, error) {
	if net != nil {
		fmt.Fprintf(w, "Network: %s, kernel %s\n", net, net.Kernel())
	}
	// A fresh searcher a position: the signature must not depend on what
	// an earlier position left in the histories.
	newSearcher := func() *search.Searcher { return search.New(16, search.Options{Threads: 1, Network: net}) }
	return run(ctx, w, Positions(), newSearcher, search.Limits{Depth: depth}, false)
}

// The limits of SpeedConfig: the UCI options Threads and Hash allow as
// much; an hour a position is beyond any measurement's need.
const (
	MaxThreads  = 256
	MaxHashMB   = 65536
	MaxMoveTime = time.Hour
)

// SpeedConfig is a timed benchmark of the alpha-beta search: how many nodes
// a second it makes with a number of threads, not its signature.
type SpeedConfig struct {
	MoveTime  time.Duration // per position
	Threads   int           // Lazy SMP threads
	HashMB    int           // the table, emptied before each position
	Positions int           // the first this many bench positions; 0 = all
	Network   *nnue.Network // nil: the hand-crafted evaluation
}

// RunSpeed searches the bench positions for MoveTime each with Threads
// threads, as a game would (one table of HashMB megabytes, emptied with the
// histories before each position), printing a line per position with the
// depth it completed, then the totals, the mean depth, and last "N nodes M
// nps". With more than one thread the counts vary from run to run: it
// measures speed and how it scales with threads (scripts/smp-scaling.sh).
func RunSpeed(ctx context.Context, w io.Writer, c SpeedConfig) (Report, error) {
	ps := Positions()
	switch {
	case c.MoveTime <= 0 || c.MoveTime > MaxMoveTime || c.Threads < 1 || c.Threads > MaxThreads || c.HashMB < 1 || c.HashMB > MaxHashMB:
		return Report{}, fmt.Errorf("bench: want a movetime up to %v, 1 to %d threads and 1 to %d MB of hash, got %v, %d, %d",
			MaxMoveTime, MaxThreads, MaxHashMB, c.MoveTime, c.Threads, c.HashMB)
	case c.Positions < 0 || c.Positions > len(ps):
		return Report{}, fmt.Errorf("bench: positions must be from 1 to %d (0 for all), got %d", len(ps), c.Positions)
	case c.Positions > 0:
		ps = ps[:c.Positions]
	}
	net := "none (hand-crafted)"
	if c.Network != nil {
		net = fmt.Sprintf("%s, kernel %s", c.Network, c.Network.Kernel())
	}
	fmt.Fprintf(w, "Network: %s; threads %d, hash %d MB, movetime %d ms\n", net, c.Threads, c.HashMB, c.MoveTime.Milliseconds())
	s := search.New(1, search.Options{Threads: c.Threads, Network: c.Network})
	if err := s.SetHash(c.HashMB); err != nil { // a size the machine cannot hold
		return Report{}, fmt.Errorf("bench: %v", err)
	}
	newSearcher := func() *search.Searcher { s.Clear(); return s }
	return run(ctx, w, ps, newSearcher, search.Limits{MoveTime: c.MoveTime}, true)
}

// run searches each position with the searcher newSearcher gives for it,
// within lim, and prints the report (with the depths when timed).
func run(ctx context.Context, w io.Writer, ps []*board.Position, newSearcher func() *search.Searcher, lim search.Limits, timed bool) (Report, error) {
	var rep Report
	depths := 0
	for i, p := range ps {
		s := newSearcher()
		start := time.Now()
		done := make(chan mind.Result, 1)
		s.Go(p, lim, nil, func(r mind.Result) { done <- r })
		var res mind.Result
		select {
		case res = <-done:
		case <-ctx.Done():
			s.Stop()
			<-done
			return rep, ctx.Err()
		}
		el := time.Since(start)
		rep.Nodes += res.Nodes
		rep.Elapsed += el
		depths += res.Depth
		depth := ""
		if timed {
			depth = fmt.Sprintf("depth %2d  ", res.Depth)
		}
		fmt.Fprintf(w, "Position %2d/%d: %-72s bestmove %-6s %snodes %9d  %5d ms\n",
			i+1, len(ps), p.FEN(), res.Best.UCI(p.Chess960()), depth, res.Nodes, el.Milliseconds())
	}
	fmt.Fprintf(w, "\n===========================\nTotal time (ms) : %d\nNodes searched  : %d\nNodes/second    : %d\n",
		rep.Elapsed.Milliseconds(), rep.Nodes, rep.NPS())
	if timed {
		fmt.Fprintf(w, "Mean depth      : %.2f\n", float64(depths)/float64(len(ps)))
	}
	fmt.Fprintf(w, "%d nodes %d nps\n", rep.Nodes, rep.NPS())
	return rep, nil
}
