package timeman

import (
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twofold-chess/twofold/board"
)

func TestClockAllocation(t *testing.T) {
	now := time.Now()
	var c Clock

	c.Start(Limits{MoveTime: 300 * time.Millisecond}, 50*time.Millisecond, board.White, now)
	assert.Equal(t, int64(250*time.Millisecond), c.hard.Load())
	assert.Zero(t, c.soft.Load())

	c.Start(Limits{}, 0, board.White, now)
	assert.Zero(t, c.hard.Load(), "no time limit")
	assert.Zero(t, c.soft.Load())
	assert.False(t, c.HardStop())
	assert.False(t, c.SoftStop(Progress{Iterations: 20}))

	for _, left := range []time.Duration{50 * time.Millisecond, time.Second, time.Minute, time.Hour} {
		for _, mtg := range []int{0, 1, 10, 40} {
			var lim Limits
			lim.Time[board.Black] = left
			lim.Time[board.White] = 10 * time.Hour
			lim.Inc[board.Black] = left / 100
			lim.MovesToGo = mtg
			c.Start(lim, 10*time.Millisecond, board.Black, now)
			hard, soft := time.Duration(c.hard.Load()), time.Duration(c.soft.Load())
			assert.Positive(t, soft, "left %v mtg %d", left, mtg)
			assert.LessOrEqual(t, soft, hard, "left %v mtg %d", left, mtg)
			assert.Less(t, hard, max(left, 2*time.Millisecond), "left %v mtg %d: the hard limit must leave time on the clock", left, mtg)
		}
	}
	// A single legal move cuts the soft limit.
	var lim Limits
	lim.Time[board.White] = time.Hour
	c.Start(lim, 0, board.White, now)
	c.OnlyMove()
	assert.LessOrEqual(t, c.soft.Load(), int64(20*time.Millisecond))
}

// Absurd clocks and increments saturate: the limits stay positive (a
// negative one read as "no limit" and the search never stopped).
func TestClockSaturates(t *testing.T) {
	const huge = time.Duration(math.MaxInt64)
	for _, c := range []struct {
		name string
		lim  Limits
	}{
		{"huge clock", Limits{Time: [2]time.Duration{huge, huge}}},
		{"huge increment", Limits{Time: [2]time.Duration{time.Second, time.Second}, Inc: [2]time.Duration{huge, huge}}},
		{"both, one move to go", Limits{Time: [2]time.Duration{huge, huge}, Inc: [2]time.Duration{huge, huge}, MovesToGo: 1}},
		{"huge movetime", Limits{MoveTime: huge}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var clk Clock
			clk.Start(c.lim, 10*time.Millisecond, board.White, time.Now())
			assert.Positive(t, clk.Hard())
			assert.GreaterOrEqual(t, clk.Hard(), clk.Soft())
			assert.False(t, clk.HardStop())
		})
	}
	// Movetime and clock together: the tighter one rules.
	var clk Clock
	clk.Start(Limits{MoveTime: huge, Time: [2]time.Duration{time.Nanosecond, time.Nanosecond}}, 10*time.Millisecond, board.White, time.Now())
	assert.Equal(t, time.Millisecond, clk.Hard(), "a falling flag beats a huge movetime")
	clk.Start(Limits{MoveTime: 100 * time.Millisecond, Time: [2]time.Duration{time.Hour, time.Hour}}, 10*time.Millisecond, board.White, time.Now())
	assert.Equal(t, 90*time.Millisecond, clk.Hard(), "a short movetime beats a long clock")
	assert.Zero(t, clk.Soft(), "and is used in full")
	// The smallest clock (what "wtime 0" becomes) means move now.
	clk.Start(Limits{Time: [2]time.Duration{time.Nanosecond, time.Nanosecond}}, 10*time.Millisecond, board.White, time.Now())
	assert.Equal(t, time.Millisecond, clk.Hard())
}

func TestNPS(t *testing.T) {
	assert.Equal(t, uint64(0), NPS(100, 0), "no time yet")
	assert.Equal(t, uint64(0), NPS(100, -time.Second))
	assert.Equal(t, uint64(2000), NPS(1000, 500*time.Millisecond))
}

// The aim follows the usual split: a 25th of the clock plus 1.5 increments
// in sudden death, 1.8·clock/(movestogo+5) plus 1.5 increments
// with moves to go; the hard limit is five aims, capped by the clock share.
func TestClockAim(t *testing.T) {
	const overhead = 10 * time.Millisecond
	usable := func(left time.Duration) float64 { return float64(left - overhead - clockReserve) }
	for _, c := range []struct {
		name       string
		left, inc  time.Duration
		mtg        int
		soft, hard float64
	}{
		{"sudden death", 20 * time.Second, 200 * time.Millisecond, 0,
			usable(20*time.Second)/25 + 1.5*float64(200*time.Millisecond), 5 * (usable(20*time.Second)/25 + 1.5*float64(200*time.Millisecond))},
		{"40 moves to go", 60 * time.Second, 0, 40,
			1.8 * usable(60*time.Second) / 45, 5 * 1.8 * usable(60*time.Second) / 45},
		{"last move before the control", 10 * time.Second, 0, 1,
			1.8 * usable(10*time.Second) / 6, 0.8 * usable(10*time.Second)},
		{"short clock, big increment: less of it until the clock refills", 100 * time.Millisecond, time.Second, 0,
			usable(100*time.Millisecond)/25 + 1.5*usable(100*time.Millisecond)/8, 0.4 * usable(100*time.Millisecond)},
	} {
		t.Run(c.name, func(t *testing.T) {
			var clk Clock
			var lim Limits
			lim.Time[board.White], lim.Inc[board.White], lim.MovesToGo = c.left, c.inc, c.mtg
			clk.Start(lim, overhead, board.White, time.Now())
			assert.InDelta(t, c.soft, float64(clk.Soft()), 2)
			assert.InDelta(t, c.hard, float64(clk.Hard()), 2)
		})
	}
}

// SoftStop scales the aim by stability, score trend and the best move's
// share of the nodes, and starts no iteration past half of that budget;
// it never stops before the fourth iteration.
func TestSoftStopScaling(t *testing.T) {
	var lim Limits
	lim.Time[board.White] = 25*time.Second + 5*time.Millisecond // aim 1 s
	start := func(elapsed time.Duration) *Clock {
		var c Clock
		c.Start(lim, 0, board.White, time.Now().Add(-elapsed))
		require.InDelta(t, float64(time.Second), float64(c.Soft()), 1)
		return &c
	}
	for _, c := range []struct {
		name    string
		elapsed time.Duration
		p       Progress
		stop    bool
	}{
		{"clear best move: a quarter of the aim", 300 * time.Millisecond, Progress{Iterations: 12, StableIterations: 10, BestMoveShare: 0.95}, true},
		{"contested, new best move: more than the aim", time.Second, Progress{Iterations: 12, BestMoveShare: 0.1}, false},
		{"too few iterations", 3 * time.Second, Progress{Iterations: 3, StableIterations: 3, BestMoveShare: 0.95}, false},
		{"score fell", 650 * time.Millisecond, Progress{Iterations: 12, ScoreDrop: 50, BestMoveShare: 0.6}, false},
		{"score rose", 650 * time.Millisecond, Progress{Iterations: 12, ScoreDrop: -50, BestMoveShare: 0.6}, true},
		{"share unknown: stability and trend only", 550 * time.Millisecond, Progress{Iterations: 12, StableIterations: 10}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			assert.Equal(t, c.stop, start(c.elapsed).SoftStop(c.p))
		})
	}
}
