package search

// Syzygy tablebases in the search (Options.Tablebases), as Stockfish uses
// them. At the root the DTZ tables rank the legal moves and only those
// that keep the result are searched, so a won ending is converted within
// the fifty-move rule and a drawn one held; the search then needs no
// probes below (the WDL tables alone cannot promise the conversion, so
// with them only a won root keeps probing). Inside the tree a position
// right after a capture or pawn move with few enough pieces is probed for
// its WDL value: a win scores in the band from TBWinBound to TBWin, just
// below the mates, a loss likewise, a draw 0 (a cursed win 2, a blessed
// loss -2, under the fifty-move rule). The probe allocates nothing; with no
// tables it costs one comparison a node.

import (
	"github.com/twofold-chess/twofold/board"
	"github.com/twofold-chess/twofold/syzygy"
)

// tbSetup readies the search's tablebase probes and, when the root is in
// the tables, returns the root moves that keep its result, best first
// (the fastest conversion first), each with the score the tables give it;
// otherwise root as it is. Weakened searches (calibrated without tables)
// probe nothing.
func (s *Searcher) tbSetup(p *board.Position, root []rootMove) []rootMove {
	tbo := s.opts.Tablebases
	s.tbCard, s.tbDepth, s.tbRootHits, s.rootInTB = tbo.Cardinality(), max(tbo.ProbeDepth, 1), 0, false
	if s.opts.Strength.active() {
		s.tbCard = 0
	}
	if s.tbCard == 0 {
		return root
	}
	tb := tbo.Tables
	if tbo.ProbeLimit > tb.MaxPieces() {
		s.tbDepth = 0 // every position the tables hold is probed at any depth
	}
	if p.Occupied().Count() > s.tbCard || p.Castling() != board.NoCastling {
		return root
	}
	q := p.Clone() // the probe walks the game's history; p stays untouched
	ranked, err := tb.ProbeRoot(q)
	dtz := err == nil
	if !dtz {
		if ranked, err = tb.ProbeRootWDL(q); err != nil {
			return root
		}
	}
	s.tbRootHits = uint64(len(ranked))
	var kept []rootMove
	bestRank := 0
	for _, rm := range ranked {
		i := indexOfMove(root, rm.Move)
		if i < 0 { // not among searchmoves
			continue
		}
		if len(kept) > 0 && rm.Rank < bestRank {
			break // ranked is sorted: the rest spoil the result
		}
		bestRank = rm.Rank
		r := root[i]
		r.tbScore = tbScore(rm, tbo.Rule50)
		kept = append(kept, r)
	}
	if len(kept) == 0 {
		return root
	}
	s.rootInTB = true
	if dtz || bestRank <= 0 {
		// The root moves keep the result; probing below could only make
		// the search prefer a quick zeroing move to a quick mate. Without
		// DTZ a won root keeps probing, so the search finds its way on.
		s.tbCard = 0
	}
	return kept
}

func indexOfMove(root []rootMove, m board.Move) int {
	for i := range root {
		if root[i].move == m {
			return i
		}
	}
	return -1
}

// tbScore is the score reported for a root move the tables rank: a win
// (one the fifty-move rule cannot spoil, or any with the rule off) TBWin,
// a loss -TBWin, and otherwise the tables' centipawns (a cursed win a few
// centipawns, a draw 0).
func tbScore(m syzygy.RootMove, rule50 bool) int {
	switch m.Outcome(rule50) {
	case syzygy.Win:
		return TBWin
	case syzygy.Loss:
		return -TBWin
	}
	return m.Centipawns(rule50)
}

// probeTB probes the WDL tables at a node of the tree: only right after a
// capture or pawn move (the tables' value assumes a zeroed fifty-move
// counter), without castling rights, with at most tbCard pieces (as many
// only from tbDepth on). It returns the node's score and its bound
// (tbValue) and whether the tables had the position.
func (t *thread) probeTB(depth, ply int) (int, Bound, bool) {
	p, s := t.pos, t.s
	if p.HalfmoveClock() != 0 || p.Castling() != board.NoCastling {
		return 0, BoundNone, false
	}
	if n := p.Occupied().Count(); n > s.tbCard || (n == s.tbCard && depth < s.tbDepth) {
		return 0, BoundNone, false
	}
	wdl, err := s.opts.Tablebases.Tables.ProbeWDL(p)
	if t.id == 0 {
		t.checkLimits() // a probe may read the disk: look at the clock now
	}
	if err != nil {
		return 0, BoundNone, false
	}
	t.tbHits.Add(1)
	score, bound := tbValue(wdl, s.opts.Tablebases.Rule50, ply)
	return score, bound, true
}

// tbValue is the score of a WDL result at ply and its bound: a win is a
// lower bound (a quicker one may exist), a loss an upper bound, a draw
// exact. Under the fifty-move rule a cursed win is a draw worth 2, a
// blessed loss -2; without it they are a win and a loss.
func tbValue(wdl syzygy.WDL, rule50 bool, ply int) (int, Bound) {
	draw := syzygy.Draw // the best result that still counts as a draw
	if rule50 {
		draw = syzygy.CursedWin
	}
	switch {
	case wdl > draw:
		return TBWin - ply, BoundLower
	case wdl < -draw:
		return -TBWin + ply, BoundUpper
	}
	return 2 * int(wdl), BoundExact
}

// tbHits sums the threads' tablebase hits and the root probe's.
func (s *Searcher) tbHits() uint64 {
	n := s.tbRootHits
	for _, t := range s.threads {
		n += t.tbHits.Load()
	}
	return n
}
