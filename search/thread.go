package search

// A search thread: one worker of Lazy SMP with its own copy of the
// position, its stack of per-ply frames, its root moves and its histories,
// sharing only the transposition table and the stop flag with the others.
// Here too is what every node does on entry (count itself, check the
// limits) and the PV bookkeeping the searches share.

import (
	"sync/atomic"

	"github.com/twofold-chess/twofold/board"
	"github.com/twofold-chess/twofold/movegen"
)

// rootMove is one legal move at the root with its latest result.
type rootMove struct {
	move      board.Move
	score     int // this iteration's score; -Infinity if not (fully) searched
	prevScore int
	// passScore and passBound: the move's result in the latest aspiration
	// pass of this iteration that scored it. A move that failed high and so
	// came first, then was cut short in the re-search, is reported by them.
	passScore int
	passBound Bound
	selDepth  int
	nodes     uint64 // nodes spent under this move in this search (main thread), for time management
	pv        [MaxPly]board.Move
	pvLen     int
	tbScore   int // the tables' score of the move, when the root is in them (Searcher.rootInTB)
}

// frame is the per-ply state of a thread's search stack.
type frame struct {
	moves  movegen.MoveList
	scores [movegen.MaxMoves]int32
	// The move picker (movepick.go): its stage, the table's move, the
	// killers and countermove it has returned (NoMove where not), the next
	// and end indices of the moves being picked, and the end of the losing
	// captures kept at the front of moves.
	stage       uint8
	evading     bool
	qs          bool // a quiescence node: after the table's move, the good captures only
	ttMove      board.Move
	refutations [3]board.Move
	cur, end    int
	badEnd      int
	killers     [2]board.Move
	eval        int
	// excluded is the move a singular-extension search of this node leaves out.
	excluded  board.Move
	doubleExt bool        // the move made from this ply was extended by two plies
	quiet     bool        // the move made from this ply is neither capture nor promotion
	move      board.Move  // the move made from this ply
	piece     board.Piece // the piece that made it
	pv        [MaxPly]board.Move
	pvLen     int
}

// thread is one search worker with its own position, stack and histories.
type thread struct {
	s              *Searcher
	id             int
	pos            *board.Position
	nodes          uint64
	published      atomic.Uint64
	selDepth       int
	rootMoves      []rootMove
	pvIdx          int
	completedDepth int
	lastScore      int // best score of the last aspiration pass that finished
	rootDepth      int // the iteration under way (or last finished)
	passAlpha      int // the window of the root pass under way
	passBeta       int
	nearHorizon    bool       // this iteration reached a node within horizonMargin of the horizon
	interrupted    bool       // stop or a limit ended the search inside an iteration
	reportedBest   board.Move // the move of the last line 1 reported
	stack          [MaxPly + 4]frame
	history        [2][64][64]int32
	counters       [16][64]board.Move
	cont           [16][64][16][64]int16 // continuation history: [prev piece][prev to][piece][to]
	captHist       [16][64][8]int16      // capture history: [piece][to][captured type]
	corr           corrHistory           // static-evaluation corrections by pawn structure (correction.go)
	correcting     bool                  // corr applies: full strength only
	nn             nnueStack             // the network's accumulators, when Options.Network is set
	tbHits         atomic.Uint64         // positions found in the tablebases
}

// prepare readies the thread for a search of p from the given root moves.
func (t *thread) prepare(p *board.Position, root []rootMove) {
	t.pos = p.Clone()
	t.nodes = 0
	t.published.Store(0)
	t.tbHits.Store(0)
	t.completedDepth = 0
	t.lastScore = 0
	t.rootDepth = 0
	t.interrupted = false
	t.reportedBest = board.NoMove
	t.rootMoves = append(t.rootMoves[:0], root...)
	for i := range t.stack {
		t.stack[i].killers = [2]board.Move{}
	}
	t.correcting = !t.s.opts.Strength.Limited()
	t.nnuePrepare()
}

// checkLimits publishes the node count and stops on the hard limits; it runs
// every 1024 nodes of every thread.
func (t *thread) checkLimits() {
	t.published.Store(t.nodes)
	s := t.s
	if t.id != 0 || s.pondering.Load() {
		return
	}
	if s.clock.HardStop() || (s.limits.Nodes > 0 && s.nodes() >= s.limits.Nodes) {
		s.stop.Store(true)
	}
}

// stopped reports whether the search must unwind now. It holds inside the
// first iteration too: in positions with many queens depth 1 alone can take
// a minute, and stop and the clock must still be obeyed (the root moves are
// legal, so whatever was reached is a legal answer).
func (t *thread) stopped() bool { return t.s.stop.Load() }

// enter starts a node: it clears the node's PV, counts it, checks the limits
// every 1024 nodes and tracks the selective depth. It reports whether the
// search must unwind instead.
func (t *thread) enter(ply int) bool {
	t.stack[ply].pvLen = 0
	t.nodes++
	if verifyNNUE {
		t.nnueVerify(ply)
	}
	if t.nodes&1023 == 0 {
		t.checkLimits()
	}
	if ply > t.selDepth {
		t.selDepth = ply
	}
	return t.stopped()
}

// extendPV writes m followed by the child's PV (ply+1) into pv and returns
// its length.
func (t *thread) extendPV(pv *[MaxPly]board.Move, m board.Move, ply int) int {
	child := &t.stack[ply+1]
	pv[0] = m
	n := copy(pv[1:], child.pv[:child.pvLen])
	return 1 + n
}
