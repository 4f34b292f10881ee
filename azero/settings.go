package azero

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/twofold-chess/twofold/internal/sysmem"
	"github.com/twofold-chess/twofold/mind"
)

// Settings are the MCTS searcher's own options as the UCI loop sets them,
// declared by Declare (Lc0's names): the search constants, the batch, the
// NN cache and the tree's memory. They keep their values while no searcher
// is open (MCTS is built only when it is chosen), give them to the
// searcher Open makes, and pass each change on to it at once (from its
// next search). Not safe for concurrent use, nor during a search.
type Settings struct {
	opts Options
	s    *Searcher // the searcher Open made; nil when none is open
}

// NewSettings returns the settings at their defaults (DefaultOptions).
func NewSettings() *Settings { return &Settings{opts: DefaultOptions} }

// Open makes a searcher on b with these settings and the shared options
// sh, making its evaluators at once (see Open), and closes the one it made
// before; later changes reach the new one. On error the searcher open
// before stays.
func (st *Settings) Open(b Backend, sh mind.Shared) (*Searcher, error) {
	o := st.opts
	o.Threads, o.MultiPV, o.MoveOverhead, o.Tablebases = sh.Threads, sh.MultiPV, sh.MoveOverhead, sh.Tablebases
	s, err := Open(b, o)
	if err != nil {
		return nil, err
	}
	st.Close()
	st.s = s
	return s, nil
}

// Close closes the searcher Open made, if one is open, freeing its
// evaluators and tree.
func (st *Settings) Close() {
	if st.s != nil {
		st.s.Close()
		st.s = nil
	}
}

// changed passes the settings on to the open searcher, keeping the
// options it shares with the other searcher.
func (st *Settings) changed() {
	if st.s == nil {
		return
	}
	o, cur := st.opts, st.s.Options()
	o.Threads, o.MultiPV, o.MoveOverhead, o.Tablebases = cur.Threads, cur.MultiPV, cur.MoveOverhead, cur.Tablebases
	st.s.SetOptions(o)
}

// Declare returns the options, in the order the UCI loop lists them, with
// setters that change these settings. The real-valued ones are strings (as
// Lc0 has them), checked here.
func (st *Settings) Declare() []mind.Option {
	d := DefaultOptions
	param := func(name string, p *float64, def, lo, hi float64) mind.Option {
		return mind.Option{Name: name, Kind: mind.String, Default: strconv.FormatFloat(def, 'g', -1, 64), Set: func(v string) error {
			x, err := parseReal(name, v, lo, hi)
			if err == nil {
				*p = x
			}
			st.changed()
			return err
		}}
	}
	var opts []mind.Option
	defaults := paramOptions(&d.Params)
	for i, o := range paramOptions(&st.opts.Params) {
		opts = append(opts, param(o.name, o.value, *defaults[i].value, o.lo, o.hi))
	}
	return append(opts, []mind.Option{
		{Name: "MCTSBatchSize", Kind: mind.Spin, Default: strconv.Itoa(d.BatchSize), Min: 1, Max: 256, Set: func(v string) error {
			st.opts.BatchSize, _ = strconv.Atoi(v)
			st.changed()
			return nil
		}},
		{Name: "NNCacheSize", Kind: mind.Spin, Default: strconv.Itoa(d.CacheSize), Min: 0, Max: 50_000_000, Set: func(v string) error {
			n, _ := strconv.Atoi(v)
			// The cache fills as the engine plays: refuse at once what the
			// machine could never hold, rather than die of it later.
			if free, ok := sysmem.Available(); ok && n > st.opts.CacheSize &&
				CacheMemory(n)-CacheMemory(st.opts.CacheSize) > free/2 {
				return fmt.Errorf("NNCacheSize: %d entries need about %d MB, more than half the %d MB of memory available; keeping %d",
					n, CacheMemory(n)>>20, free>>20, st.opts.CacheSize)
			}
			st.opts.CacheSize = n
			st.changed()
			return nil
		}},
		// Lc0's name. No 0 for "no limit": an unbounded tree is what ran
		// machines out of memory under "go infinite".
		{Name: "RamLimitMb", Kind: mind.Spin, Default: strconv.Itoa(d.RamLimitMB), Min: 1, Max: 65536, Set: func(v string) error {
			st.opts.RamLimitMB, _ = strconv.Atoi(v)
			st.changed()
			return nil
		}},
	}...)
}

// paramOption is one PUCT constant as a UCI option: its name and range.
type paramOption struct {
	name   string
	value  *float64
	lo, hi float64
}

// paramOptions are p's constants with their options' names and ranges,
// in the order the UCI loop lists them.
func paramOptions(p *Params) []paramOption {
	return []paramOption{
		{"CPuct", &p.CPuct, 0.01, 100},
		{"CPuctBase", &p.CPuctBase, 1, 1e9},
		{"FPUReduction", &p.FPUReduction, -2, 2},
		{"PolicyTemperature", &p.PolicyTemp, 0.1, 10},
	}
}

// Check reports the first constant outside the range its UCI option
// accepts (a NaN is outside every range), for callers that take the
// constants elsewhere than from the options, such as engine ladder.
func (p Params) Check() error {
	for _, o := range paramOptions(&p) {
		if !(*o.value >= o.lo && *o.value <= o.hi) {
			return fmt.Errorf("%s wants a number from %g to %g, got %v", o.name, o.lo, o.hi, *o.value)
		}
	}
	return nil
}

// parseReal parses a real-valued option. The range test is written so
// that NaN fails it (every comparison with NaN is false); ParseFloat also
// accepts "inf" and "infinity", refused here even where the range would be
// unbounded.
func parseReal(name, v string, lo, hi float64) (float64, error) {
	x, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
	if err != nil || math.IsNaN(x) || math.IsInf(x, 0) || !(x >= lo && x <= hi) {
		return 0, fmt.Errorf("%s wants a number from %g to %g, got %q", name, lo, hi, v)
	}
	return x, nil
}
