package uci

import (
	"fmt"
	"strings"

	"github.com/twofold-chess/twofold/board"
	"github.com/twofold-chess/twofold/nnue"
)

// The alpha-beta searcher's network: EvalFile names an NNUE file (package
// nnue's format) or <default>, the network embedded in the binary; Use
// NNUE says whether AlphaBeta evaluates with it. With Use NNUE off, or in
// the weakened modes (Skill Level, UCI_Elo, Difficulty, calibrated with it),
// it uses the hand-crafted evaluation. Both reach the searcher at once, through setAlphaBetaOptions,
// so the next "go" (and "bench") searches with them. MCTS has its own
// network (NetworkFile) and is not affected.

// nnueState is the loaded network and the options that choose it.
type nnueState struct {
	net  *nnue.Network // never nil once New has applied the defaults
	file string        // the EvalFile net was loaded from
	use  bool          // Use NNUE
}

// chosen is the network AlphaBeta evaluates with at full strength: nil for
// the hand-crafted evaluation. (A weakened mode evaluates by hand whatever
// it is: search.Options.Evaluator.)
func (s *nnueState) chosen() *nnue.Network {
	if !s.use {
		return nil
	}
	return s.net
}

// describe names the network and says whether it is used (the "d" and
// "eval" line, and what a refused EvalFile keeps); weak: a weakened mode
// is on.
func (s *nnueState) describe(weak bool) string {
	use := "in use"
	switch {
	case !s.use:
		use = "not in use (Use NNUE is false: hand-crafted evaluation)"
	case weak:
		use = "not in use (a weakened mode evaluates by hand: Skill Level, UCI_Elo or Difficulty)"
	}
	return fmt.Sprintf("%s, %s, kernel %s, %s", s.file, s.net, s.net.Kernel(), use)
}

// describeNetwork is nnueState.describe for the strength in force.
func (e *Engine) describeNetwork() string {
	// With Use NNUE on, no evaluator means a weakened mode chose the hand-crafted one.
	return e.nnue.describe(e.evaluator() == nil)
}

// evaluator is the network AlphaBeta's next search evaluates with: nil for
// the hand-crafted evaluation.
func (e *Engine) evaluator() *nnue.Network { return e.alphaBeta.Options().Evaluator() }

func nnueOptionList() []*option {
	return []*option{
		// Stockfish's name. An empty value (or "<empty>", how Stockfish
		// shows one, which a GUI may send back) means the embedded
		// network too: the hand-crafted evaluation is Use NNUE's choice.
		{name: "EvalFile", kind: "string", def: nnue.DefaultName, apply: func(e *Engine, v string) error {
			v = strings.TrimSpace(v)
			if v == "" || strings.EqualFold(v, "<empty>") || strings.EqualFold(v, nnue.DefaultName) {
				e.nnue.net, e.nnue.file = nnue.Default(), nnue.DefaultName
				e.setAlphaBetaOptions()
				return nil
			}
			return e.loadNetwork(v)
		}},
		{name: "Use NNUE", kind: "check", def: "true", apply: func(e *Engine, v string) error {
			e.nnue.use = v == "true"
			e.setAlphaBetaOptions()
			return nil
		}},
	}
}

// loadNetwork reads the network file path. A file that cannot be used
// (missing, not a regular file, a wrong header, truncated, corrupt) is
// refused whole and what was loaded before stays. The file is read again
// even when it is the one loaded (a trainer may have rewritten it); an
// unchanged network keeps the searcher's hash.
func (e *Engine) loadNetwork(path string) error {
	net, err := nnue.Load(path)
	if err != nil {
		reason := err.Error()
		if !strings.Contains(reason, path) { // nnue.Load's errors name it; make sure
			reason = path + ": " + reason
		}
		return fmt.Errorf("EvalFile not loaded: %s; network kept: %s", reason, e.describeNetwork())
	}
	if old := e.nnue.net; old != nil && old.Checksum() == net.Checksum() && old.Hidden() == net.Hidden() && old.Activation() == net.Activation() {
		net = old
	}
	e.nnue.net, e.nnue.file = net, path
	e.setAlphaBetaOptions()
	e.send("info string EvalFile loaded: network %s", e.describeNetwork())
	return nil
}

// nnueEval is the network's score of p for "eval": the side to move's and
// White's view, with the line naming the network.
func (e *Engine) nnueEval(p *board.Position) string {
	line := "Network: " + e.describeNetwork()
	stm := e.nnue.net.Evaluate(p)
	white := stm
	if p.Side() == board.Black {
		white = -stm
	}
	return fmt.Sprintf("NNUE evaluation: %d cp (White's view), %d cp (side to move)\n%s", white, stm, line)
}
