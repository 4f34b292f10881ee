package uci

import (
	"fmt"
	"runtime"
	"slices"
	"strconv"
	"strings"

	"github.com/twofold-chess/twofold/mind"
)

// option is one UCI option: how "uci" lists it and how "setoption" applies
// it. The searchers declare their own (mind.Option); the loop's own are
// written the same way, with setters bound to the engine.
type option struct {
	mind.Option
	// unlisted combo values are accepted though not declared, so that
	// Set can say why this build lacks them (Search MCTS without cgo).
	unlisted []string
}

// declaration returns the "option name ..." line of the option.
func (o *option) declaration() string {
	var b strings.Builder
	fmt.Fprintf(&b, "option name %s type %s", o.Name, o.Kind)
	if o.Kind != mind.Button {
		fmt.Fprintf(&b, " default %s", o.Default)
	}
	if o.Kind == mind.Spin {
		fmt.Fprintf(&b, " min %d max %d", o.Min, o.Max)
	}
	for _, v := range o.Vars {
		fmt.Fprintf(&b, " var %s", v)
	}
	return b.String()
}

// parse checks a value against the option's type and returns it normalised.
func (o *option) parse(value string) (string, error) {
	switch o.Kind {
	case mind.Check:
		switch strings.ToLower(value) {
		case "true", "false":
			return strings.ToLower(value), nil
		}
		return "", fmt.Errorf("%s wants true or false, got %q", o.Name, value)
	case mind.Spin:
		n, err := strconv.Atoi(value)
		if err != nil || n < o.Min || n > o.Max {
			return "", fmt.Errorf("%s wants a whole number from %d to %d, got %q", o.Name, o.Min, o.Max, value)
		}
		return value, nil
	case mind.Combo:
		for _, v := range slices.Concat(o.Vars, o.unlisted) {
			if strings.EqualFold(v, value) {
				return v, nil
			}
		}
		return "", fmt.Errorf("%s wants one of %s, got %q", o.Name, strings.Join(o.Vars, ", "), value)
	}
	return value, nil
}

func atoi(s string) int { n, _ := strconv.Atoi(s); return n }

// declared wraps a searcher's options as the loop lists them.
func declared(opts ...mind.Option) []*option {
	list := make([]*option, len(opts))
	for i, o := range opts {
		list[i] = &option{Option: o}
	}
	return list
}

// optionList lists every option in the order "uci" prints them. Names
// follow Stockfish and Lc0 so GUIs and tournament managers recognise them.
// AlphaBeta's own options (package search declares them) stand among the
// shared ones where Stockfish lists them; MCTS's (package azero's) follow
// the Search combo, after the network's.
func (e *Engine) optionList() []*option {
	ab := e.classical.Declare()
	pick := func(names ...string) []*option {
		var list []*option
		for _, n := range names {
			o, ok := mind.Find(ab, n)
			if !ok {
				panic("search declares no option " + n)
			}
			list = append(list, &option{Option: o})
		}
		return list
	}
	return slices.Concat(pick("Hash"), []*option{
		{Option: mind.Option{Name: "Threads", Kind: mind.Spin, Default: "1", Min: 1, Max: 256, Set: func(v string) error {
			e.shared.Threads = atoi(v)
			// Each search thread gets an OS thread, as in engines written in
			// C: with more threads than Go's processors, the input loop's
			// goroutine queued behind them and stop took seconds (Threads
			// 256 on 2 cores); the kernel's scheduler wakes it at once.
			runtime.GOMAXPROCS(max(runtime.NumCPU(), e.shared.Threads+1))
			return nil
		}}},
		{Option: mind.Option{Name: "MultiPV", Kind: mind.Spin, Default: "1", Min: 1, Max: 256, Set: func(v string) error {
			e.shared.MultiPV = atoi(v)
			return nil
		}}},
		{Option: mind.Option{Name: "Ponder", Kind: mind.Check, Default: "false", Set: func(string) error { return nil }}},
		{Option: mind.Option{Name: "Move Overhead", Kind: mind.Spin, Default: "10", Min: 0, Max: 5000, Set: func(v string) error {
			e.shared.MoveOverhead = msec(atoi(v))
			return nil
		}}},
	}, pick("Clear Hash"), []*option{
		{Option: mind.Option{Name: "UCI_Chess960", Kind: mind.Check, Default: "false", Set: func(v string) error {
			e.chess960 = v == "true"
			e.pos.SetChess960(e.chess960)
			return nil
		}}},
		{Option: mind.Option{Name: "UCI_ShowWDL", Kind: mind.Check, Default: "false", Set: func(v string) error {
			e.showWDL = v == "true"
			return nil
		}}},
	}, e.syzygyOptionList(), pick("Skill Level", "UCI_LimitStrength", "UCI_Elo", "Difficulty", "EvalFile", "Use NNUE"),
		[]*option{e.searchOption()}, e.mctsOptionList(), e.bookOptionList(), spsaOptionList())
}
