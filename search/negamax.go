package search

// The main search below the root: principal-variation negamax. A node
// reads as the steps it takes, in order: entry (draws, mate distance), the
// table, the tablebases (tablebase.go), the static evaluation (corrected by
// correction.go), node pruning (pruneNode), internal iterative reduction,
// the table move's legality, the singular extension (singular), the move
// loop (searchMoves, with pruneMove and late-move reductions; the moves are
// generated in stages as it goes, movepick.go), and the store (and the
// correction's update), or mate or stalemate when there was no move.
// The root is searched in iterate.go, quiescence in quiesce.go.

import (
	"github.com/twofold-chess/twofold/board"
	"github.com/twofold-chess/twofold/movegen"
)

// isDraw reports the draws a search scores as 0 inside the tree. The
// fifty-move rule holds unless the position is checkmate (movegen.GameStatus
// decides, as for the game); only a position in check can be, so only there
// are its moves generated. Searching on past the rule would put moves after
// the game's end into the PV.
func isDraw(p *board.Position) bool {
	if p.IsRepetition() || p.InsufficientMaterial() {
		return true
	}
	return p.FiftyMoveRule() && (!movegen.InCheck(p) || movegen.GameStatus(p) != movegen.Checkmate)
}

// search is the principal-variation negamax for a node below the root.
func (t *thread) search(alpha, beta, depth, ply int, cutNode bool) int {
	if depth <= horizonMargin {
		t.nearHorizon = true
		if depth <= 0 {
			return t.quiesce(alpha, beta, ply)
		}
	}
	s := t.s
	p := t.pos
	f := &t.stack[ply]
	if t.enter(ply) {
		return 0
	}
	pvNode := beta-alpha > 1

	if isDraw(p) {
		return 0
	}
	if ply >= MaxPly-4 {
		return t.evaluate(ply)
	}
	// Mate-distance pruning: no result here can beat a mate found nearer the root.
	alpha = max(alpha, -MateScore+ply)
	beta = min(beta, MateScore-ply-1)
	if alpha >= beta {
		return alpha
	}

	// A singular-extension search of this node (excluded set) looks at the
	// other moves only: the table's entry is the full node's, so it neither
	// cuts nor stores, and the pruning below already failed to cut here.
	excluded := f.excluded
	key := p.Key()
	tte, hit := s.tt.probe(key)
	ttMove := board.NoMove
	ttScore := 0
	if hit {
		ttMove = tte.move
		ttScore = scoreFromTT(int(tte.score), ply)
		score := ttScore
		if !pvNode && excluded == board.NoMove && int(tte.depth) >= depth &&
			(tte.bound == BoundExact ||
				(tte.bound == BoundLower && score >= beta) ||
				(tte.bound == BoundUpper && score <= alpha)) {
			return score
		}
	}

	// Tablebases: right after a capture or pawn move, a position with few
	// enough pieces has its result in the tables. A result that settles the
	// window is the node's; in a PV node one that does not still bounds it.
	origAlpha, tbMin, tbMax := alpha, -Infinity, Infinity
	if s.tbCard > 0 && excluded == board.NoMove {
		if score, bound, ok := t.probeTB(depth, ply); ok {
			if bound == BoundExact || (bound == BoundLower && score >= beta) || (bound == BoundUpper && score <= alpha) {
				eval := -Infinity
				if !movegen.InCheck(p) {
					eval = t.evaluate(ply)
				}
				s.tt.store(key, board.NoMove, scoreToTT(score, ply), eval, min(depth+6, MaxPly-1), bound)
				return score
			}
			if pvNode {
				if bound == BoundLower {
					tbMin, alpha = score, max(alpha, score)
				} else {
					tbMax = score
				}
			}
		}
	}

	// The static evaluation: the raw one (kept in the table) and the one
	// the pruning uses, corrected by what searches of this pawn structure
	// found (correction.go).
	inCheck := movegen.InCheck(p)
	rawEval, staticEval := -Infinity, -Infinity
	improving := false
	if !inCheck {
		if hit {
			rawEval = int(tte.eval)
		} else {
			rawEval = t.evaluate(ply)
		}
		staticEval = t.corrected(rawEval)
		improving = t.improving(ply, staticEval)
	}
	f.eval = staticEval
	if !inCheck && excluded == board.NoMove && ply > 0 {
		t.rewardPriorByEval(ply, staticEval)
	}

	if !pvNode && !inCheck && excluded == board.NoMove {
		ttFailsLow := hit && tte.bound == BoundUpper && ttScore < beta
		if score, ok := t.pruneNode(alpha, beta, depth, ply, cutNode, staticEval, improving, ttFailsLow); ok {
			return score
		}
	}

	// Internal iterative reduction: without a TT move the ordering is poor,
	// so spend less here and let the next iteration find the move.
	if depth >= 4 && ttMove == board.NoMove && (pvNode || cutNode) {
		depth--
	}

	// The moves are generated in stages as they are tried (movepick.go),
	// the table's move first and before the others: it must be legal here.
	if ttMove != board.NoMove && !movegen.IsLegal(p, ttMove) {
		ttMove = board.NoMove
	}

	// Singular extension: is the table's move far better than the others?
	ttExt := 0
	if excluded == board.NoMove && depth >= singularDepth && ttMove != board.NoMove &&
		int(tte.depth) >= depth-3 && tte.bound&BoundLower != 0 && !isDecisive(ttScore) {
		ext, score, cut := t.singular(beta, depth, ply, pvNode, cutNode, ttMove, ttScore)
		if cut {
			return score
		}
		ttExt = ext
	}

	bestScore, bestMove, ok := t.searchMoves(alpha, beta, depth, ply, pvNode, cutNode, inCheck, improving, staticEval, ttMove, ttExt)
	if !ok {
		return 0
	}

	if bestScore == -Infinity { // no legal move but the excluded one, or none at all
		switch {
		case excluded != board.NoMove:
			return alpha
		case inCheck:
			return -MateScore + ply
		}
		return 0
	}
	bestScore = min(max(bestScore, tbMin), tbMax)
	if excluded == board.NoMove {
		if bestScore <= origAlpha {
			t.rewardPriorQuiet(ply, depth)
		}
		bound := boundOf(bestScore, origAlpha, beta)
		// The result says something about the evaluation when no capture
		// or promotion decided it and its bound lies on the evaluation's
		// far side.
		quietResult := !inCheck && (bestMove == board.NoMove || isQuiet(p, bestMove))
		boundsEval := !(bound == BoundLower && bestScore <= staticEval) && !(bound == BoundUpper && bestScore >= staticEval)
		if quietResult && boundsEval {
			t.updateCorrection(rawEval, bestScore, depth)
		}
		s.tt.store(key, bestMove, scoreToTT(bestScore, ply), rawEval, depth, bound)
	}
	return bestScore
}

