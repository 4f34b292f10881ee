package search

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/twofold-chess/twofold/mind"
	"github.com/twofold-chess/twofold/nnue"
)

// Settings are the alpha-beta searcher's own options as the UCI loop and
// the web board set them, declared by Declare (Stockfish's names): the
// transposition table (Hash, Clear Hash), the strength (Difficulty first,
// then UCI_LimitStrength with UCI_Elo, then Skill Level) and the network
// (EvalFile names an NNUE file or <default>, the network embedded in the
// binary; Use NNUE says whether the searcher evaluates with it). Each
// change reaches the searcher at once, so its next search (and "bench")
// uses it. With Use NNUE off, or in a weakened mode (calibrated with the
// hand-crafted evaluation), the searcher evaluates by hand
// (Options.Evaluator). A change of evaluation empties the table and the
// histories, whose entries hold the old evaluation's scores, so that a
// search after it is the search a fresh searcher with the new evaluation
// makes. Not safe for concurrent use, nor during a search.
type Settings struct {
	s   *Searcher
	say func(msg string)

	skill         int
	limitStrength bool
	elo           int
	difficulty    string

	net     *nnue.Network // the EvalFile network, never nil
	file    string        // the EvalFile net was loaded from
	useNNUE bool          // Use NNUE
}

// NewSettings returns the settings of s at the defaults the options
// declare, applied to s (full strength with the embedded network). say,
// when not nil, is told what a setting did that a user wants to know (the
// network a file held).
func NewSettings(s *Searcher, say func(msg string)) *Settings {
	st := &Settings{s: s, say: say, skill: 20, elo: 1500, difficulty: "Max",
		net: nnue.Default(), file: nnue.DefaultName, useNNUE: true}
	st.apply()
	return st
}

// Declare returns the options, in the order the UCI loop lists them, with
// setters that change these settings.
func (st *Settings) Declare() []mind.Option {
	return []mind.Option{
		{Name: "Hash", Kind: mind.Spin, Default: "16", Min: 1, Max: 65536, Set: func(v string) error {
			mb, _ := strconv.Atoi(v)
			if err := st.s.SetHash(mb); err != nil {
				return fmt.Errorf("Hash: %v", err)
			}
			return nil
		}},
		{Name: "Clear Hash", Kind: mind.Button, Set: func(string) error {
			st.s.Clear()
			return nil
		}},
		{Name: "Skill Level", Kind: mind.Spin, Default: "20", Min: 0, Max: 20, Set: func(v string) error {
			st.skill, _ = strconv.Atoi(v)
			st.apply()
			return nil
		}},
		{Name: "UCI_LimitStrength", Kind: mind.Check, Default: "false", Set: func(v string) error {
			st.limitStrength = v == "true"
			st.apply()
			return nil
		}},
		{Name: "UCI_Elo", Kind: mind.Spin, Default: "1500", Min: MinElo, Max: MaxElo, Set: func(v string) error {
			st.elo, _ = strconv.Atoi(v)
			st.apply()
			return nil
		}},
		{Name: "Difficulty", Kind: mind.Combo, Default: "Max", Vars: []string{"Easy", "Medium", "Hard", "Max"}, Set: func(v string) error {
			st.difficulty = v
			st.apply()
			return nil
		}},
		// Stockfish's name. An empty value (or "<empty>", how Stockfish
		// shows one, which a GUI may send back) means the embedded
		// network too: the hand-crafted evaluation is Use NNUE's choice.
		{Name: "EvalFile", Kind: mind.String, Default: nnue.DefaultName, Set: func(v string) error {
			v = strings.TrimSpace(v)
			if v == "" || strings.EqualFold(v, "<empty>") || strings.EqualFold(v, nnue.DefaultName) {
				st.net, st.file = nnue.Default(), nnue.DefaultName
				st.apply()
				return nil
			}
			return st.loadNetwork(v)
		}},
		{Name: "Use NNUE", Kind: mind.Check, Default: "true", Set: func(v string) error {
			st.useNNUE = v == "true"
			st.apply()
			return nil
		}},
	}
}

// apply gives the searcher the strength and the evaluation the settings
// ask for (SetOptions empties the tables when the evaluation changes).
func (st *Settings) apply() {
	o := st.s.Options()
	o.Strength = st.Strength()
	o.Network = st.chosen()
	st.s.SetOptions(o)
}

// Strength resolves the strength options: Difficulty first, then
// UCI_LimitStrength with UCI_Elo, then Skill Level.
func (st *Settings) Strength() Strength {
	if s, ok := DifficultyStrength(st.difficulty); ok && !strings.EqualFold(st.difficulty, "Max") {
		return s
	}
	if st.limitStrength {
		return EloStrength(st.elo)
	}
	return SkillStrength(st.skill)
}

// chosen is the network the searcher evaluates with at full strength: nil
// for the hand-crafted evaluation.
func (st *Settings) chosen() *nnue.Network {
	if !st.useNNUE {
		return nil
	}
	return st.net
}

// Network is the EvalFile network, whether or not it is used.
func (st *Settings) Network() *nnue.Network { return st.net }

// Evaluator is the network the searcher's next search evaluates with: nil
// for the hand-crafted evaluation.
func (st *Settings) Evaluator() *nnue.Network { return st.s.Options().Evaluator() }

// DescribeNetwork names the network and says whether it is used (the line
// UCI's "d" and "eval" show, and what a refused EvalFile keeps).
func (st *Settings) DescribeNetwork() string {
	use := "in use"
	switch {
	case !st.useNNUE:
		use = "not in use (Use NNUE is false: hand-crafted evaluation)"
	case st.Evaluator() == nil: // Use NNUE is on: a weakened mode chose the hand-crafted one
		use = "not in use (a weakened mode evaluates by hand: Skill Level, UCI_Elo or Difficulty)"
	}
	return fmt.Sprintf("%s, %s, kernel %s, %s", st.file, st.net, st.net.Kernel(), use)
}

// loadNetwork reads the network file path. A file that cannot be used
// (missing, not a regular file, a wrong header, truncated, corrupt) is
// refused whole and what was loaded before stays. The file is read again
// even when it is the one loaded (a trainer may have rewritten it); an
// unchanged network keeps the searcher's hash.
func (st *Settings) loadNetwork(path string) error {
	net, err := nnue.Load(path)
	if err != nil {
		reason := err.Error()
		if !strings.Contains(reason, path) { // nnue.Load's errors name it; make sure
			reason = path + ": " + reason
		}
		return fmt.Errorf("EvalFile not loaded: %s; network kept: %s", reason, st.DescribeNetwork())
	}
	if old := st.net; old != nil && old.Checksum() == net.Checksum() && old.Hidden() == net.Hidden() && old.Activation() == net.Activation() {
		net = old
	}
	st.net, st.file = net, path
	st.apply()
	if st.say != nil {
		st.say("EvalFile loaded: network " + st.DescribeNetwork())
	}
	return nil
}
