package search

// Quiescence search: at the horizon the static evaluation would be taken in
// the middle of an exchange, so captures and promotions (in check, every
// evasion) are searched until the position is quiet. It is a search of its
// own, not negamax at depth 0, because it does far less per node: stand
// pat, delta and SEE pruning instead of the main search's pruning,
// reductions and extensions.

import (
	"github.com/twofold-chess/twofold/board"
	"github.com/twofold-chess/twofold/movegen"
)

// quiescePlyCap is the ply at which quiescence stops and evaluates.
const quiescePlyCap = MaxPly - 1

// quiesce searches captures and promotions until the position is quiet, so
// the static evaluation is never taken in the middle of an exchange. In check
// every evasion is searched.
func (t *thread) quiesce(alpha, beta, ply int) int {
	s := t.s
	p := t.pos
	f := &t.stack[ply]
	if t.enter(ply) {
		return 0
	}
	if isDraw(p) {
		return 0
	}
	inCheck := movegen.InCheck(p)
	if ply >= quiescePlyCap {
		if inCheck {
			return 0
		}
		return t.evaluate(ply)
	}

	key := p.Key()
	tte, hit := s.tt.probe(key)
	if hit {
		score := scoreFromTT(int(tte.score), ply)
		if tte.bound == BoundExact || (tte.bound == BoundLower && score >= beta) ||
			(tte.bound == BoundUpper && score <= alpha) {
			return score
		}
	}

	rawEval, standPat := 0, -Infinity // the raw evaluation is what the table keeps (correction.go)
	bestScore := -Infinity
	if !inCheck {
		if hit {
			rawEval = int(tte.eval)
		} else {
			rawEval = t.evaluate(ply)
		}
		standPat = t.corrected(rawEval)
		if standPat >= beta {
			// The table keeps the evaluation for the next visit. The score returned
			// leans towards beta (fail-firm): no move was searched to show the
			// position is worth more.
			if !hit {
				s.tt.store(key, board.NoMove, scoreToTT(standPat, ply), rawEval, 0, BoundLower)
			}
			return failFirm(standPat, beta)
		}
		alpha = max(alpha, standPat)
		bestScore = standPat
	}
	// The picker returns the table's move first when it is a legal capture
	// or promotion (in check, any legal evasion), then the captures and
	// promotions that do not lose material by SEE (in check, every evasion).
	ttMove := board.NoMove
	if hit && tte.move != board.NoMove && (inCheck || !isQuiet(p, tte.move)) && movegen.IsLegal(p, tte.move) {
		ttMove = tte.move
	}
	f.initPicker(ttMove, inCheck, true)

	bestMove := board.NoMove
	origAlpha := alpha
	for {
		m, _, ok := t.nextMove(f, ply)
		if !ok {
			break
		}
		if !inCheck {
			// Delta pruning: even winning the piece cannot lift alpha.
			captured := p.CapturedPiece(m)
			gain := 0
			if captured != board.NoPiece {
				gain = seeValue[captured.Type()]
			}
			if m.Kind() == board.Promotion {
				gain += seeValue[board.Queen] - seeValue[board.Pawn]
			}
			if standPat+gain+tp.qsDelta <= alpha {
				continue
			}
		}
		s.tt.prefetch(p.KeyAfter(m))
		f.move, f.piece = m, p.PieceAt(m.From())
		t.nnueMove(ply, m)
		p.Make(m)
		score := -t.quiesce(-beta, -alpha, ply+1)
		p.Unmake()
		if t.stopped() {
			return 0
		}
		if score > bestScore {
			bestScore = score
			if score > alpha {
				alpha = score
				bestMove = m
				f.pvLen = t.extendPV(&f.pv, m, ply)
				if score >= beta {
					break
				}
			}
		}
	}
	if bestScore == -Infinity { // in check, and no evasion
		return -MateScore + ply
	}
	bound := boundOf(bestScore, origAlpha, beta)
	s.tt.store(key, bestMove, scoreToTT(bestScore, ply), rawEval, 0, bound)
	return bestScore
}
