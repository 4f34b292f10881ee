package timeman

import (
	"math"
	"sync/atomic"
	"time"

	"github.com/twofold-chess/twofold/board"
)

// Limits say when a search must stop. Zero values mean "no limit"; with no
// limit at all the search runs until Stop (as for "go infinite"). SoftNodes
// is checked between iterations, as the soft time limit is, so it never
// cuts an iteration short (a fixed budget for self-play data); Nodes, when
// set too, still cuts the search where it stands.
type Limits struct {
	Depth     int
	Nodes     uint64 // hard: the search is cut once it has searched this many nodes
	SoftNodes uint64 // soft: the search stops after the iteration that passes this many nodes (alpha-beta)
	Mate      int    // stop once a mate in this many moves is found
	MoveTime  time.Duration
	Time      [2]time.Duration // remaining clock per colour
	Inc       [2]time.Duration
	MovesToGo int
	Infinite  bool
	Ponder    bool         // search until PonderHit (then the clock applies) or Stop
	Moves     []board.Move // search only these root moves ("searchmoves")
}

// Clock turns the UCI time controls into two limits: a soft one, checked
// between iterations and scaled by how settled the search is, and a hard one
// checked inside the search. Its fields are atomic because PonderHit restarts
// it from the input goroutine while threads read it.
type Clock struct {
	startNs atomic.Int64 // unix nanoseconds when the clock started
	soft    atomic.Int64 // nanoseconds; 0 = no soft limit
	hard    atomic.Int64 // nanoseconds; 0 = no hard limit
}

// Guards against losing on time: the hard limit never exceeds this share of
// the remaining clock (most of it with one move to go), and a small reserve
// is never touched.
const (
	maxShareOfClock    = 0.4
	maxShareLastMove   = 0.8
	clockReserve       = 5 * time.Millisecond
	suddenDeathMoves   = 25  // sudden death: aim at this share of the clock, plus incShare of the increment
	incShare           = 1.5 // a move takes about 0.6 of its aim, so this spends about the increment
	lowClockIncrements = 8   // below this many increments on the clock, spend less of each
	maxPlannedMoves    = 50  // movestogo beyond this is planned as this
	hardOverAim        = 5   // the hard limit is at most this many times the aim
	minItersForBudget  = 4   // SoftStop lets shallower searches run on
	nextIterationShare = 0.5 // SoftStop starts no iteration after this share of the budget
)

// Start starts the clock at now for side to move, with overhead reserved per
// move (the GUI's and the pipe's latency).
//
// The aim (soft limit) is what a move of average difficulty gets: a
// 25th of the clock plus one and a half increments in sudden death, or
// 1.8·clock/(movestogo+5) plus that share of the increment with moves to
// go; SoftStop then scales it by how settled the search is. A move takes
// about 0.6 of its aim on average (no iteration starts past half the scaled
// aim, and most moves are settled ones), so the increment is counted one
// and a half times to be spent in full: the clock settles near ten
// increments rather than draining to nothing (where a stalled machine
// would flag) or holding a quarter of the base time unspent to the end
// (with three quarters of the increment it settled near 26).
// The hard limit allows five times the aim, never more than 40% of the
// clock (80% with one move to go).
func (c *Clock) Start(lim Limits, overhead time.Duration, side board.Color, now time.Time) {
	c.startNs.Store(now.UnixNano())
	var soft, hard time.Duration
	if left, inc := lim.Time[side], lim.Inc[side]; left > 0 {
		// In float64, so absurd clocks and increments (up to 2^63 ns)
		// saturate instead of wrapping negative ("no limit").
		usable := float64(max(left-overhead-clockReserve, time.Millisecond))
		share := maxShareOfClock
		// Most of the increment is spent, but less when the clock holds
		// fewer than lowClockIncrements of them, so it refills: a clock
		// run down to one or two increments flags at the first stall of a
		// loaded machine (seen at 5+0.05 under load).
		incPart := 0.0
		if inc > 0 {
			incPart = incShare * float64(inc) * min(1, usable/(lowClockIncrements*float64(inc)))
		}
		var aim float64
		if mtg := lim.MovesToGo; mtg > 0 {
			mtg = min(mtg, maxPlannedMoves)
			aim = 1.8*usable/float64(mtg+5) + incPart
			if mtg == 1 {
				share = maxShareLastMove
			}
		} else {
			aim = usable/suddenDeathMoves + incPart
		}
		hardF := min(aim*hardOverAim, usable*share)
		hard = max(duration(hardF), time.Millisecond)
		soft = max(min(duration(aim), hard), time.Millisecond)
	}
	// A movetime is used in full, unless the clock allows less: with both
	// given, the tighter one rules, so "movetime 99999999 wtime 0" still
	// moves at once and the flag never falls.
	if lim.MoveTime > 0 {
		if mt := max(lim.MoveTime-overhead, time.Millisecond); hard == 0 || mt <= hard {
			soft, hard = 0, mt
		}
	}
	c.soft.Store(int64(soft))
	c.hard.Store(int64(hard))
}

