package azero

import (
	"errors"
	"fmt"
	"io"
	"os"
	"syscall"

	"github.com/twofold-chess/twofold/board"
)

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
