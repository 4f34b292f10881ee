package search

// The histories: what each thread learns about moves as it searches, for
// move ordering (movepick.go) and for pruning and reductions (negamax.go).
// Killers (per ply, in the frame), the countermove, the butterfly history
// of quiet moves, the continuation histories (a quiet move after the moves
// one and two plies back) and the capture history. A move that cuts off
// earns a bonus, the moves tried before it pay one; every value is kept
// within ±historyLimit by gravity. Stockfish keeps these in history.h.

import (
	"github.com/twofold-chess/twofold/board"
	"github.com/twofold-chess/twofold/internal/mathx"
)

// historyLimit bounds every history value (see updateHistory).
const historyLimit = 1 << 14

// historyBonus is what a move that cut off (or refuted) at depth earns.
func historyBonus(depth int) int {
	return min(depth*depth*tp.histBonusMul+max(depth-1, 0)*tp.histBonusLin, tp.histBonusMax)
}

// updateHistory applies a bonus with gravity, keeping values within ±historyLimit.
func updateHistory[T int16 | int32](h *T, bonus int) {
	*h += T(bonus - int(*h)*mathx.Abs(bonus)/historyLimit)
}

// noContRow is the all-zero row used where a ply has no previous move.
var noContRow [16][64]int16

// contRows returns the continuation-history rows of the moves one and two
// plies back: how well a quiet move did after that move was played. A
// missing or null previous move gives the zero row (read-only).
func (t *thread) contRows(ply int) (one, two *[16][64]int16) {
	row := func(back int) *[16][64]int16 {
		if ply < back {
			return &noContRow
		}
		prev := &t.stack[ply-back]
		if prev.move == board.NoMove || prev.move == board.NullMove {
			return &noContRow
		}
		return &t.cont[prev.piece&15][prev.move.To()]
	}
	return row(1), row(2)
}

// rewardQuiet updates killers, countermove and history after a quiet move
// caused a beta cutoff; the quiet moves tried before it are penalised.
func (t *thread) rewardQuiet(f *frame, ply int, m board.Move, depth int, tried []board.Move) {
	if f.killers[0] != m {
		f.killers[1], f.killers[0] = f.killers[0], m
	}
	if ply > 0 {
		prev := &t.stack[ply-1]
		if prev.move != board.NoMove && prev.move != board.NullMove {
			t.counters[prev.piece&15][prev.move.To()] = m
		}
	}
	p := t.pos
	us := p.Side()
	bonus := historyBonus(depth)
	cont1, cont2 := t.contRows(ply)
	for _, q := range tried {
		b := -bonus
		if q == m {
			b = bonus
		}
		pc, to := p.PieceAt(q.From())&15, q.To()
		updateHistory(&t.history[us][q.From()][to], b)
		if cont1 != &noContRow {
			updateHistory(&cont1[pc][to], b)
		}
		if cont2 != &noContRow {
			updateHistory(&cont2[pc][to], b)
		}
	}
}

// rewardPriorQuiet credits the opponent's quiet move that led to a node
// where every move failed low: it refuted all of them.
func (t *thread) rewardPriorQuiet(ply, depth int) {
	if ply == 0 {
		return
	}
	prev := &t.stack[ply-1]
	if !prev.quiet {
		return
	}
	bonus := historyBonus(depth)
	pc, from, to := prev.piece&15, prev.move.From(), prev.move.To()
	updateHistory(&t.history[t.pos.Side().Other()][from][to], bonus)
	if one, _ := t.contRows(ply - 1); one != &noContRow {
		updateHistory(&one[pc][to], bonus)
	}
}

// rewardPriorByEval credits the opponent's quiet move that led to this node
// by how far it moved the static evaluation (Stockfish's evaluation
// difference): a move after which the mover stands better than before it
// earns history, one after which it stands worse pays, at most
// ±tp.evalHistMax. Every node gives it, not only those that cut off, so
// quiet moves gain an order before they are ever searched deeply.
func (t *thread) rewardPriorByEval(ply, staticEval int) {
	prev := &t.stack[ply-1]
	if !prev.quiet || prev.eval == -Infinity {
		return
	}
	// prev.eval is the mover's evaluation before the move, -staticEval its
	// evaluation after it.
	bonus := min(max(-tp.evalHistMul*(prev.eval+staticEval), -tp.evalHistMax), tp.evalHistMax)
	updateHistory(&t.history[t.pos.Side().Other()][prev.move.From()][prev.move.To()], bonus)
}

// rewardCapture updates the capture history after move m caused a beta
// cutoff: m gains if it is a capture, the captures tried before it lose.
func (t *thread) rewardCapture(m board.Move, depth int, tried []board.Move) {
	p := t.pos
	bonus := historyBonus(depth)
	for _, c := range tried {
		b := -bonus
		if c == m {
			b = bonus
		}
		victim := board.Pawn // a promotion without capture counts as taking a pawn
		if captured := p.CapturedPiece(c); captured != board.NoPiece {
			victim = captured.Type()
		}
		updateHistory(&t.captHist[p.PieceAt(c.From())&15][c.To()][victim], b)
	}
}

// clearHistory forgets everything the thread has learnt (a new game).
func (t *thread) clearHistory() {
	t.history = [2][64][64]int32{}
	t.counters = [16][64]board.Move{}
	t.cont = [16][64][16][64]int16{}
	t.captHist = [16][64][8]int16{}
	t.corr = corrHistory{}
}
