package search

import (
	"github.com/twofold-chess/twofold/board"
	"github.com/twofold-chess/twofold/mind"
)

// Mind is the alpha-beta searcher as a mind.Searcher, the form the UCI loop
// drives: the shared options go through SetOptions, the searcher's own
// (Hash, Strength) through Searcher.
type Mind struct{ s *Searcher }

var _ mind.Searcher = (*Mind)(nil)

// NewMind wraps s.
func NewMind(s *Searcher) *Mind { return &Mind{s: s} }

// Searcher is the wrapped searcher.
func (m *Mind) Searcher() *Searcher { return m.s }

// Go implements mind.Searcher.
func (m *Mind) Go(p *board.Position, lim Limits, report func(mind.Info), done func(mind.Result)) {
	m.s.Go(p, lim, func(i Info) { report(i.Mind()) }, func(r Result) {
		done(mind.Result{Best: r.Best, Ponder: r.Ponder})
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

// Mind returns the report as a mind.Info.
func (i Info) Mind() mind.Info {
	if i.CurrMove != board.NoMove {
		return mind.Info{Depth: i.Depth, CurrMove: i.CurrMove, CurrMoveNumber: i.CurrMoveNumber}
	}
	score := mind.CP(i.Score)
	if IsMate(i.Score) {
		score = mind.MateIn(MateIn(i.Score))
	}
	switch i.Bound {
	case BoundLower:
		score.Bound = mind.Lower
	case BoundUpper:
		score.Bound = mind.Upper
	}
	return mind.Info{
		Depth: i.Depth, SelDepth: i.SelDepth, MultiPV: i.MultiPV, Score: score,
		Nodes: i.Nodes, Time: i.Time, HashFull: i.HashFull, PV: i.PV,
	}
}
