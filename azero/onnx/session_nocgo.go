//go:build !cgo

// Without cgo the ONNX Runtime binding cannot be compiled, so this file
// stands in for session.go: the same names, each failing with
// ErrNotInBuild, so that the rest of the package and its callers compile
// unchanged in an AlphaBeta-only engine.

package onnx

// Supported reports whether this build can load ONNX Runtime (and so
// run the MCTS searcher, self-play and training).
const Supported = false

// defaultNetwork is left out: it could never run here, and it is half a
// megabyte of the binary.
var defaultNetwork []byte

// loadRuntime returns ErrNotInBuild.
func loadRuntime(explicit string) (string, error) { return "", ErrNotInBuild }

func (n *Network) check() error { return ErrNotInBuild }

// Session stands for an ONNX Runtime session; none can be made in this build.
type Session struct{}

// NewSession returns ErrNotInBuild.
func NewSession(net *Network, maxBatch, intraOpThreads int) (*Session, error) {
	return nil, ErrNotInBuild
}

// Evaluate implements azero.Evaluator.
func (e *Session) Evaluate(input []float32, n int, policy, value []float32) error {
	return ErrNotInBuild
}

// MaxBatch implements azero.Evaluator.
func (e *Session) MaxBatch() int { return 1 }

// Close implements azero.Evaluator.
func (e *Session) Close() error { return nil }
