package azero

import (
	"fmt"
	"sync/atomic"
	"time"

	"github.com/twofold-chess/twofold/azero/encoding"
)

// Evaluator runs the network on batches of encoded positions (the contract
// in the package doc). One evaluator serves one search thread or self-play
// worker at a time.
type Evaluator interface {
	// Evaluate runs n positions: input holds n*InputSize floats; it writes
	// n*PolicySize logits to policy and n values to value.
	Evaluate(input []float32, n int, policy, value []float32) error
	// MaxBatch is the largest n Evaluate accepts.
	MaxBatch() int
	// Close frees the evaluator's resources.
	Close() error
}

// Backend makes evaluators of one network: the searcher asks for one per
// thread, self-play for one per worker, a ladder player for one. It is the
// single way the MCTS side gets a network: ONNX Runtime's sessions (package
// azero/onnx) are one backend, Uniform another; a second real backend (a
// GPU execution provider, or one session batching for several workers)
// plugs in here without the searcher, self-play, ladder or bench knowing.
type Backend interface {
	// NewEvaluator returns an evaluator for batches of up to maxBatch.
	NewEvaluator(maxBatch int) (Evaluator, error)
}

// BackendFunc adapts a function to Backend.
type BackendFunc func(maxBatch int) (Evaluator, error)

// NewEvaluator implements Backend.
func (f BackendFunc) NewEvaluator(maxBatch int) (Evaluator, error) { return f(maxBatch) }

// Uniform is a network that knows nothing: equal logits for every move and
// value 0 for every position. With it the search is driven by the tree
// alone (terminal positions, proven mates, visit counts), which is what
// tests of the search logic and of self-play want, with no ONNX Runtime;
// bench uses it to measure the tree's own cost. Safe for concurrent use.
type Uniform struct {
	// Delay is slept per batch, to stand in for a real network's time.
	Delay time.Duration
	// Batches counts the batches evaluated.
	Batches atomic.Int64
}

// NewEvaluator implements Backend.
func (u *Uniform) NewEvaluator(maxBatch int) (Evaluator, error) {
	return &uniformEvaluator{u: u, max: max(maxBatch, 1)}, nil
}

type uniformEvaluator struct {
	u   *Uniform
	max int
}

func (e *uniformEvaluator) Evaluate(input []float32, n int, policy, value []float32) error {
	if n < 1 || n > e.max {
		return fmt.Errorf("batch of %d outside 1..%d", n, e.max)
	}
	e.u.Batches.Add(1)
	clear(policy[:n*encoding.PolicySize])
	clear(value[:n])
	if e.u.Delay > 0 {
		time.Sleep(e.u.Delay)
	}
	return nil
}

func (e *uniformEvaluator) MaxBatch() int { return e.max }
func (e *uniformEvaluator) Close() error  { return nil }