// searchMoves is the move loop of a node. It tries the moves in order,
// skips those pruneMove rules out, searches the first with the full window
// and the others with a null window (principal variation search), reduced
// the later and the worse their history (late-move reductions), and
// re-searches those that beat alpha; a beta cutoff rewards the move in the
// histories. It returns the best score (-Infinity when no move was
// searched) and move, and false when the search must unwind.
func (t *thread) searchMoves(alpha, beta, depth, ply int, pvNode, cutNode, inCheck, improving bool, staticEval int, ttMove board.Move, ttExt int) (bestScore int, bestMove board.Move, ok bool) {
	s := t.s
	p := t.pos
	f := &t.stack[ply]
	excluded := f.excluded
	f.initPicker(ttMove, inCheck, false)

	us := p.Side()
	bestScore, bestMove = -Infinity, board.NoMove
	quietsTried, capturesTried := 0, 0
	var quiets, captures [64]board.Move
	lmpLimit := (tp.lmpBase + depth*depth) / (2 - boolInt(improving))
	cont1, cont2 := t.contRows(ply)
	// Moves are tested for check through a CheckInfo from the second on:
	// most nodes that stop at their first move never pay for building one.
	var checks movegen.CheckInfo
	tested := 0
	for i := 0; ; i++ {
		m, order, ok := t.nextMove(f, ply)
		if !ok {
			break
		}
		if m == excluded {
			continue
		}
		quiet := isQuiet(p, m)
		var givesCheck bool
		if tested == 0 {
			givesCheck = movegen.GivesCheck(p, m)
		} else {
			if tested == 1 {
				checks = movegen.NewCheckInfo(p)
			}
			givesCheck = checks.GivesCheck(p, m)
		}
		tested++

		if bestScore > -TBWinBound && !pvNode && !inCheck && p.NonPawnMaterial(us) &&
			t.pruneMove(m, i, order, quiet, givesCheck, depth, alpha, staticEval, quietsTried, lmpLimit) {
			continue
		}

		s.tt.prefetch(p.KeyAfter(m))
		f.move, f.piece, f.quiet = m, p.PieceAt(m.From()), quiet
		t.nnueMove(ply, m)
		p.Make(m)
		ext := 0
		if m == ttMove {
			ext = ttExt
		}
		if givesCheck && ext == 0 {
			ext = 1
		}
		f.doubleExt = ext >= 2
		newDepth := depth - 1 + ext
		var score int
		if i == 0 {
			score = -t.search(-beta, -alpha, newDepth, ply+1, false)
		} else {
			r := 0
			if depth >= 3 && i >= 1+boolInt(pvNode) && (quiet || order < 0) {
				r = lmrTable[depth][i+1]
				r += boolInt(!improving) + boolInt(cutNode) - boolInt(pvNode) - boolInt(givesCheck)
				if quiet {
					// Killers and the countermove are ordered by their slot, not
					// their history: one ply less; the rest by history plus the
					// two continuation tables.
					if order >= orderCounter {
						r--
					}
					pc, to := f.piece&15, m.To()
					hist := int(t.history[us][m.From()][to]) + int(cont1[pc][to]) + int(cont2[pc][to])
					r -= hist / tp.lmrHistDiv
				}
				r = min(max(r, 0), newDepth-1)
			}
			score = -t.search(-alpha-1, -alpha, newDepth-r, ply+1, true)
			if score > alpha && r > 0 {
				// The reduced search beat alpha: re-search at full depth, a
				// ply deeper when it beat the best by far, a ply shallower
				// when only just.
				if bestScore > -Infinity {
					newDepth += boolInt(score > bestScore+tp.lmrDeeper+2*newDepth) - boolInt(score < bestScore+tp.lmrShallower)
				}
				score = -t.search(-alpha-1, -alpha, newDepth, ply+1, !cutNode)
			}
			if pvNode && score > alpha && score < beta {
				score = -t.search(-beta, -alpha, newDepth, ply+1, false)
			}
		}
		p.Unmake()
		if t.stopped() {
			return 0, board.NoMove, false
		}
		if quiet {
			if quietsTried < len(quiets) {
				quiets[quietsTried] = m
			}
			quietsTried++
		} else {
			if capturesTried < len(captures) {
				captures[capturesTried] = m
			}
			capturesTried++
		}

		if score > bestScore {
			bestScore = score
			if score > alpha {
				bestMove = m
				alpha = score
				if pvNode {
					f.pvLen = t.extendPV(&f.pv, m, ply)
				}
				if score >= beta {
					if quiet {
						t.rewardQuiet(f, ply, m, depth, quiets[:min(quietsTried, len(quiets))])
					}
					t.rewardCapture(m, depth, captures[:min(capturesTried, len(captures))])
					break
				}
			}
		}
	}
	return bestScore, bestMove, true
}

