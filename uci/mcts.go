package uci

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/twofold-chess/twofold/azero"
	"github.com/twofold-chess/twofold/azero/onnx"
	"github.com/twofold-chess/twofold/sysmem"
)

// The MCTS mind: enabled by "setoption name Search value MCTS". Loading
// ONNX Runtime or the network can fail (missing library, bad file, a build
// without cgo); the engine then says why and goes on with AlphaBeta, and
// says so again at every "go" until MCTS loads or AlphaBeta is chosen.

// mctsState is the MCTS mind and the options that shape it.
type mctsState struct {
	requested   bool            // Search is MCTS, whether or not it loaded
	unavailable error           // why a requested MCTS is not searching
	mind        *azero.Searcher // the loaded searcher; nil when AlphaBeta plays
	opts        azero.Options
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

// enableMCTS loads the network and builds the searcher.
func (e *Engine) enableMCTS() error {
	b, loaded, err := e.mcts.load(e.mcts.ortLib, e.mcts.networkFile)
	if err != nil {
		return err
	}
	s, err := azero.Open(b, e.mctsOptions())
	if err != nil {
		return err
	}
	if e.mcts.mind != nil {
		e.mcts.mind.Close()
	}
	e.mcts.mind = s
	e.send("info string MCTS with %s", loaded)
	return nil
}

// disableMCTS falls back to the classical searcher after err.
func (e *Engine) disableMCTS(err error) error {
	if e.mcts.mind != nil {
		e.mcts.mind.Close()
	}
	e.mcts.mind = nil
	e.mcts.unavailable = err
	return fmt.Errorf("%v; searching with AlphaBeta", err)
}

// reloadMCTS applies a network or library change when MCTS is requested:
// it also retries a load that failed, so that fixing NetworkFile or
// OnnxRuntimeLib after "Search MCTS" is enough.
func (e *Engine) reloadMCTS() error {
	if !e.mcts.requested {
		return nil
	}
	if err := e.enableMCTS(); err != nil {
		return e.disableMCTS(err)
	}
	e.mcts.unavailable = nil
	return nil
}

// searchOption is the Search combo. A build without cgo declares only
// AlphaBeta, so a GUI never offers the mind that is missing; "MCTS" is
// still accepted on setoption so that the answer says why.
func searchOption() *option {
	o := &option{name: "Search", kind: "combo", def: "AlphaBeta", vars: []string{"AlphaBeta", "MCTS"}, apply: func(e *Engine, v string) error {
		e.mcts.requested = v == "MCTS"
		if !e.mcts.requested {
			// Its sessions and tree are freed; choosing MCTS again loads
			// it anew, as it always did.
			if e.mcts.mind != nil {
				e.mcts.mind.Close()
			}
			e.mcts.mind, e.mcts.unavailable = nil, nil
			return nil
		}
		if err := e.reloadMCTS(); err != nil {
			return fmt.Errorf("Search MCTS unavailable: %v", err)
		}
		return nil
	}}
	if !onnx.Supported {
		o.vars, o.unlisted = []string{"AlphaBeta"}, []string{"MCTS"}
	}
	return o
}

// noteMCTSFallback repeats, at each "go", why a requested MCTS is not the
// mind playing. The setoption answer alone is not enough: GUIs show little
// outside a search (polyglot, for xboard, drops an info string then but
// passes one on during a search as a line of thinking output), so a user
// who chose MCTS would see AlphaBeta's lines with no word of the switch.
// The note is a line of its own, not a "string" after each PV: many GUIs
// read a PV to the end of the line and would drop the whole line.
func (e *Engine) noteMCTSFallback() {
	if e.mcts.requested && e.mcts.mind == nil {
		e.send("info string Search is MCTS but AlphaBeta is playing: %v", e.mcts.unavailable)
	}
}

// mctsOptions merges the shared options (Threads, MultiPV, Move Overhead)
// into the MCTS ones.
func (e *Engine) mctsOptions() azero.Options {
	o := e.mcts.opts
	o.Threads = e.shared.Threads
	o.MultiPV = e.shared.MultiPV
	o.MoveOverhead = e.shared.MoveOverhead
	return o
}

// setMCTSOptions gives a loaded MCTS searcher its own options after one
// changed (a searcher loaded later gets them when it is built).
func (e *Engine) setMCTSOptions() {
	if e.mcts.mind != nil {
		e.mcts.mind.SetOptions(e.mctsOptions())
	}
}

// floatOption parses a real-valued option (shown as type string, as Lc0 does).
// The range test is written so that NaN fails it (every comparison with NaN
// is false); ParseFloat also accepts "inf" and "infinity", refused here
// even where the range would be unbounded.
func floatOption(name, v string, lo, hi float64) (float64, error) {
	x, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
	if err != nil || math.IsNaN(x) || math.IsInf(x, 0) || !(x >= lo && x <= hi) {
		return 0, fmt.Errorf("%s wants a number from %g to %g, got %q", name, lo, hi, v)
	}
	return x, nil
}

// mctsOptionList declares the MCTS options; a build without ONNX Runtime
// has none, as they could change nothing there.
func mctsOptionList() []*option {
	if !onnx.Supported {
		return nil
	}
	d := azero.DefaultOptions
	return []*option{
		{name: "NetworkFile", kind: "string", def: onnx.DefaultNetworkName, apply: func(e *Engine, v string) error {
			if strings.TrimSpace(v) == "" {
				v = onnx.DefaultNetworkName
			}
			e.mcts.networkFile = v
			return e.reloadMCTS()
		}},
		{name: "OnnxRuntimeLib", kind: "string", def: "", apply: func(e *Engine, v string) error {
			e.mcts.ortLib = strings.TrimSpace(v)
			return e.reloadMCTS()
		}},
		{name: "CPuct", kind: "string", def: strconv.FormatFloat(d.Params.CPuct, 'g', -1, 64), apply: func(e *Engine, v string) error {
			x, err := floatOption("CPuct", v, 0.01, 100)
			e.mcts.opts.Params.CPuct = pick(err, x, e.mcts.opts.Params.CPuct)
			e.setMCTSOptions()
			return err
		}},
		{name: "CPuctBase", kind: "string", def: strconv.FormatFloat(d.Params.CPuctBase, 'g', -1, 64), apply: func(e *Engine, v string) error {
			x, err := floatOption("CPuctBase", v, 1, 1e9)
			e.mcts.opts.Params.CPuctBase = pick(err, x, e.mcts.opts.Params.CPuctBase)
			e.setMCTSOptions()
			return err
		}},
		{name: "FPUReduction", kind: "string", def: strconv.FormatFloat(d.Params.FPUReduction, 'g', -1, 64), apply: func(e *Engine, v string) error {
			x, err := floatOption("FPUReduction", v, -2, 2)
			e.mcts.opts.Params.FPUReduction = pick(err, x, e.mcts.opts.Params.FPUReduction)
			e.setMCTSOptions()
			return err
		}},
		{name: "PolicyTemperature", kind: "string", def: strconv.FormatFloat(d.Params.PolicyTemp, 'g', -1, 64), apply: func(e *Engine, v string) error {
			x, err := floatOption("PolicyTemperature", v, 0.1, 10)
			e.mcts.opts.Params.PolicyTemp = pick(err, x, e.mcts.opts.Params.PolicyTemp)
			e.setMCTSOptions()
			return err
		}},
		{name: "MCTSBatchSize", kind: "spin", def: strconv.Itoa(d.BatchSize), min: 1, max: 256, apply: func(e *Engine, v string) error {
			e.mcts.opts.BatchSize = atoi(v)
			e.setMCTSOptions()
			return nil
		}},
		{name: "NNCacheSize", kind: "spin", def: strconv.Itoa(d.CacheSize), min: 0, max: 50_000_000, apply: func(e *Engine, v string) error {
			n := atoi(v)
			// The cache fills as the engine plays: refuse at once what the
			// machine could never hold, rather than die of it later.
			if free, ok := sysmem.Available(); ok && n > e.mcts.opts.CacheSize &&
				azero.CacheMemory(n)-azero.CacheMemory(e.mcts.opts.CacheSize) > free/2 {
				return fmt.Errorf("NNCacheSize: %d entries need about %d MB, more than half the %d MB of memory available; keeping %d",
					n, azero.CacheMemory(n)>>20, free>>20, e.mcts.opts.CacheSize)
			}
			e.mcts.opts.CacheSize = n
			e.setMCTSOptions()
			return nil
		}},
		// Lc0's name. No 0 for "no limit": an unbounded tree is what ran
		// machines out of memory under "go infinite".
		{name: "RamLimitMb", kind: "spin", def: strconv.Itoa(d.RamLimitMB), min: 1, max: 65536, apply: func(e *Engine, v string) error {
			e.mcts.opts.RamLimitMB = atoi(v)
			e.setMCTSOptions()
			return nil
		}},
	}
}

func pick(err error, x, old float64) float64 {
	if err != nil {
		return old
	}
	return x
}
