package azero

import (
	"fmt"

	"github.com/twofold-chess/twofold/board"
	"github.com/twofold-chess/twofold/mind"
	"github.com/twofold-chess/twofold/timeman"
)

// Mind is the MCTS searcher as a mind.Searcher, the form the UCI loop
// drives: the shared options go through SetOptions, the searcher's own
// (CPuct, batch, cache, tree memory) through Searcher.
type Mind struct{ s *Searcher }

var _ mind.Searcher = (*Mind)(nil)

// NewMind wraps s.
func NewMind(s *Searcher) *Mind { return &Mind{s: s} }

// Searcher is the wrapped searcher.
func (m *Mind) Searcher() *Searcher { return m.s }

// Go implements mind.Searcher. A network failure comes back as the
// result's Err, with a legal move.
func (m *Mind) Go(p *board.Position, lim timeman.Limits, report func(mind.Info), done func(mind.Result)) {
	m.s.Go(p, lim, func(i Info) { report(i.Mind()) }, func(r Result) {
		res := mind.Result{Best: r.Best, Ponder: r.Ponder}
		if r.Err != nil {
			res.Err = fmt.Errorf("MCTS: network evaluation failed: %w", r.Err)
		}
		done(res)
	})
}

// Stop implements mind.Searcher.
func (m *Mind) Stop() { m.s.Stop() }

// PonderHit implements mind.Searcher.
func (m *Mind) PonderHit() { m.s.PonderHit() }

// Clear implements mind.Searcher.
func (m *Mind) Clear() { m.s.Clear() }

// SetOptions implements mind.Searcher; the searcher's other options stay.
func (m *Mind) SetOptions(o mind.Options) {
	so := m.s.Options()
	so.Threads, so.MultiPV, so.MoveOverhead = o.Threads, o.MultiPV, o.MoveOverhead
	m.s.SetOptions(so)
}

// Mind returns the report as a mind.Info: depth is the mean playout depth,
// nodes the playouts, the score Q in centipawns (QToCentipawns) or a proven
// mate; there is no hash table (HashFull -1).
func (i Info) Mind() mind.Info {
	score := mind.CP(i.CP)
	if i.Mate != 0 {
		score = mind.MateIn(i.Mate)
	}
	return mind.Info{
		Depth: i.Depth, SelDepth: i.SelDepth, MultiPV: i.MultiPV, Score: score,
		Nodes: i.Nodes, Time: i.Time, HashFull: -1, PV: i.PV,
	}
}