// pruneMove reports whether a move of a non-PV node that is not in check
// can be left unsearched at low depth: late-move, futility, SEE and history
// pruning of quiet moves, SEE pruning of the others. i is the move's index
// in the node, order its ordering score, quietsTried the quiet moves
// searched before it.
func (t *thread) pruneMove(m board.Move, i int, order int32, quiet, givesCheck bool, depth, alpha, staticEval, quietsTried, lmpLimit int) bool {
	p := t.pos
	// Checking moves are never pruned: quiet checks and check
	// sacrifices are where short mates hide.
	if quiet && !givesCheck {
		// Late-move and futility pruning of quiet moves at low depth.
		if depth <= 8 && quietsTried >= lmpLimit {
			return true
		}
		// Futility and SEE pruning judge a history-ordered move by the
		// depth its late-move reduction would search it at, not the
		// node's: a late move with poor history is cut from deeper nodes.
		if order < orderCounter {
			lmrDepth := max(depth-1-lmrTable[depth][i+1]+int(order)/tp.lmrHistDiv, 0)
			if lmrDepth <= 6 && (staticEval+tp.futBase+tp.futDepth*lmrDepth <= alpha ||
				SEE(p, m) < -tp.seeQuiet*lmrDepth) {
				return true
			}
		}
		// History pruning: moves that have kept failing here before.
		if depth <= 4 && int(order) < -tp.histPruneDepth*depth {
			return true
		}
	} else if depth <= 6 && order < orderGood && SEE(p, m) < -tp.seeNoisy*depth {
		return true
	}
	return false
}

