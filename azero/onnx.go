package azero

import (
	_ "embed"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"syscall"

	ort "github.com/yalue/onnxruntime_go"

	"github.com/twofold-chess/twofold/board"
)

// LibraryName is the ONNX Runtime shared library's file name.
const LibraryName = "libonnxruntime.so.1"

// LibraryEnv names the environment variable that may point at the library.
const LibraryEnv = "ONNXRUNTIME_LIB"

// The runtime is process-wide: ONNX Runtime has one environment per process,
// and it cannot be reloaded from another file while sessions exist.
var ortRuntime struct {
	sync.Mutex
	path string // the library loaded, "" before the first success
}

// LibraryCandidates lists where the library is looked for, in order: the
// explicit path (the OnnxRuntimeLib option) alone when given; otherwise
// $ONNXRUNTIME_LIB, then the install location `make` uses (lib/ beside or
// above the binary, and lib/ in the working directory or a parent of it,
// which is where `go test` finds the repository's copy).
func LibraryCandidates(explicit string) []string {
	if explicit != "" {
		return []string{explicit}
	}
	var c []string
	if env := os.Getenv(LibraryEnv); env != "" {
		c = append(c, env)
	}
	if exe, err := os.Executable(); err == nil {
		dir := filepath.Dir(exe)
		c = append(c, filepath.Join(dir, LibraryName), filepath.Join(dir, "lib", LibraryName), filepath.Join(dir, "..", "lib", LibraryName))
	}
	if wd, err := os.Getwd(); err == nil {
		for dir := wd; ; dir = filepath.Dir(dir) {
			c = append(c, filepath.Join(dir, "lib", LibraryName))
			if filepath.Dir(dir) == dir {
				break
			}
		}
	}
	return c
}

