//go:build !cgo

// Without cgo the ONNX Runtime binding cannot be compiled, so this file
// stands in for onnx.go: the same names, each failing with ErrNotInBuild,
// so that everything else in the package (tree, encoding, chunks, self-play
// logic) and its callers compile unchanged in an AlphaBeta-only engine.

package azero

// RuntimeSupported reports whether this build can load ONNX Runtime (and so
// run the MCTS searcher, self-play and training).
const RuntimeSupported = false

// defaultNetwork is left out: it could never run here, and it is half a
// megabyte of the binary.
var defaultNetwork []byte

// LoadRuntime returns ErrNotInBuild.
func LoadRuntime(explicit string) (string, error) { return "", ErrNotInBuild }

func (n *Network) check() error { return ErrNotInBuild }

// ONNXEvaluator has no session in this build; none can be made.
type ONNXEvaluator struct{}

// NewEvaluator returns ErrNotInBuild.
func NewEvaluator(net *Network, maxBatch, intraOpThreads int) (*ONNXEvaluator, error) {
	return nil, ErrNotInBuild
}

// Evaluate implements Evaluator.
func (e *ONNXEvaluator) Evaluate(input []float32, n int, policy, value []float32) error {
	return ErrNotInBuild
}

// MaxBatch implements Evaluator.
func (e *ONNXEvaluator) MaxBatch() int { return 1 }

// Close implements Evaluator.
func (e *ONNXEvaluator) Close() error { return nil }
