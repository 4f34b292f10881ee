package uci

import (
	"fmt"
	"runtime"
	"slices"
	"strconv"
	"strings"

	"github.com/twofold-chess/twofold/search"
)

// option is one UCI option: how "uci" lists it and how "setoption" applies it.
type option struct {
	name string
	kind string // check, spin, combo, button, string
	def  string
	min  int
	max  int
	vars []string
	// unlisted combo values are accepted though not declared, so that
	// apply can say why this build lacks them (Search MCTS without cgo).
	unlisted []string
	apply    func(e *Engine, value string) error
}

// declaration returns the "option name ..." line of the option.
func (o *option) declaration() string {
	var b strings.Builder
	fmt.Fprintf(&b, "option name %s type %s", o.name, o.kind)
	if o.kind != "button" {
		fmt.Fprintf(&b, " default %s", o.def)
	}
	if o.kind == "spin" {
		fmt.Fprintf(&b, " min %d max %d", o.min, o.max)
	}
	for _, v := range o.vars {
		fmt.Fprintf(&b, " var %s", v)
	}
	return b.String()
}

// parse checks a value against the option's type and returns it normalised.
func (o *option) parse(value string) (string, error) {
	switch o.kind {
	case "check":
		switch strings.ToLower(value) {
		case "true", "false":
			return strings.ToLower(value), nil
		}
		return "", fmt.Errorf("%s wants true or false, got %q", o.name, value)
	case "spin":
		n, err := strconv.Atoi(value)
		if err != nil || n < o.min || n > o.max {
			return "", fmt.Errorf("%s wants a whole number from %d to %d, got %q", o.name, o.min, o.max, value)
		}
		return value, nil
	case "combo":
		for _, v := range slices.Concat(o.vars, o.unlisted) {
			if strings.EqualFold(v, value) {
				return v, nil
			}
		}
		return "", fmt.Errorf("%s wants one of %s, got %q", o.name, strings.Join(o.vars, ", "), value)
	}
	return value, nil
}

func atoi(s string) int { n, _ := strconv.Atoi(s); return n }

// options lists every option in the order "uci" prints them. Names follow
// Stockfish and Lc0 so GUIs and tournament managers recognise them.
func options() []*option {
	return append([]*option{
		{name: "Hash", kind: "spin", def: "16", min: 1, max: 65536, apply: func(e *Engine, v string) error {
			if err := e.alphaBeta.SetHash(atoi(v)); err != nil {
				return fmt.Errorf("Hash: %v", err)
			}
			return nil
		}},
		{name: "Threads", kind: "spin", def: "1", min: 1, max: 256, apply: func(e *Engine, v string) error {
			e.shared.Threads = atoi(v)
			// Each search thread gets an OS thread, as in engines written in
			// C: with more threads than Go's processors, the input loop's
			// goroutine queued behind them and stop took seconds (Threads
			// 256 on 2 cores); the kernel's scheduler wakes it at once.
			runtime.GOMAXPROCS(max(runtime.NumCPU(), e.shared.Threads+1))
			return nil
		}},
		{name: "MultiPV", kind: "spin", def: "1", min: 1, max: 256, apply: func(e *Engine, v string) error {
			e.shared.MultiPV = atoi(v)
			return nil
		}},
		{name: "Ponder", kind: "check", def: "false", apply: func(*Engine, string) error { return nil }},
		{name: "Move Overhead", kind: "spin", def: "10", min: 0, max: 5000, apply: func(e *Engine, v string) error {
			e.shared.MoveOverhead = msec(atoi(v))
			return nil
		}},
		{name: "Clear Hash", kind: "button", apply: func(e *Engine, _ string) error {
			e.alphaBeta.Clear()
			return nil
		}},
		{name: "UCI_Chess960", kind: "check", def: "false", apply: func(e *Engine, v string) error {
			e.chess960 = v == "true"
			e.pos.SetChess960(e.chess960)
			return nil
		}},
		{name: "UCI_ShowWDL", kind: "check", def: "false", apply: func(e *Engine, v string) error {
			e.showWDL = v == "true"
			return nil
		}},
		{name: "Skill Level", kind: "spin", def: "20", min: 0, max: 20, apply: func(e *Engine, v string) error {
			e.skill = atoi(v)
			e.setAlphaBetaOptions()
			return nil
		}},
		{name: "UCI_LimitStrength", kind: "check", def: "false", apply: func(e *Engine, v string) error {
			e.limitStrength = v == "true"
			e.setAlphaBetaOptions()
			return nil
		}},
		{name: "UCI_Elo", kind: "spin", def: "1500", min: search.MinElo, max: search.MaxElo, apply: func(e *Engine, v string) error {
			e.elo = atoi(v)
			e.setAlphaBetaOptions()
			return nil
		}},
		{name: "Difficulty", kind: "combo", def: "Max", vars: []string{"Easy", "Medium", "Hard", "Max"}, apply: func(e *Engine, v string) error {
			e.difficulty = v
			e.setAlphaBetaOptions()
			return nil
		}},
	}, slices.Concat(nnueOptionList(), []*option{searchOption()}, mctsOptionList(), bookOptionList(), tuneOptionList())...)
}