// LoadRuntime loads ONNX Runtime once per process from the first existing
// candidate (see LibraryCandidates) and returns the path it used. A later
// call is a no-op when the same (or no explicit) library is asked for.
func LoadRuntime(explicit string) (string, error) {
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

func samePath(a, b string) bool {
	ra, err1 := filepath.EvalSymlinks(a)
	rb, err2 := filepath.EvalSymlinks(b)
	return err1 == nil && err2 == nil && ra == rb || a == b
}

// defaultNetwork is the network shipped inside the binary.
//
//go:embed default.onnx
var defaultNetwork []byte

// DefaultNetworkName names the embedded network in messages.
const DefaultNetworkName = "<default>"

// Network is a policy-value network's ONNX model, checked against the
// contract in the package doc.
type Network struct {
	Name  string // the file it came from, or DefaultNetworkName
	model []byte
}

// MaxNetworkBytes is the largest network file LoadNetwork reads. The
// networks this engine trains are a few MB and Lc0's largest are some
// hundreds, so a bigger file is a mistake (a wrong path, a device such as
// /dev/zero) that would otherwise be read until memory runs out.
const MaxNetworkBytes = 512 << 20

// LoadNetwork reads and checks a network file; "" or DefaultNetworkName is
// the embedded default. The runtime must be loaded (LoadRuntime). Besides
// the tensor names and shapes it runs the network once on a few positions
// and refuses it if any output is NaN or infinite (a training run that
// diverged), so that a broken network is reported here, by name, and not
// met in the middle of a search; such an error wraps ErrNonFiniteNetwork.
// The training loop can use it as is to vet a candidate network.
func LoadNetwork(path string) (*Network, error) {
	n := &Network{Name: DefaultNetworkName, model: defaultNetwork}
	if path != "" && path != DefaultNetworkName {
		data, err := readNetworkFile(path)
		if err != nil {
			return nil, fmt.Errorf("cannot read network file: %w", err)
		}
		n = &Network{Name: path, model: data}
	}
	if err := n.check(); err != nil {
		return nil, fmt.Errorf("network %s: %w", n.Name, err)
	}
	if err := n.checkFinite(); err != nil {
		return nil, fmt.Errorf("network %s: %w", n.Name, err)
	}
	return n, nil
}

// readNetworkFile reads a regular file of at most MaxNetworkBytes. Anything
// else is refused before it is read: a FIFO or a terminal (/dev/stdin) would
// block, or swallow the UCI input, and a device may never end.
func readNetworkFile(path string) ([]byte, error) {
	st, err := os.Stat(path) // follows links: the target is what is read
	if err != nil {
		return nil, err
	}
	if err := regularAndSmall(path, st); err != nil {
		return nil, err
	}
	// O_NONBLOCK: should the path be swapped for a FIFO after the Stat,
	// opening it still returns at once (and the Stat below refuses it).
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st, err = f.Stat(); err != nil {
		return nil, err
	}
	if err := regularAndSmall(path, st); err != nil {
		return nil, err
	}
	// The limit guards against a file that grows while it is read.
	data, err := io.ReadAll(io.LimitReader(f, MaxNetworkBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxNetworkBytes {
		return nil, fmt.Errorf("%s: larger than %d MiB", path, MaxNetworkBytes>>20)
	}
	return data, nil
}

func regularAndSmall(path string, st os.FileInfo) error {
	if m := st.Mode(); !m.IsRegular() {
		what := "a special file"
		switch {
		case m.IsDir():
			what = "a directory"
		case m&os.ModeNamedPipe != 0:
			what = "a named pipe"
		case m&os.ModeDevice != 0:
			what = "a device"
		case m&os.ModeSocket != 0:
			what = "a socket"
		}
		return fmt.Errorf("%s is %s, not a regular file", path, what)
	}
	if st.Size() > MaxNetworkBytes {
		return fmt.Errorf("%s: %d bytes, larger than the %d MiB a network may have", path, st.Size(), MaxNetworkBytes>>20)
	}
	return nil
}

// finiteFixtures are the positions checkFinite runs: the start, a
// middlegame with Black to move, and a bare endgame, so that both colours'
// frames and nearly empty inputs are tried.
var finiteFixtures = []string{
	"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
	"r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R b KQ - 3 8",
	"8/5k2/8/3K4/8/8/6P1/8 w - - 12 60",
}

// ErrNonFiniteNetwork is wrapped by LoadNetwork's error for a network that
// outputs NaN or infinity (errors.Is tells it from an unreadable file), as
// a training run that diverged produces.
var ErrNonFiniteNetwork = errors.New("network outputs NaN or infinity")

// checkFinite runs the network on finiteFixtures and reports the first NaN
// or infinite logit or value.
func (n *Network) checkFinite() error {
	ev, err := NewEvaluator(n, len(finiteFixtures), 1)
	if err != nil {
		return err
	}
	defer ev.Close()
	in := make([]float32, len(finiteFixtures)*InputSize)
	for i, fen := range finiteFixtures {
		p, err := board.ParseFEN(fen)
		if err != nil {
			panic(err) // a constant above
		}
		Encode(p, in[i*InputSize:(i+1)*InputSize])
	}
	policy, value := make([]float32, len(finiteFixtures)*PolicySize), make([]float32, len(finiteFixtures))
	if err := ev.Evaluate(in, len(finiteFixtures), policy, value); err != nil {
		return fmt.Errorf("cannot run: %v", err)
	}
	for i, fen := range finiteFixtures {
		if v := value[i]; !isFinite(float64(v)) {
			return fmt.Errorf("%w: value %v for %s", ErrNonFiniteNetwork, v, fen)
		}
		for j, l := range policy[i*PolicySize : (i+1)*PolicySize] {
			if !isFinite(float64(l)) {
				return fmt.Errorf("%w: policy logit %d is %v for %s", ErrNonFiniteNetwork, j, l, fen)
			}
		}
	}
	return nil
}

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
	if err := want(ins, "planes", Planes, 8, 8); err != nil {
		return fmt.Errorf("input: %w", err)
	}
	if err := want(outs, "policy", PolicySize); err != nil {
		return fmt.Errorf("output: %w", err)
	}
	if err := want(outs, "value", 1); err != nil {
		return fmt.Errorf("output: %w", err)
	}
	return nil
}

// Evaluator runs the network on batches of encoded positions.
type Evaluator interface {
	// Evaluate runs n positions: input holds n*InputSize floats; it writes
	// n*PolicySize logits to policy and n values to value.
	Evaluate(input []float32, n int, policy, value []float32) error
	// MaxBatch is the largest n Evaluate accepts.
	MaxBatch() int
	// Close frees the evaluator's resources.
	Close() error
}

// ONNXEvaluator is one ONNX Runtime session with its tensors allocated once
// (one set per batch size, all over the same memory). It is not safe for
// concurrent use: each search thread owns one.
type ONNXEvaluator struct {
	session      *ort.DynamicAdvancedSession
	maxBatch     int
	in, pol, val []float32
	inputs, outs map[int][]ort.Value
}

// NewEvaluator opens a session on net for batches up to maxBatch, with
// intraOpThreads ONNX Runtime threads (1 is fastest when each search thread
// has its own session).
func NewEvaluator(net *Network, maxBatch, intraOpThreads int) (*ONNXEvaluator, error) {
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
		return nil, fmt.Errorf("network %s: cannot open a session: %v", net.Name, err)
	}
	maxBatch = max(maxBatch, 1)
	return &ONNXEvaluator{
		session:  s,
		maxBatch: maxBatch,
		in:       make([]float32, maxBatch*InputSize),
		pol:      make([]float32, maxBatch*PolicySize),
		val:      make([]float32, maxBatch),
		inputs:   map[int][]ort.Value{},
		outs:     map[int][]ort.Value{},
	}, nil
}

// MaxBatch implements Evaluator.
func (e *ONNXEvaluator) MaxBatch() int { return e.maxBatch }

// tensors returns the input and output tensors for batch size n, creating
// them on first use over the evaluator's fixed buffers.
func (e *ONNXEvaluator) tensors(n int) ([]ort.Value, []ort.Value, error) {
	if in, ok := e.inputs[n]; ok {
		return in, e.outs[n], nil
	}
	planes, err := ort.NewTensor(ort.NewShape(int64(n), Planes, 8, 8), e.in)
	if err != nil {
		return nil, nil, err
	}
	policy, err := ort.NewTensor(ort.NewShape(int64(n), PolicySize), e.pol)
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

// Evaluate implements Evaluator.
func (e *ONNXEvaluator) Evaluate(input []float32, n int, policy, value []float32) error {
	if n < 1 || n > e.maxBatch {
		return fmt.Errorf("batch of %d outside 1..%d", n, e.maxBatch)
	}
	in, out, err := e.tensors(n)
	if err != nil {
		return err
	}
	copy(e.in, input[:n*InputSize])
	if err := e.session.Run(in, out); err != nil {
		return err
	}
	copy(policy, e.pol[:n*PolicySize])
	copy(value, e.val[:n])
	return nil
}

// InputBuffer exposes the session's input memory so callers can encode into
// it directly and pass it back to Evaluate (the copy is then a no-op).
func (e *ONNXEvaluator) InputBuffer() []float32 { return e.in }

// Close implements Evaluator.
func (e *ONNXEvaluator) Close() error {
	for n := range e.inputs {
		for _, v := range append(e.inputs[n], e.outs[n]...) {
			v.Destroy()
		}
	}
	e.inputs, e.outs = nil, nil
	return e.session.Destroy()
}
