package search

import "github.com/twofold-chess/twofold/mind"

// The searcher is a mind.Searcher itself: Go, Stop, PonderHit and Clear
// are its own methods, and it reports and answers in mind's forms (the
// main thread's lines after each completed iteration and MultiPV line, or
// a root move starting with CurrMove set).
var _ mind.Searcher = (*Searcher)(nil)

// SetShared implements mind.Searcher; the searcher's other options stay.
func (s *Searcher) SetShared(o mind.Shared) {
	so := s.opts
	so.Threads, so.MultiPV, so.MoveOverhead, so.Tablebases = o.Threads, o.MultiPV, o.MoveOverhead, o.Tablebases
	s.SetOptions(so)
}

// reported is a score of the search's scale as it is reported: centipawns,
// or the moves to a mate, with its bound. A tablebase score is cp 20000
// (TBCentipawns) less its distance in plies, as Stockfish reports it.
func reported(score int, b Bound) mind.Score {
	r := mind.CP(score)
	switch {
	case IsMate(score):
		r = mind.MateIn(MateIn(score))
	case score >= TBWinBound:
		r = mind.CP(TBCentipawns - (TBWin - score))
	case score <= -TBWinBound:
		r = mind.CP(-TBCentipawns + (TBWin + score))
	}
	switch b {
	case BoundLower:
		r.Bound = mind.Lower
	case BoundUpper:
		r.Bound = mind.Upper
	}
	return r
}

// reportedRoot is reported for a root move's score: when the root is in
// the tablebases, a score short of a mate is the tables' (the search below
// the root probes no more, and its evaluation says less).
func (s *Searcher) reportedRoot(rm *rootMove, score int, b Bound) mind.Score {
	if s.rootInTB && !IsMate(score) {
		return reported(rm.tbScore, BoundExact)
	}
	return reported(score, b)
}

// Value is a reported score back on the search's scale, for callers that
// compare it with thresholds there (data generation, tests): centipawns as
// they are, a mate in n moves MateScore-(2n-1) for the side that mates and
// -MateScore+2n for the side mated, the plies it takes, and a tablebase
// score (TBCentipawns less up to MaxPly) TBWin less as much.
func Value(s mind.Score) int {
	switch {
	case !s.Mate && s.Value >= TBCentipawns-MaxPly && s.Value <= TBCentipawns:
		return TBWin - (TBCentipawns - s.Value)
	case !s.Mate && s.Value <= -(TBCentipawns-MaxPly) && s.Value >= -TBCentipawns:
		return -TBWin + (TBCentipawns + s.Value)
	case !s.Mate:
		return s.Value
	case s.Value > 0:
		return MateScore - (2*s.Value - 1)
	default:
		return -MateScore - 2*s.Value
	}
}