// pruneNode tries to cut a non-PV node that is not in check before its
// moves are generated, on the strength of its static evaluation: reverse
// futility, razoring and the null move. It returns the node's score and
// true when one of them cuts. ttFailsLow: the table's entry is an upper
// bound below beta.
func (t *thread) pruneNode(alpha, beta, depth, ply int, cutNode bool, staticEval int, improving, ttFailsLow bool) (int, bool) {
	p := t.pos
	// Reverse futility: far above beta at low depth, a quiet move will not fall back.
	// The score returned lies between the evaluation and beta (fail-firm): the
	// evaluation alone overstates what a search would find.
	if depth <= 8 && staticEval-tp.rfpMargin*depth+tp.rfpImproving*boolInt(improving) >= beta && staticEval < MateBound {
		return failFirm(staticEval, beta), true
	}
	// Razoring: far below alpha near the horizon, only a capture could
	// help, and quiescence tells whether one does.
	if depth <= 3 && staticEval+tp.razorMargin*depth <= alpha {
		if score := t.quiesce(alpha, alpha+1, ply); score <= alpha {
			return score, true
		}
	}
	// Null move: if passing still fails high, a real move will too (not in
	// pawn endings, where zugzwang makes passing a poor guide).
	// A table entry that failed low below beta says passing will too.
	if depth >= 3 && staticEval >= beta && p.NonPawnMaterial(p.Side()) &&
		ply > 0 && t.stack[ply-1].move != board.NullMove && !ttFailsLow {
		return t.nullMove(beta, depth, ply, cutNode, staticEval)
	}
	return 0, false
}

// failFirm is the score of a cut made on the evaluation alone (reverse
// futility, the quiescence stand pat): halfway between the evaluation and
// beta, since no move was searched to show more; at a decisive beta the
// evaluation itself, so that mate and tablebase bounds stay exact.
func failFirm(eval, beta int) int {
	if isDecisive(beta) {
		return eval
	}
	return (eval + beta) / 2
}

// nullMove passes the move and searches the reply at reduced depth with a
// null window at beta. It returns the node's score and true when passing
// still fails high (or the search must unwind).
func (t *thread) nullMove(beta, depth, ply int, cutNode bool, staticEval int) (int, bool) {
	p := t.pos
	f := &t.stack[ply]
	r := tp.nmpBase + depth/tp.nmpDepthDiv + min((staticEval-beta)/tp.nmpEvalDiv, 3)
	f.move, f.piece, f.doubleExt, f.quiet = board.NullMove, board.NoPiece, false, false
	t.nnueNull(ply)
	p.MakeNull()
	t.s.tt.prefetch(p.Key())
	score := -t.search(-beta, -beta+1, depth-r, ply+1, !cutNode)
	p.UnmakeNull()
	if t.stopped() {
		return 0, true
	}
	if score >= beta {
		if score >= TBWinBound { // no unproven mate or tablebase win
			score = beta
		}
		return score, true
	}
	return 0, false
}

// singular is the singular-extension test of the table's move at a node
// whose entry is a deep enough lower bound: when it beats every other move
// by a margin at reduced depth, it is searched one ply deeper (two when far
// ahead); when another move also reaches beta the node is cut at once
// (multi-cut), and when the table's move alone is expected to fail high it
// is searched a ply shallower. It returns the extension of ttMove, or the
// node's score and true when the node is cut (or the search must unwind).
func (t *thread) singular(beta, depth, ply int, pvNode, cutNode bool, ttMove board.Move, ttScore int) (ext, score int, cut bool) {
	f := &t.stack[ply]
	singularBeta := ttScore - tp.singularMargin*depth
	f.excluded = ttMove
	score = t.search(singularBeta-1, singularBeta, (depth-1)/2, ply, cutNode)
	f.excluded = board.NoMove
	if t.stopped() {
		return 0, 0, true
	}
	switch {
	case score < singularBeta:
		ext = 1
		if !pvNode && score < singularBeta-tp.doubleExtMargin && t.doubleExts(ply) < maxDoubleExts {
			ext = 2
		}
	case singularBeta >= beta:
		return 0, singularBeta, true
	case ttScore >= beta:
		ext = -1
	}
	return ext, 0, false
}

// Singular extensions: the least depth they are tried at, and how many
// double extensions one line may hold (each one grows the tree).
const (
	singularDepth = 8
	maxDoubleExts = 6
)

// doubleExts counts the double extensions on the line from the root to ply.
func (t *thread) doubleExts(ply int) int {
	n := 0
	for i := 0; i < ply; i++ {
		n += boolInt(t.stack[i].doubleExt)
	}
	return n
}

// improving reports whether the static eval has risen since this side's
// last move; when that node was in check (no eval), the one before it.
func (t *thread) improving(ply, staticEval int) bool {
	switch {
	case ply >= 2 && t.stack[ply-2].eval != -Infinity:
		return staticEval > t.stack[ply-2].eval
	case ply >= 4 && t.stack[ply-4].eval != -Infinity:
		return staticEval > t.stack[ply-4].eval
	}
	return true
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
