package uci

import (
	"fmt"
	"strings"

	"github.com/twofold-chess/twofold/azero"
	"github.com/twofold-chess/twofold/azero/onnx"
	"github.com/twofold-chess/twofold/mind"
)

// The MCTS searcher: enabled by "setoption name Search value MCTS". Loading
// ONNX Runtime or the network can fail (missing library, bad file, a build
// without cgo); the engine then says why and goes on with AlphaBeta, and
// says so again at every "go" until MCTS loads or AlphaBeta is chosen.

// mctsState is the MCTS searcher and the options that shape it.
type mctsState struct {
	requested   bool          // Search is MCTS, whether or not it loaded
	unavailable error         // why a requested MCTS is not searching
	searcher    mind.Searcher // the loaded searcher; nil when AlphaBeta plays
	// settings are MCTS's own options (package azero declares them); they
	// keep their values while no searcher is loaded.
	settings    *azero.Settings
	networkFile string
	ortLib      string
	// load gets the network's backend from OnnxRuntimeLib and NetworkFile
	// and says what it loaded: loadONNX, or in tests a stand-in.
	load func(lib, network string) (azero.Backend, string, error)
}

// loadONNX is how MCTS gets its network: onnx.Open, ONNX Runtime from lib
// ("" = the usual places), then the network file. It also says what it
// loaded.
func loadONNX(lib, network string) (azero.Backend, string, error) {
	net, err := onnx.Open(lib, network)
	if err != nil {
		return nil, "", err
	}
	return net, fmt.Sprintf("network %s (ONNX Runtime %s)", net.Name(), net.Runtime()), nil
}

// enableMCTS loads the network and builds the searcher (closing the one
// built before).
func (e *Engine) enableMCTS() error {
	b, loaded, err := e.mcts.load(e.mcts.ortLib, e.mcts.networkFile)
	if err != nil {
		return err
	}
	s, err := e.mcts.settings.Open(b, e.shared)
	if err != nil {
		return err
	}
	e.mcts.searcher = s
	e.send("info string MCTS with %s", loaded)
	return nil
}

// disableMCTS closes the MCTS searcher: its sessions and tree are freed,
// and choosing MCTS again loads it anew.
func (e *Engine) disableMCTS() {
	e.mcts.settings.Close()
	e.mcts.searcher = nil
}

// reloadMCTS applies a network or library change when MCTS is requested:
// it also retries a load that failed, so that fixing NetworkFile or
// OnnxRuntimeLib after "Search MCTS" is enough. After a failure AlphaBeta
// searches.
func (e *Engine) reloadMCTS() error {
	if !e.mcts.requested {
		return nil
	}
	if err := e.enableMCTS(); err != nil {
		e.disableMCTS()
		e.mcts.unavailable = err
		return fmt.Errorf("%v; searching with AlphaBeta", err)
	}
	e.mcts.unavailable = nil
	return nil
}

// searchOption is the Search combo. A build without cgo declares only
// AlphaBeta, so a GUI never offers the searcher that is missing; "MCTS" is
// still accepted on setoption so that the answer says why.
func (e *Engine) searchOption() *option {
	o := &option{Option: mind.Option{Name: "Search", Kind: mind.Combo, Default: "AlphaBeta", Vars: []string{"AlphaBeta", "MCTS"}, Set: func(v string) error {
		e.mcts.requested = v == "MCTS"
		if !e.mcts.requested {
			e.disableMCTS()
			e.mcts.unavailable = nil
			return nil
		}
		if err := e.reloadMCTS(); err != nil {
			return fmt.Errorf("Search MCTS unavailable: %v", err)
		}
		return nil
	}}}
	if !onnx.Supported {
		o.Vars, o.unlisted = []string{"AlphaBeta"}, []string{"MCTS"}
	}
	return o
}

// noteMCTSFallback repeats, at each "go", why a requested MCTS is not the
// searcher playing. The setoption answer alone is not enough: GUIs show
// little outside a search (polyglot, for xboard, drops an info string then
// but passes one on during a search as a line of thinking output), so a
// user who chose MCTS would see AlphaBeta's lines with no word of the
// switch. The note is a line of its own, not a "string" after each PV:
// many GUIs read a PV to the end of the line and would drop the whole line.
func (e *Engine) noteMCTSFallback() {
	if e.mcts.requested && e.mcts.searcher == nil {
		e.send("info string Search is MCTS but AlphaBeta is playing: %v", e.mcts.unavailable)
	}
}

// mctsOptionList declares the MCTS options: the network's (which the loop
// loads) and the searcher's own. A build without ONNX Runtime has none, as
// they could change nothing there.
func (e *Engine) mctsOptionList() []*option {
	if !onnx.Supported {
		return nil
	}
	return append([]*option{
		{Option: mind.Option{Name: "NetworkFile", Kind: mind.String, Default: onnx.DefaultNetworkName, Set: func(v string) error {
			if strings.TrimSpace(v) == "" {
				v = onnx.DefaultNetworkName
			}
			e.mcts.networkFile = v
			return e.reloadMCTS()
		}}},
		{Option: mind.Option{Name: "OnnxRuntimeLib", Kind: mind.String, Default: "", Set: func(v string) error {
			e.mcts.ortLib = strings.TrimSpace(v)
			return e.reloadMCTS()
		}}},
	}, declared(e.mcts.settings.Declare()...)...)
}
