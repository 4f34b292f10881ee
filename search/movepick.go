package search

// Move ordering. Alpha-beta cuts off sooner the sooner it meets the best
// move, so each node's moves are tried in the order below: scored once,
// then picked one at a time (most nodes cut off after a move or two, and
// never look at the rest). Stockfish keeps this in movepick.cpp.

import "github.com/twofold-chess/twofold/board"

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

// orderMoves prepares the frame's moves for pickMove. The table's move,
// when legal, goes first unscored: it cuts off often enough that scoring the
// others (SEE for every capture) is left until it has failed to (nextMove at
// i = 1), when they are scored with the histories its subtree has updated.
func (t *thread) orderMoves(f *frame, ply int, ttMove board.Move) {
	moves := f.moves.Moves()
	for i, m := range moves {
		if m == ttMove {
			moves[0], moves[i] = moves[i], moves[0]
			f.scores[0] = orderTT
			f.unscored = true
			return
		}
	}
	f.unscored = false
	t.scoreMoves(f, ply, ttMove, 0)
}

// nextMove returns the i-th move in order with its ordering score.
func (t *thread) nextMove(f *frame, ply, i int) (board.Move, int32) {
	if i == 1 && f.unscored {
		t.scoreMoves(f, ply, f.moves.At(0), 1)
		f.unscored = false
	}
	return pickMove(f, i)
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
