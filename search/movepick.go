package search

// Move ordering. Alpha-beta cuts off sooner the sooner it meets the best
// move, so each node's moves are tried in the order below, and generated
// in stages as Stockfish's movepick.cpp does: most nodes cut off after the
// table's move, a good capture or a killer, and never generate (or score)
// the quiet moves.
//
//  1. the table's move (the caller has checked it is legal), before any
//     move is generated;
//  2. captures and queen promotions (movegen.Noisy), by victim, then
//     attacker, then capture history; SEE is asked of each only when it
//     comes up, and one that loses material waits for stage 5;
//  3. the two killers and the countermove, when legal and quiet here;
//  4. the quiet moves (movegen.AppendQuiet), by history, scored only now;
//  5. the losing captures and the quiet under-promotions.
//
// In check every evasion is generated at once (movegen.Legal) and ordered
// by the same tiers. Quiescence takes stage 2's good captures only (in
// check, every evasion).

import (
	"math"

	"github.com/twofold-chess/twofold/board"
	"github.com/twofold-chess/twofold/movegen"
)

// Move-ordering tiers: the TT move, then winning and equal captures and
// queen promotions (by victim, then attacker), killers, the countermove,
// quiet moves by history, and losing captures last. The score nextMove
// returns with a move is in its tier: pruning and reductions read it.
const (
	orderTT      = 1 << 30
	orderGood    = 1 << 26
	orderKiller1 = 1 << 24
	orderKiller2 = orderKiller1 - 1
	orderCounter = orderKiller1 - 2
	orderBad     = -(1 << 26)
	// orderUnderPromo orders quiet under-promotions: almost never best.
	orderUnderPromo = orderBad - 1000
)

// The stages of a node's move picker (frame.stage), in the order they run
// from stageTT, stageCaptures (no table move), stageEvasions (in check) or
// stageQsCaptures (quiescence).
const (
	stageTT uint8 = iota
	stageCaptures
	stageGoodCaptures
	stageKiller1
	stageKiller2
	stageCounter
	stageQuiets
	stagePickQuiets
	stagePickBad
	stageEvasions
	stagePickEvasions
	stageQsCaptures
	stageQsGoodCaptures
	stageDone
)

// underPromoKey keeps quiet under-promotions last in stage 2's list (they
// wait for stage 5).
const underPromoKey = math.MinInt32

// isQuiet reports whether m, a move of p, is neither a capture nor a
// promotion: the moves the quiet histories and the correction learn from.
func isQuiet(p *board.Position, m board.Move) bool {
	return p.CapturedPiece(m) == board.NoPiece && m.Kind() != board.Promotion
}

// mvvLva orders captures: most valuable victim first, least valuable attacker next.
func mvvLva(victim, attacker board.PieceType) int32 {
	return int32(seeValue[victim]*8 - int(attacker))
}

// initPicker readies the frame's move picker for a node of the main search
// or of quiescence (qs); ttMove is a legal table move, or NoMove.
func (f *frame) initPicker(ttMove board.Move, inCheck, qs bool) {
	f.ttMove = ttMove
	f.refutations = [3]board.Move{}
	f.evading, f.qs = inCheck, qs
	switch {
	case ttMove != board.NoMove:
		f.stage = stageTT
	case inCheck:
		f.stage = stageEvasions
	case qs:
		f.stage = stageQsCaptures
	default:
		f.stage = stageCaptures
	}
}

