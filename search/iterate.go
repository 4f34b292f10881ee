package search

// Iterative deepening: each thread searches the root to depth 1, 2, 3, ...
// until a limit or a stop, each iteration inside an aspiration window
// around the last score (widened on a fail), so the table and histories of
// one iteration order the next and a search can stop at any time with the
// last finished iteration's move. The root moves are searched here rather
// than by negamax because each keeps its own score, PV and node count for
// MultiPV, reports and time management.

import (
	"sort"
	"time"

	"github.com/twofold-chess/twofold/board"
	"github.com/twofold-chess/twofold/mind"
	"github.com/twofold-chess/twofold/movegen"
	"github.com/twofold-chess/twofold/timeman"
)

// iterate is iterative deepening with aspiration windows, for one thread.
// Helper threads (id > 0) search the same tree, sharing the table; some of
// them skip depths so they run ahead and diversify (Lazy SMP).
func (t *thread) iterate() {
	s := t.s
	maxDepth := MaxPly - 4
	if s.limits.Depth > 0 {
		maxDepth = min(s.limits.Depth, maxDepth)
	}
	multiPV := min(s.opts.MultiPV, len(t.rootMoves))
	var lastBest board.Move
	stableIterations := 0
	exhaustedIterations := 0
	lastScore := 0
	for depth := 1; depth <= maxDepth; depth++ {
		if t.id > 0 && depth > 1 && (depth+t.id)%3 == 0 {
			continue
		}
		t.rootDepth = depth
		t.nearHorizon = false
		for i := range t.rootMoves {
			t.rootMoves[i].prevScore = t.rootMoves[i].score
			t.rootMoves[i].passScore = -Infinity
		}
		for t.pvIdx = 0; t.pvIdx < multiPV; t.pvIdx++ {
			t.aspiration(depth)
			sort.SliceStable(t.rootMoves[:t.pvIdx+1], func(i, j int) bool {
				return t.rootMoves[i].score > t.rootMoves[j].score
			})
			if s.stop.Load() {
				break
			}
		}
		if s.stop.Load() {
			t.interrupted = true
			break
		}
		t.completedDepth = depth
		if t.id != 0 {
			continue
		}
		// Report the lines once all are searched: a later line may still
		// overtake an earlier one, and each move is to be reported once.
		for i := 0; i < multiPV; i++ {
			t.reportLine(depth, i)
		}

		// Between iterations: the mate and soft-time stops of the main thread.
		best := t.rootMoves[0]
		if s.limits.Mate > 0 && IsMate(best.score) && best.score > 0 && MateIn(best.score) <= s.limits.Mate {
			break
		}
		if best.move == lastBest {
			stableIterations++
		} else {
			stableIterations = 0
		}
		lastBest = best.move
		progress := timeman.Progress{
			Iterations: depth, StableIterations: stableIterations, ScoreDrop: lastScore - best.score,
			BestMoveShare: float64(best.nodes) / float64(max(t.nodes, 1)),
		}
		if !s.pondering.Load() && s.clock.SoftStop(progress) {
			break
		}
		if t.nearHorizon {
			exhaustedIterations = 0
		} else {
			exhaustedIterations++
		}
		if s.limits.Depth == 0 && proven(best.score, depth, stableIterations, exhaustedIterations, best.score == lastScore) {
			break // deeper iterations would only repeat this line
		}
		lastScore = best.score
		if n := s.nodes(); (s.limits.Nodes > 0 && n >= s.limits.Nodes) || (s.limits.SoftNodes > 0 && n >= s.limits.SoftNodes) {
			break
		}
	}
	// The helpers stop when Search sets stop, after an infinite or ponder
	// search has been released: setting it here would end that wait at once.
}

