package bench

import (
	"fmt"
	"io"
	"time"

	"github.com/twofold-chess/twofold/azero"
	"github.com/twofold-chess/twofold/azero/encoding"
	"github.com/twofold-chess/twofold/timeman"
)

// MCTSConfig says how to benchmark the MCTS searcher.
type MCTSConfig struct {
	Backend   azero.Backend // the network's evaluators
	Name      string        // the network's name, for the report
	MoveTime  time.Duration // per position searched
	Positions int           // how many bench positions to search (from the first)
	Threads   int
	BatchSize int
	Batches   []int         // batch sizes for the raw evaluator rate
	EvalTime  time.Duration // per raw batch size
}

// MCTSReport is the outcome of RunMCTS.
type MCTSReport struct {
	RawRate  map[int]float64 // evaluations per second by batch size, one thread
	Playouts uint64
	Evals    uint64
	Elapsed  time.Duration
}

// PlayoutRate is the MCTS playouts per second.
func (r MCTSReport) PlayoutRate() float64 { return float64(r.Playouts) / r.Elapsed.Seconds() }

// EvalRate is the network evaluations per second inside the search.
func (r MCTSReport) EvalRate() float64 { return float64(r.Evals) / r.Elapsed.Seconds() }

// RunMCTS measures the raw evaluation rate of the backend at each batch
// size (one evaluator, which for ONNX Runtime is one session with one
// intra-op thread; bench positions as input), then MCTS playouts per second under a movetime, and prints both
// with their ratio: the share of the raw rate the search keeps is what the
// tree costs. The last line reads "N nodes M nps" with playouts as nodes.
func RunMCTS(w io.Writer, cfg MCTSConfig) (MCTSReport, error) {
	rep := MCTSReport{RawRate: map[int]float64{}}
	positions := Positions()
	fmt.Fprintf(w, "network %s\n", cfg.Name)
	for _, b := range cfg.Batches {
		ev, err := cfg.Backend.NewEvaluator(b)
		if err != nil {
			return rep, err
		}
		in := make([]float32, b*encoding.InputSize)
		for i := range b {
			encoding.Encode(positions[i%len(positions)], in[i*encoding.InputSize:])
		}
		pol, val := make([]float32, b*encoding.PolicySize), make([]float32, b)
		for range 3 { // warm-up: the first runs allocate and plan
			if err := ev.Evaluate(in, b, pol, val); err != nil {
				ev.Close()
				return rep, err
			}
		}
		runs, start := 0, time.Now()
		for time.Since(start) < cfg.EvalTime || runs < 3 {
			if err := ev.Evaluate(in, b, pol, val); err != nil {
				ev.Close()
				return rep, err
			}
			runs++
		}
		rate := float64(runs*b) / time.Since(start).Seconds()
		ev.Close()
		rep.RawRate[b] = rate
		fmt.Fprintf(w, "evaluator batch %3d: %8.0f evals/s\n", b, rate)
	}

	opts := azero.DefaultOptions
	opts.Threads, opts.BatchSize = cfg.Threads, cfg.BatchSize
	s, err := azero.Open(cfg.Backend, opts)
	if err != nil {
		return rep, err
	}
	defer s.Close()
	n := max(1, min(cfg.Positions, len(positions)))
	for i, p := range positions[:n] {
		s.Clear()
		start := time.Now()
		res := s.Search(p, timeman.Limits{MoveTime: cfg.MoveTime}, nil)
		el := time.Since(start)
		if res.Err != nil {
			return rep, res.Err
		}
		rep.Playouts += res.Nodes
		rep.Evals += res.Evals
		rep.Elapsed += el
		fmt.Fprintf(w, "Position %2d/%d: %-72s bestmove %-6s playouts %8d evals %8d %6d ms\n",
			i+1, n, p.FEN(), res.Best.UCI(p.Chess960()), res.Nodes, res.Evals, el.Milliseconds())
	}
	fmt.Fprintf(w, "\nMCTS threads %d batch %d: %.0f playouts/s, %.0f network evals/s", cfg.Threads, cfg.BatchSize, rep.PlayoutRate(), rep.EvalRate())
	if raw, ok := rep.RawRate[cfg.BatchSize]; ok && cfg.Threads == 1 {
		fmt.Fprintf(w, " = %.1f%% / %.1f%% of the raw rate at batch %d", 100*rep.PlayoutRate()/raw, 100*rep.EvalRate()/raw, cfg.BatchSize)
	}
	fmt.Fprintf(w, "\n%d nodes %d nps\n", rep.Playouts, uint64(rep.PlayoutRate()))
	return rep, nil
}