// nextMove returns the node's next move in order with its ordering score,
// and false when the moves are used up. Each move comes once; the table's
// move and the killers and countermove are skipped where later stages
// generate them again.
func (t *thread) nextMove(f *frame, ply int) (board.Move, int32, bool) {
	p := t.pos
	for {
		switch f.stage {
		case stageTT:
			switch {
			case f.evading:
				f.stage = stageEvasions
			case f.qs:
				f.stage = stageQsCaptures
			default:
				f.stage = stageCaptures
			}
			return f.ttMove, orderTT, true

		case stageCaptures, stageQsCaptures:
			movegen.Noisy(p, &f.moves)
			t.scoreCaptures(f)
			f.cur, f.end, f.badEnd = 0, f.moves.Len(), 0
			f.stage++

		case stageGoodCaptures, stageQsGoodCaptures:
			if m, key, ok := t.nextGoodCapture(f); ok {
				return m, orderGood + key, true
			}
			if f.stage == stageQsGoodCaptures {
				f.stage = stageDone
				continue
			}
			f.stage = stageKiller1

		case stageKiller1, stageKiller2:
			slot := int(f.stage - stageKiller1)
			f.stage++
			if m := f.killers[slot]; (slot == 0 || m != f.killers[0]) && t.isRefutation(f, m) {
				f.refutations[slot] = m
				return m, orderKiller1 - int32(slot), true
			}

		case stageCounter:
			f.stage++
			if m := t.counterMove(ply); m != f.killers[0] && m != f.killers[1] && t.isRefutation(f, m) {
				f.refutations[2] = m
				return m, orderCounter, true
			}

		case stageQuiets:
			// The losing captures stay at the front of the list.
			f.moves.Truncate(f.badEnd)
			movegen.AppendQuiet(p, &f.moves)
			f.cur, f.end = f.badEnd, f.moves.Len()
			t.scoreQuiets(f, ply)
			sortMoves(f, f.cur, f.end)
			f.stage++

		case stagePickQuiets:
			for f.cur < f.end {
				m, sc := f.moves.At(f.cur), f.scores[f.cur]
				f.cur++
				if m != f.ttMove && m != f.refutations[0] && m != f.refutations[1] && m != f.refutations[2] {
					return m, sc, true
				}
			}
			f.cur, f.end = 0, f.badEnd
			f.stage++

		case stagePickBad:
			if f.cur < f.end {
				m, sc := pickBest(f, f.cur, f.end)
				f.cur++
				return m, sc, true
			}
			f.stage = stageDone

		case stageEvasions:
			movegen.Legal(p, &f.moves)
			t.scoreMoves(f, ply)
			f.cur, f.end = 0, f.moves.Len()
			f.stage++

		case stagePickEvasions:
			for f.cur < f.end {
				m, sc := pickBest(f, f.cur, f.end)
				f.cur++
				if m != f.ttMove {
					return m, sc, true
				}
			}
			f.stage = stageDone

		default:
			return board.NoMove, 0, false
		}
	}
}

// nextGoodCapture picks the best remaining capture of stage 2 by its key
// and returns it when SEE says it does not lose material; one that does
// goes to the front of the list (from badEnd on) with its stage 5 score,
// as do the quiet under-promotions once only they are left. false: no
// good capture is left.
func (t *thread) nextGoodCapture(f *frame) (board.Move, int32, bool) {
	moves := f.moves.Moves()
	for f.cur < f.end {
		m, key := pickBest(f, f.cur, f.end)
		if key == underPromoKey { // only quiet under-promotions are left
			for ; f.cur < f.end; f.cur++ {
				if moves[f.cur] != f.ttMove {
					moves[f.badEnd], f.scores[f.badEnd] = moves[f.cur], orderUnderPromo
					f.badEnd++
				}
			}
			break
		}
		f.cur++
		if m == f.ttMove {
			continue
		}
		if seeNonNegative(t.pos, m) {
			return m, key, true
		}
		moves[f.badEnd], f.scores[f.badEnd] = m, orderBad+key
		f.badEnd++
	}
	return board.NoMove, 0, false
}

// isRefutation reports whether m (a killer or the countermove) is to be
// tried in stage 3: a legal quiet move that is not the table's.
func (t *thread) isRefutation(f *frame, m board.Move) bool {
	return m != board.NoMove && m != f.ttMove && m.Kind() != board.Promotion &&
		t.pos.CapturedPiece(m) == board.NoPiece && movegen.IsLegal(t.pos, m)
}

// counterMove is the move that last refuted the previous ply's move, or
// NoMove (at the root, after a null move).
func (t *thread) counterMove(ply int) board.Move {
	if ply == 0 {
		return board.NoMove
	}
	prev := &t.stack[ply-1]
	if prev.move == board.NoMove || prev.move == board.NullMove {
		return board.NoMove
	}
	return t.counters[prev.piece&15][prev.move.To()]
}