// aspiration searches the root for MultiPV line pvIdx at depth, within a
// window around the line's score of the iteration before (from depth 5 on),
// widened on the side it fails on until the score falls inside, or the
// search stops.
func (t *thread) aspiration(depth int) {
	t.selDepth = 0
	prev := t.rootMoves[t.pvIdx].prevScore
	alpha, beta, delta := -Infinity, Infinity, tp.aspDelta
	if depth >= 5 && !IsMate(prev) {
		alpha, beta = max(prev-delta, -Infinity), min(prev+delta, Infinity)
	}
	for {
		t.passAlpha, t.passBeta = alpha, beta
		score := t.rootSearch(alpha, beta, depth)
		sort.SliceStable(t.rootMoves[t.pvIdx:], func(i, j int) bool {
			return t.rootMoves[t.pvIdx+i].score > t.rootMoves[t.pvIdx+j].score
		})
		if t.s.stop.Load() {
			return
		}
		if t.pvIdx == 0 {
			t.lastScore = t.rootMoves[0].score
		}
		if score <= alpha {
			beta = (alpha + beta) / 2
			alpha = max(score-delta, -Infinity)
		} else if score >= beta {
			beta = min(score+delta, Infinity)
		} else {
			return
		}
		delta += delta / 2
	}
}

// horizonMargin is the remaining depth from which a node counts as near
// the horizon: depth-dependent pruning (futility, razoring, late-move
// pruning) happens only there, so an iteration that never came this close
// searched a tree that more depth cannot change but for reductions.
const horizonMargin = 8

// proven reports whether iterative deepening has nothing left to find, so a
// search without a depth limit stops deepening (an infinite one then waits
// for stop) instead of printing the same line up to the maximum depth in a
// millisecond: a mate that has held for two iterations at a depth of at
// least twice its distance plus two, or a tree that has stayed clear of the
// horizon for two iterations (K v K, where every line is a draw at once),
// with the best move and score unchanged.
func proven(score, depth, stableIterations, exhaustedIterations int, sameScore bool) bool {
	if stableIterations < 2 || !sameScore {
		return false
	}
	if IsMate(score) {
		plies := MateScore - max(score, -score)
		return depth >= 2*plies+2
	}
	return exhaustedIterations >= 2
}

// rootSearch searches the root moves from pvIdx on, recording each move's
// score and PV, and returns the best score.
func (t *thread) rootSearch(alpha, beta, depth int) int {
	s := t.s
	p := t.pos
	best := -Infinity
	for i := t.pvIdx; i < len(t.rootMoves); i++ {
		t.rootMoves[i].score = -Infinity
	}
	// The root's eval on the same scale as the nodes' (the network's), for
	// the improving test two plies down.
	t.stack[0].eval = -Infinity
	if !movegen.InCheck(p) {
		t.stack[0].eval = t.evaluate(0)
	}
	t.stack[0].doubleExt = false
	showCurr := t.id == 0 && s.report != nil && s.elapsed() > 3*time.Second
	for i := t.pvIdx; i < len(t.rootMoves); i++ {
		rm := &t.rootMoves[i]
		m := rm.move
		if showCurr {
			s.report(mind.Info{Depth: depth, CurrMove: m, CurrMoveNumber: i + 1})
		}
		quiet := isQuiet(p, m)
		t.stack[0].move, t.stack[0].piece, t.stack[0].quiet = m, p.PieceAt(m.From()), quiet
		p.Make(m)
		nodesBefore := t.nodes
		t.nodes++
		newDepth := depth - 1
		if movegen.InCheck(p) {
			newDepth++
		}
		var score int
		if i == t.pvIdx {
			score = -t.search(-beta, -alpha, newDepth, 1, false)
		} else {
			r := 0
			if depth >= 3 && quiet && i-t.pvIdx >= 3 {
				r = lmrTable[depth][i-t.pvIdx+1] / 2
			}
			score = -t.search(-alpha-1, -alpha, newDepth-r, 1, true)
			if score > alpha && r > 0 {
				score = -t.search(-alpha-1, -alpha, newDepth, 1, true)
			}
			if score > alpha && score < beta {
				score = -t.search(-beta, -alpha, newDepth, 1, false)
			}
		}
		p.Unmake()
		rm.nodes += t.nodes - nodesBefore
		if s.stop.Load() { // an interrupted move's score means nothing
			return best
		}
		if i == t.pvIdx || score > alpha {
			rm.score = score
			rm.passScore, rm.passBound = score, boundOf(score, alpha, beta)
			rm.selDepth = t.selDepth
			rm.pvLen = t.extendPV(&rm.pv, m, 0)
		}
		if score > best {
			best = score
		}
		if score > alpha {
			alpha = score
			if score >= beta {
				return best
			}
		}
	}
	return best
}