// duration converts nanoseconds to a Duration, saturating at its maximum.
func duration(ns float64) time.Duration {
	if ns >= math.MaxInt64 {
		return math.MaxInt64
	}
	return time.Duration(ns)
}

// OnlyMove cuts the soft limit when there is a single legal move.
func (c *Clock) OnlyMove() {
	if s := c.soft.Load(); s > 0 {
		c.soft.Store(min(s, int64(20*time.Millisecond)))
	}
}

// Elapsed is the time since Start.
func (c *Clock) Elapsed() time.Duration {
	return time.Duration(time.Now().UnixNano() - c.startNs.Load())
}

// HardStop reports whether the search must stop now.
func (c *Clock) HardStop() bool {
	h := c.hard.Load()
	return h > 0 && int64(c.Elapsed()) >= h
}

// Progress is what iterative deepening knows between iterations that bears
// on how long to think.
type Progress struct {
	Iterations       int     // iterations completed
	StableIterations int     // how many of them in a row kept the best move
	ScoreDrop        int     // centipawns the best score fell since the last iteration (negative: rose)
	BestMoveShare    float64 // share of the root's nodes spent on the best move, 0..1 (0: unknown)
}

// SoftStop reports whether to start no new iteration. The aim is scaled by
// three signals, as in the strong engines: a best move that has held for
// many iterations (down to 0.8), a falling score (up to 1.5 when it fell by
// half a pawn, down to 0.8 when it rose) and, most telling, the share of the
// nodes the best move took (node-fraction time management): a move that
// took nearly all of them is clear (0.5), one that took few is contested
// (up to 2.4).
func (c *Clock) SoftStop(p Progress) bool {
	s := c.soft.Load()
	if s == 0 || p.Iterations < minItersForBudget {
		return false
	}
	stability := 1.2 - 0.04*float64(min(p.StableIterations, 10))
	trend := min(max(1+0.01*float64(p.ScoreDrop), 0.8), 1.5)
	fraction := 1.0
	if p.BestMoveShare > 0 {
		fraction = max(0.5, 2*(1-p.BestMoveShare)+0.4)
	}
	// A new iteration costs about as much as all before it, so one that
	// starts after half the budget would end past it.
	budget := float64(s) * stability * trend * fraction
	return float64(c.Elapsed()) > budget*nextIterationShare
}

// Soft is the soft limit (0 = none): the time a search aims to use.
func (c *Clock) Soft() time.Duration { return time.Duration(c.soft.Load()) }

// Hard is the hard limit (0 = none): the search must stop by then.
func (c *Clock) Hard() time.Duration { return time.Duration(c.hard.Load()) }

// NPS is nodes per second over elapsed (0 before any time has passed), for
// the "nps" of info lines and bench reports.
func NPS(nodes uint64, elapsed time.Duration) uint64 {
	if elapsed <= 0 {
		return 0
	}
	return uint64(float64(nodes) / elapsed.Seconds())
}