// captureKey is the order of a capture or promotion among the others:
// victim (a pawn for a promotion), attacker, capture history, and a
// queen's worth for a promotion.
func (t *thread) captureKey(m board.Move, captured board.Piece) int32 {
	p := t.pos
	victim := board.Pawn
	if captured != board.NoPiece {
		victim = captured.Type()
	}
	attacker := p.PieceAt(m.From())
	key := mvvLva(victim, attacker.Type()) + int32(t.captHist[attacker&15][m.To()][victim])/int32(tp.captHistDiv)
	if m.Kind() == board.Promotion {
		key += int32(seeValue[board.Queen])
	}
	return key
}

// scoreCaptures fills the frame's scores with stage 2's keys.
func (t *thread) scoreCaptures(f *frame) {
	p := t.pos
	for i, m := range f.moves.Moves() {
		captured := p.CapturedPiece(m)
		if captured == board.NoPiece && m.PromotionType() != board.Queen {
			f.scores[i] = underPromoKey
			continue
		}
		f.scores[i] = t.captureKey(m, captured)
	}
}

// quietScore orders a quiet move: its history and the two continuation
// histories.
func (t *thread) quietScore(m board.Move, cont1, cont2 *[16][64]int16) int32 {
	p := t.pos
	pc, to := p.PieceAt(m.From())&15, m.To()
	return t.history[p.Side()][m.From()][to] + int32(cont1[pc][to]) + int32(cont2[pc][to])
}

// scoreQuiets fills the frame's scores for the quiet moves from f.cur on.
func (t *thread) scoreQuiets(f *frame, ply int) {
	cont1, cont2 := t.contRows(ply)
	moves := f.moves.Moves()
	for i := f.cur; i < f.end; i++ {
		f.scores[i] = t.quietScore(moves[i], cont1, cont2)
	}
}

// scoreMoves fills the frame's scores for all its moves (the evasions of a
// position in check), tier by tier.
func (t *thread) scoreMoves(f *frame, ply int) {
	p := t.pos
	counter := t.counterMove(ply)
	cont1, cont2 := t.contRows(ply)
	for i, m := range f.moves.Moves() {
		var sc int32
		captured := p.CapturedPiece(m)
		switch {
		case m == f.ttMove:
			sc = orderTT
		case captured != board.NoPiece || (m.Kind() == board.Promotion && m.PromotionType() == board.Queen):
			sc = t.captureKey(m, captured)
			if seeNonNegative(p, m) {
				sc += orderGood
			} else {
				sc += orderBad
			}
		case m.Kind() == board.Promotion:
			sc = orderUnderPromo
		case m == f.killers[0]:
			sc = orderKiller1
		case m == f.killers[1]:
			sc = orderKiller2
		case m == counter:
			sc = orderCounter
		default:
			sc = t.quietScore(m, cont1, cont2)
		}
		f.scores[i] = sc
	}
}

// pickBest moves the best-scored move among from..end-1 to position from
// and returns it (selection sort: usually only the first few moves are
// ever looked at).
func pickBest(f *frame, from, end int) (board.Move, int32) {
	moves := f.moves.Moves()[:end]
	scores := f.scores[:end]
	best := from
	for j := from + 1; j < end; j++ {
		if scores[j] > scores[best] {
			best = j
		}
	}
	moves[from], moves[best] = moves[best], moves[from]
	scores[from], scores[best] = scores[best], scores[from]
	return moves[from], scores[from]
}

// sortMoves sorts the moves from..end-1 best first (insertion sort: the
// quiet moves of a node are few, and mostly searched in full once one is).
func sortMoves(f *frame, from, end int) {
	moves := f.moves.Moves()[:end]
	scores := f.scores[:end]
	for i := from + 1; i < end; i++ {
		m, sc := moves[i], scores[i]
		j := i
		for ; j > from && scores[j-1] < sc; j-- {
			moves[j], scores[j] = moves[j-1], scores[j-1]
		}
		moves[j], scores[j] = m, sc
	}
}
