package onnx

import (
	"errors"
	"fmt"
	"math"

	"github.com/twofold-chess/twofold/azero"
	"github.com/twofold-chess/twofold/azero/encoding"
	"github.com/twofold-chess/twofold/board"
	"github.com/twofold-chess/twofold/internal/regularfile"
)

// DefaultNetworkName names the embedded network in messages and options.
const DefaultNetworkName = "<default>"

// Network is a policy-value network's ONNX model, checked against the
// contract. It is an azero.Backend: each evaluator it makes is a session of
// its own with one intra-op thread (the fastest when every search thread
// or self-play worker has its own).
type Network struct {
	name    string // the file it came from, or DefaultNetworkName
	model   []byte
	runtime string // the ONNX Runtime library Open loaded
}

// Open loads ONNX Runtime from lib ("" = the usual places, see
// LibraryCandidates; the library is loaded once per process) and then the
// network file ("" or DefaultNetworkName = the embedded network), which it
// reads and vets as loadNetwork says: a file that cannot be used is
// refused here, by name, not in the middle of a search; a network with NaN
// or infinite outputs is refused with an error that wraps
// ErrNonFiniteNetwork (the training loop vets its candidates so). It is
// the one way the engine, the web board, self-play, the ladder, bench and
// training open a network. A build without cgo returns ErrNotInBuild.
func Open(lib, network string) (*Network, error) {
	path, err := loadRuntime(lib)
	if err != nil {
		return nil, err
	}
	n, err := loadNetwork(network)
	if err != nil {
		return nil, err
	}
	n.runtime = path
	return n, nil
}

// Name is the file the network came from, or DefaultNetworkName.
func (n *Network) Name() string { return n.name }

// Runtime is the ONNX Runtime library the network runs on.
func (n *Network) Runtime() string { return n.runtime }

// Model is the network's ONNX file as read (the embedded bytes for the
// default network); the caller must not modify it.
func (n *Network) Model() []byte { return n.model }

// NewEvaluator implements azero.Backend.
func (n *Network) NewEvaluator(maxBatch int) (azero.Evaluator, error) {
	s, err := NewSession(n, maxBatch, 1)
	if err != nil {
		return nil, err // not a typed nil inside the interface
	}
	return s, nil
}

// MaxNetworkBytes is the largest network file loadNetwork reads. The
// networks this engine trains are a few MB and Lc0's largest are some
// hundreds, so a bigger file is a mistake (a wrong path, a device such as
// /dev/zero) that would otherwise be read until memory runs out.
const MaxNetworkBytes = 512 << 20

// loadNetwork reads and checks a network file; "" or DefaultNetworkName is
// the embedded default. The runtime must be loaded (loadRuntime). Besides
// the tensor names and shapes it runs the network once on a few positions
// and refuses it if any output is NaN or infinite (a training run that
// diverged), so that a broken network is reported here, by name, and not
// met in the middle of a search; such an error wraps ErrNonFiniteNetwork.
func loadNetwork(path string) (*Network, error) {
	n := &Network{name: DefaultNetworkName, model: defaultNetwork}
	if path != "" && path != DefaultNetworkName {
		data, err := regularfile.Read(path, MaxNetworkBytes, "a network")
		if err != nil {
			return nil, fmt.Errorf("cannot read network file: %w", err)
		}
		n = &Network{name: path, model: data}
	}
	if err := n.check(); err != nil {
		return nil, fmt.Errorf("network %s: %w", n.name, err)
	}
	if err := n.checkFinite(); err != nil {
		return nil, fmt.Errorf("network %s: %w", n.name, err)
	}
	return n, nil
}

// finiteFixtures are the positions checkFinite runs: the start, a
// middlegame with Black to move, and a bare endgame, so that both colours'
// frames and nearly empty inputs are tried.
var finiteFixtures = []string{
	"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
	"r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R b KQ - 3 8",
	"8/5k2/8/3K4/8/8/6P1/8 w - - 12 60",
}

// ErrNonFiniteNetwork is wrapped by Open's error for a network that outputs
// NaN or infinity (errors.Is tells it from an unreadable file), as a
// training run that diverged produces.
var ErrNonFiniteNetwork = errors.New("network outputs NaN or infinity")

// checkFinite runs the network on finiteFixtures and reports the first NaN
// or infinite logit or value.
func (n *Network) checkFinite() error {
	ev, err := NewSession(n, len(finiteFixtures), 1)
	if err != nil {
		return err
	}
	defer ev.Close()
	in := make([]float32, len(finiteFixtures)*encoding.InputSize)
	for i, fen := range finiteFixtures {
		p, err := board.ParseFEN(fen)
		if err != nil {
			panic(err) // a constant above
		}
		encoding.Encode(p, in[i*encoding.InputSize:(i+1)*encoding.InputSize])
	}
	policy, value := make([]float32, len(finiteFixtures)*encoding.PolicySize), make([]float32, len(finiteFixtures))
	if err := ev.Evaluate(in, len(finiteFixtures), policy, value); err != nil {
		return fmt.Errorf("cannot run: %v", err)
	}
	for i, fen := range finiteFixtures {
		if v := value[i]; !isFinite(v) {
			return fmt.Errorf("%w: value %v for %s", ErrNonFiniteNetwork, v, fen)
		}
		for j, l := range policy[i*encoding.PolicySize : (i+1)*encoding.PolicySize] {
			if !isFinite(l) {
				return fmt.Errorf("%w: policy logit %d is %v for %s", ErrNonFiniteNetwork, j, l, fen)
			}
		}
	}
	return nil
}

func isFinite(x float32) bool { return !math.IsNaN(float64(x)) && !math.IsInf(float64(x), 0) }
