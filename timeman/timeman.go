// Package timeman is time management shared by both searchers: the limits
// a "go" command sets, and the clock that turns them into a soft and a hard
// deadline without ever letting the engine lose on time.
package timeman

import (
	"math"
	"sync/atomic"
	"time"

	"github.com/twofold-chess/twofold/board"
)

// Limits say when a search must stop. Zero values mean "no limit"; with no
// limit at all the search runs until Stop (as for "go infinite").
type Limits struct {
	Depth     int
	Nodes     uint64
	Mate      int // stop once a mate in this many moves is found
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
// the remaining clock, and a small reserve is never touched.
const (
	maxShareOfClock = 0.4
	clockReserve    = 5 * time.Millisecond
)

// Start starts the clock at now for side to move, with overhead reserved per
// move (the GUI's and the pipe's latency).
func (c *Clock) Start(lim Limits, overhead time.Duration, side board.Color, now time.Time) {
	c.startNs.Store(now.UnixNano())
	var soft, hard time.Duration
	if left, inc := lim.Time[side], lim.Inc[side]; left > 0 {
		mtg := lim.MovesToGo
		if mtg <= 0 || mtg > 35 {
			mtg = 35 // sudden death: plan for about 35 more moves
		}
		// In float64, so absurd clocks and increments (up to 2^63 ns)
		// saturate instead of wrapping negative ("no limit").
		usable := float64(max(left-overhead-clockReserve, time.Millisecond))
		base := usable/float64(mtg) + float64(inc)*3/4
		softF := base * 6 / 10
		hardF := min(base*4, usable*maxShareOfClock)
		if mtg == 1 {
			hardF = min(usable*8/10, hardF*2)
		}
		hard = max(duration(hardF), time.Millisecond)
		soft = max(min(duration(softF), hard), time.Millisecond)
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

// SoftStop reports whether to start no new iteration: sooner when the best
// move has held for several iterations, later when it just changed or the
// score dropped. About half the soft limit is left for the next iteration,
// which usually costs more than all before it.
func (c *Clock) SoftStop(stableIterations, scoreDrop int) bool {
	s := c.soft.Load()
	if s == 0 {
		return false
	}
	factor := 1.3 - 0.1*float64(min(stableIterations, 6))
	if scoreDrop > 50 {
		factor *= 1.5
	} else if scoreDrop > 20 {
		factor *= 1.2
	}
	return float64(c.Elapsed()) > float64(s)*factor*0.6
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
