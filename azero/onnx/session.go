//go:build cgo

// The ONNX Runtime binding needs cgo on every OS (dlopen elsewhere,
// LoadLibrary on Windows, both through its C wrapper); session_nocgo.go stands
// in for this file in the other builds.

package onnx

import (
	_ "embed"
	"errors"
	"fmt"
	"os"
	"sync"

	ort "github.com/yalue/onnxruntime_go"

	"github.com/twofold-chess/twofold/azero/encoding"
)

// Supported reports whether this build can load ONNX Runtime (and so
// run the MCTS searcher, self-play and training).
const Supported = true

// The runtime is process-wide: ONNX Runtime has one environment per process,
// and it cannot be reloaded from another file while sessions exist.
var ortRuntime struct {
	sync.Mutex
	path string // the library loaded, "" before the first success
}

// loadRuntime loads ONNX Runtime once per process from the first existing
// candidate (see LibraryCandidates) and returns the path it used. A later
// call is a no-op when the same (or no explicit) library is asked for.
func loadRuntime(explicit string) (string, error) {
	ortRuntime.Lock()
	defer ortRuntime.Unlock()
	if ortRuntime.path != "" {
		if explicit != "" && !samePath(explicit, ortRuntime.path) {
			return ortRuntime.path, fmt.Errorf("ONNX Runtime is already loaded from %s; restart the engine to use %s", ortRuntime.path, explicit)
		}
		return ortRuntime.path, nil
	}
	candidates := LibraryCandidates(explicit)
	path := ""
	for _, c := range candidates {
		if st, err := os.Stat(c); err == nil && !st.IsDir() {
			path = c
			break
		}
	}
	if path == "" {
		return "", fmt.Errorf("ONNX Runtime library %s not found (tried %v); run `make` to install it into lib/, or set the OnnxRuntimeLib option or $%s", LibraryName, candidates, LibraryEnv)
	}
	ort.SetSharedLibraryPath(path)
	if err := ort.InitializeEnvironment(ort.WithLogLevelError()); err != nil {
		return "", fmt.Errorf("cannot load ONNX Runtime from %s: %v", path, err)
	}
	ortRuntime.path = path
	return path, nil
}

// defaultNetwork is the network shipped inside the binary.
//
//go:embed default.onnx
var defaultNetwork []byte

// check verifies the model parses and has the contract's names and shapes.
func (n *Network) check() error {
	if len(n.model) == 0 {
		return errors.New("empty file")
	}
	ins, outs, err := ort.GetInputOutputInfoWithONNXData(n.model)
	if err != nil {
		return fmt.Errorf("not a loadable ONNX model: %v", err)
	}
	want := func(infos []ort.InputOutputInfo, name string, dims ...int64) error {
		for _, info := range infos {
			if info.Name != name {
				continue
			}
			if info.DataType != ort.TensorElementDataTypeFloat {
				return fmt.Errorf("%q is %v, want float32", name, info.DataType)
			}
			shape := info.Dimensions
			ok := len(shape) == len(dims)+1
			for i := 0; ok && i < len(dims); i++ {
				ok = shape[i+1] == dims[i]
			}
			if !ok {
				return fmt.Errorf("%q has shape %v, want [batch %v]", name, shape, dims)
			}
			return nil
		}
		return fmt.Errorf("no tensor named %q", name)
	}
	if err := want(ins, "planes", encoding.Planes, 8, 8); err != nil {
		return fmt.Errorf("input: %w", err)
	}
	if err := want(outs, "policy", encoding.PolicySize); err != nil {
		return fmt.Errorf("output: %w", err)
	}
	if err := want(outs, "value", 1); err != nil {
		return fmt.Errorf("output: %w", err)
	}
	return nil
}

// Session is one ONNX Runtime session with its tensors allocated once
// (one set per batch size, all over the same memory): an azero.Evaluator.
// It is not safe for concurrent use: each search thread owns one.
type Session struct {
	session      *ort.DynamicAdvancedSession
	maxBatch     int
	in, pol, val []float32
	inputs, outs map[int][]ort.Value
}

// NewSession opens a session on net for batches up to maxBatch, with
// intraOpThreads ONNX Runtime threads (1 is fastest when each search thread
// has its own session).
func NewSession(net *Network, maxBatch, intraOpThreads int) (*Session, error) {
	opts, err := ort.NewSessionOptions()
	if err != nil {
		return nil, err
	}
	defer opts.Destroy()
	if err := opts.SetIntraOpNumThreads(max(intraOpThreads, 1)); err != nil {
		return nil, err
	}
	if err := opts.SetInterOpNumThreads(1); err != nil {
		return nil, err
	}
	s, err := ort.NewDynamicAdvancedSessionWithONNXData(net.model, []string{"planes"}, []string{"policy", "value"}, opts)
	if err != nil {
		return nil, fmt.Errorf("network %s: cannot open a session: %v", net.name, err)
	}
	maxBatch = max(maxBatch, 1)
	return &Session{
		session:  s,
		maxBatch: maxBatch,
		in:       make([]float32, maxBatch*encoding.InputSize),
		pol:      make([]float32, maxBatch*encoding.PolicySize),
		val:      make([]float32, maxBatch),
		inputs:   map[int][]ort.Value{},
		outs:     map[int][]ort.Value{},
	}, nil
}

// MaxBatch implements azero.Evaluator.
func (e *Session) MaxBatch() int { return e.maxBatch }

// tensors returns the input and output tensors for batch size n, creating
// them on first use over the evaluator's fixed buffers.
func (e *Session) tensors(n int) ([]ort.Value, []ort.Value, error) {
	if in, ok := e.inputs[n]; ok {
		return in, e.outs[n], nil
	}
	planes, err := ort.NewTensor(ort.NewShape(int64(n), encoding.Planes, 8, 8), e.in)
	if err != nil {
		return nil, nil, err
	}
	policy, err := ort.NewTensor(ort.NewShape(int64(n), encoding.PolicySize), e.pol)
	if err != nil {
		planes.Destroy()
		return nil, nil, err
	}
	value, err := ort.NewTensor(ort.NewShape(int64(n), 1), e.val)
	if err != nil {
		planes.Destroy()
		policy.Destroy()
		return nil, nil, err
	}
	e.inputs[n] = []ort.Value{planes}
	e.outs[n] = []ort.Value{policy, value}
	return e.inputs[n], e.outs[n], nil
}

// Evaluate implements azero.Evaluator.
func (e *Session) Evaluate(input []float32, n int, policy, value []float32) error {
	if n < 1 || n > e.maxBatch {
		return fmt.Errorf("batch of %d outside 1..%d", n, e.maxBatch)
	}
	in, out, err := e.tensors(n)
	if err != nil {
		return err
	}
	copy(e.in, input[:n*encoding.InputSize])
	if err := e.session.Run(in, out); err != nil {
		return err
	}
	copy(policy, e.pol[:n*encoding.PolicySize])
	copy(value, e.val[:n])
	return nil
}

// InputBuffer exposes the session's input memory so callers can encode into
// it directly and pass it back to Evaluate (the copy is then a no-op).
func (e *Session) InputBuffer() []float32 { return e.in }

// Close implements azero.Evaluator.
func (e *Session) Close() error {
	for n := range e.inputs {
		for _, v := range append(e.inputs[n], e.outs[n]...) {
			v.Destroy()
		}
	}
	e.inputs, e.outs = nil, nil
	return e.session.Destroy()
}
