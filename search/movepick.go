package search

// Move ordering. Alpha-beta cuts off sooner the sooner it meets the best
// move, so each node's moves are tried in the order below: scored once,
// then picked one at a time (most nodes cut off after a move or two, and
// never look at the rest). Stockfish keeps this in movepick.cpp.

import (
	"github.com/twofold-chess/twofold/board"
	"github.com/twofold-chess/twofold/movegen"
)

// Move-ordering tiers: the TT move, then winning and equal captures and
// queen promotions (by victim, then attacker), killers, the countermove,
// quiet moves by history, and losing captures last.
const (
	orderTT      = 1 << 30
	orderGood    = 1 << 26
	orderKiller1 = 1 << 24
	orderKiller2 = orderKiller1 - 1
	orderCounter = orderKiller1 - 2
	orderBad     = -(1 << 26)
)

// mvvLva orders captures: most valuable victim first, least valuable attacker next.
func mvvLva(victim, attacker board.PieceType) int32 {
	return int32(seeValue[victim]*8 - int(attacker))
}

// orderMoves prepares the frame's moves for nextMove. A table move (legal:
// the caller has checked) goes first, before the others are even
// generated: it cuts off often enough that generating and scoring them
// (SEE for every capture) is left until it has failed to (nextMove at
// i = 1), when they are scored with the histories its subtree has updated.
// Without one, the caller has generated the moves and they are scored now.
func (t *thread) orderMoves(f *frame, ply int, ttMove board.Move) {
	f.ttMove = ttMove
	f.unscored = ttMove != board.NoMove
	if !f.unscored {
		t.scoreMoves(f, ply, ttMove, 0)
	}
}

// nextMove returns the i-th move in order with its ordering score, and
// false when the moves are used up.
func (t *thread) nextMove(f *frame, ply, i int) (board.Move, int32, bool) {
	if f.unscored {
		if i == 0 {
			return f.ttMove, orderTT, true
		}
		// The table's move failed to cut off: generate the moves, put it
		// first (where it would have been swapped to) and score the rest.
		movegen.Legal(t.pos, &f.moves)
		moves := f.moves.Moves()
		for j, m := range moves {
			if m == f.ttMove {
				moves[0], moves[j] = moves[j], moves[0]
				break
			}
		}
		f.scores[0] = orderTT
		t.scoreMoves(f, ply, f.ttMove, 1)
		f.unscored = false
	}
	if i >= f.moves.Len() {
		return board.NoMove, 0, false
	}
	m, sc := pickMove(f, i)
	return m, sc, true
}

// scoreMoves fills the frame's scores for its moves from index from on.
func (t *thread) scoreMoves(f *frame, ply int, ttMove board.Move, from int) {
	p := t.pos
	us := p.Side()
	var counter board.Move
	if ply > 0 {
		prev := &t.stack[ply-1]
		if prev.move != board.NoMove && prev.move != board.NullMove {
			counter = t.counters[prev.piece&15][prev.move.To()]
		}
	}
	cont1, cont2 := t.contRows(ply)
	for i := from; i < f.moves.Len(); i++ {
		m := f.moves.At(i)
		var sc int32
		captured := p.CapturedPiece(m)
		switch {
		case m == ttMove:
			sc = orderTT
		case captured != board.NoPiece || (m.Kind() == board.Promotion && m.PromotionType() == board.Queen):
			victim := board.Pawn
			if captured != board.NoPiece {
				victim = captured.Type()
			}
			attacker := p.PieceAt(m.From())
			sc = mvvLva(victim, attacker.Type()) + int32(t.captHist[attacker&15][m.To()][victim])/int32(tp.captHistDiv)
			if m.Kind() == board.Promotion {
				sc += int32(seeValue[board.Queen])
			}
			if SEE(p, m) >= 0 {
				sc += orderGood
			} else {
				sc += orderBad
			}
		case m.Kind() == board.Promotion:
			sc = orderBad - 1000 // under-promotions: almost never best
		case m == f.killers[0]:
			sc = orderKiller1
		case m == f.killers[1]:
			sc = orderKiller2
		case m == counter:
			sc = orderCounter
		default:
			pc, to := p.PieceAt(m.From())&15, m.To()
			sc = t.history[us][m.From()][to] + int32(cont1[pc][to]) + int32(cont2[pc][to])
		}
		f.scores[i] = sc
	}
}

// pickMove moves the best-scored move among i.. to position i and returns it
// (selection sort: usually only the first few moves are ever looked at).
func pickMove(f *frame, i int) (board.Move, int32) {
	moves := f.moves.Moves()
	best := i
	for j := i + 1; j < len(moves); j++ {
		if f.scores[j] > f.scores[best] {
			best = j
		}
	}
	moves[i], moves[best] = moves[best], moves[i]
	f.scores[i], f.scores[best] = f.scores[best], f.scores[i]
	return moves[i], f.scores[i]
}
