package azero

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twofold-chess/twofold/azero/encoding"
	"github.com/twofold-chess/twofold/board"
	"github.com/twofold-chess/twofold/mind"
	"github.com/twofold-chess/twofold/movegen"
	"github.com/twofold-chess/twofold/timeman"
)

func newUniform(opts Options) *Searcher { return New(&Uniform{}, opts) }

func opts(threads, batch int) Options {
	o := DefaultOptions
	o.Threads, o.BatchSize = threads, batch
	return o
}

// checkVisits verifies every expanded, unproven node was visited once for
// its own expansion plus once per visit of its children.
func checkVisits(t *testing.T, tr *tree) {
	t.Helper()
	for i := range tr.size() {
		nd := tr.at(int32(i))
		require.Zero(t, nd.vl, "virtual loss left on node %d", i)
		if nd.state != stateExpanded || nd.proven != provenNone {
			continue
		}
		sum := int32(0)
		for _, c := range tr.children(int32(i)) {
			sum += c.n
		}
		require.Equal(t, nd.n, sum+1, "node %d", i)
	}
}

func TestMateInOneComesFromTerminalHandling(t *testing.T) {
	for _, c := range []struct{ fen, mate string }{
		{"6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "a1a8"},
		{"r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 4 4", "f3f7"},
		{"r5k1/8/8/8/8/8/5PPP/6K1 b - - 0 1", "a8a1"},
	} {
		s := newUniform(opts(1, 8))
		p := mustFEN(t, c.fen)
		var last mind.Info
		res := s.Search(p, timeman.Limits{Nodes: 50}, func(i mind.Info) { last = i })
		require.NoError(t, res.Err)
		assert.Equal(t, c.mate, res.Best.UCI(false), c.fen)
		assert.Equal(t, mind.MateIn(1), last.Score, "score mate 1")
	}
}

func TestNodesLimitIsExactPlayouts(t *testing.T) {
	for _, threads := range []int{1, 2} {
		for _, batch := range []int{1, 7, 16} {
			s := newUniform(opts(threads, batch))
			p := board.StartPosition()
			res := s.Search(p, timeman.Limits{Nodes: 400}, nil)
			assert.Equal(t, uint64(400), res.Nodes, "threads %d batch %d", threads, batch)
			assert.Equal(t, int32(400), s.tree.at(root).n, "root visits")
			checkVisits(t, s.tree)
		}
	}
}

func TestTreeReuseKeepsTheSubtree(t *testing.T) {
	s := newUniform(opts(1, 8))
	p := board.StartPosition()
	res := s.Search(p, timeman.Limits{Nodes: 2000}, nil)
	require.NotEqual(t, board.NoMove, res.Best)
	var kept int32
	for _, c := range s.tree.children(root) {
		if c.move == res.Best {
			kept = c.n
		}
	}
	require.Greater(t, kept, int32(1))
	p.Make(res.Best)
	s.Search(p, timeman.Limits{Nodes: 100}, nil)
	assert.True(t, s.Reused())
	assert.Equal(t, kept+100, s.tree.at(root).n, "the subtree's visits carry over")
	checkVisits(t, s.tree)

	// Two more plies (our reply and theirs) still continue the game.
	reply, _ := movegen.ParseUCI(p, "e7e5")
	p.Make(reply)
	next, _ := movegen.ParseUCI(p, "g1f3")
	p.Make(next)
	s.Search(p, timeman.Limits{Nodes: 10}, nil)
	// A new game does not.
	s.Search(board.StartPosition(), timeman.Limits{Nodes: 10}, nil)
	assert.False(t, s.Reused())
	s.Clear()
	s.Search(p, timeman.Limits{Nodes: 10}, nil)
	assert.False(t, s.Reused())
}

func TestProvenMatePropagates(t *testing.T) {
	// Mate in two with two rooks (1.Rh7 Kb8 2.Rg8#, or 1.Rg7 Kb8 2.Rh8#):
	// the untrained net cannot see it; proven results must carry it up.
	s := newUniform(opts(1, 8))
	p := mustFEN(t, "k7/8/2K5/8/8/8/8/6RR w - - 0 1")
	var last mind.Info
	res := s.Search(p, timeman.Limits{Nodes: 20000}, func(i mind.Info) { last = i })
	require.NoError(t, res.Err)
	assert.Equal(t, mind.MateIn(2), last.Score, "mate in 2 announced, best %s", res.Best.UCI(false))
	p.Make(res.Best)
	var ml movegen.MoveList
	movegen.Legal(p, &ml)
	for _, reply := range ml.Moves() {
		p.Make(reply)
		s2 := newUniform(opts(1, 8))
		r2 := s2.Search(p, timeman.Limits{Nodes: 200}, nil)
		p.Make(r2.Best)
		assert.Equal(t, movegen.Checkmate, movegen.GameStatus(p), "after %s %s", reply.UCI(false), r2.Best.UCI(false))
		p.Unmake()
		p.Unmake()
	}
}

func TestTerminalDraws(t *testing.T) {
	// Stalemating is a draw; the uniform net must still prefer the mate.
	s := newUniform(opts(1, 4))
	p := mustFEN(t, "7k/5Q2/6K1/8/8/8/8/8 w - - 0 1")
	res := s.Search(p, timeman.Limits{Nodes: 300}, nil)
	p.Make(res.Best)
	assert.Equal(t, movegen.Checkmate, movegen.GameStatus(p), res.Best.UCI(false))
}

func TestStopAndTimeLimits(t *testing.T) {
	s := New(&Uniform{Delay: time.Millisecond}, opts(2, 4))
	p := board.StartPosition()
	done := make(chan mind.Result, 1)
	s.Go(p, timeman.Limits{Infinite: true}, nil, func(r mind.Result) { done <- r })
	time.Sleep(100 * time.Millisecond)
	s.Stop()
	select {
	case r := <-done:
		assert.NotEqual(t, board.NoMove, r.Best)
	case <-time.After(2 * time.Second):
		t.Fatal("no result after stop")
	}

	start := time.Now()
	r := s.Search(p, timeman.Limits{MoveTime: 200 * time.Millisecond}, nil)
	assert.NotEqual(t, board.NoMove, r.Best)
	assert.Less(t, time.Since(start), 400*time.Millisecond)

	var lim timeman.Limits
	lim.Time[board.White] = time.Second
	start = time.Now()
	r = s.Search(p, lim, nil)
	assert.NotEqual(t, board.NoMove, r.Best)
	assert.Less(t, time.Since(start), 500*time.Millisecond, "used too much of a 1 s clock")

	// Immediate stop still yields a legal move.
	s.Go(p, timeman.Limits{Infinite: true}, nil, func(r mind.Result) { done <- r })
	s.Stop()
	r = <-done
	assert.NotEqual(t, board.NoMove, r.Best)
}

func TestPonderWaitsForPonderHit(t *testing.T) {
	s := newUniform(opts(1, 4))
	p := board.StartPosition()
	done := make(chan mind.Result, 1)
	var lim timeman.Limits
	lim.Ponder = true
	lim.MoveTime = 50 * time.Millisecond
	s.Go(p, lim, nil, func(r mind.Result) { done <- r })
	select {
	case <-done:
		t.Fatal("a ponder search ended by itself")
	case <-time.After(200 * time.Millisecond):
	}
	s.PonderHit()
	select {
	case r := <-done:
		assert.NotEqual(t, board.NoMove, r.Best)
	case <-time.After(2 * time.Second):
		t.Fatal("no result after ponderhit")
	}
}

func TestSearchMovesAndMultiPV(t *testing.T) {
	o := opts(1, 8)
	o.MultiPV = 3
	s := newUniform(o)
	p := board.StartPosition()
	only, _ := movegen.ParseUCI(p, "a2a3")
	res := s.Search(p, timeman.Limits{Nodes: 100, Moves: []board.Move{only}}, nil)
	assert.Equal(t, only, res.Best)

	var infos []mind.Info
	s.Clear()
	s.Search(p, timeman.Limits{Nodes: 500}, func(i mind.Info) { infos = append(infos, i) })
	final := infos[len(infos)-3:]
	for k, info := range final {
		assert.Equal(t, k+1, info.MultiPV)
		if k > 0 {
			assert.GreaterOrEqual(t, final[k-1].Visits, info.Visits, "lines ordered by visits")
			assert.NotEqual(t, final[k-1].PV[0], info.PV[0])
		}
	}
}

func TestNoLegalMove(t *testing.T) {
	s := newUniform(opts(1, 4))
	res := s.Search(mustFEN(t, "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"), timeman.Limits{Nodes: 10}, nil)
	assert.Equal(t, board.NoMove, res.Best)
}

func TestCache(t *testing.T) {
	c := newCache(4)
	_, _, ok := c.get(5, 2)
	assert.False(t, ok)
	c.put(5, 0.5, []float32{0.25, 0.75})
	v, pr, ok := c.get(5, 2)
	require.True(t, ok)
	assert.Equal(t, float32(0.5), v)
	assert.Equal(t, []float32{0.25, 0.75}, pr)
	_, _, ok = c.get(5, 3)
	assert.False(t, ok, "a different move count is a collision")
	c.put(9, 0.1, []float32{1})
	_, _, ok = c.get(5, 2)
	assert.False(t, ok, "replaced")
}

func TestQToCentipawns(t *testing.T) {
	assert.Equal(t, 0, QToCentipawns(0))
	assert.InDelta(t, 90, QToCentipawns(0.5), 1)
	assert.Equal(t, -QToCentipawns(0.3), QToCentipawns(-0.3))
	assert.Greater(t, QToCentipawns(1), 12000)
}

// A position is a drawn terminal in the tree on its third occurrence, as the
// rule says, not on its second.
func TestRepetitionIsThreefold(t *testing.T) {
	p := board.StartPosition()
	for _, s := range []string{"g1f3", "g8f6", "f3g1", "f6g8"} { // the start, twice now
		m, err := movegen.ParseUCI(p, s)
		require.NoError(t, err)
		p.Make(m)
	}
	tr := newTree(p, DefaultParams)
	var ml movegen.MoveList
	require.Equal(t, expandChildren, tr.expand(root, tr.pos, &ml), "the root is searched")
	walk := func(moves ...string) (terminal bool) {
		q := tr.pos.Clone()
		for _, s := range moves {
			m, err := movegen.ParseUCI(q, s)
			require.NoError(t, err)
			q.Make(m)
		}
		i := tr.nodes.alloc(1)
		*tr.at(i) = node{first: -1}
		return tr.expand(i, q, &ml) == expandTerminal
	}
	assert.False(t, walk("g1f3"), "after Nf3: seen once before")
	assert.False(t, walk("g1f3", "g8f6"), "seen once before")
	assert.True(t, walk("g1f3", "g8f6", "f3g1", "f6g8"), "the start a third time")
	assert.True(t, walk("g1f3", "g8f6", "f3g1", "f6g8", "g1f3"), "Nf3 a third time")
	assert.True(t, walk("b1c3", "b8c6", "c3b1", "c6b8"), "another route to the start, its third time too")
	assert.False(t, walk("b1c3", "b8c6", "c3b1"), "a position not seen before")
}

// slow is a uniform network whose runs take delay (changed while it runs).
type slow struct {
	max     int
	delay   *atomic.Int64
	batches *atomic.Int64
}

func (e slow) Evaluate(input []float32, n int, policy, value []float32) error {
	e.batches.Add(1)
	clear(policy[:n*encoding.PolicySize])
	clear(value[:n])
	time.Sleep(time.Duration(e.delay.Load()))
	return nil
}
func (e slow) MaxBatch() int { return e.max }
func (e slow) Close() error  { return nil }

// Stop does not wait for the batches in flight: with a network run of
// 300 ms, the answer comes long before the run ends, and the final report
// is the last one (the workers finishing their batch afterwards report
// nothing). The next search, Clear or RootVisits waits for those workers,
// so the tree they write is whole (no virtual loss left behind).
func TestStopDoesNotWaitForTheBatchInFlight(t *testing.T) {
	var delay, batches atomic.Int64
	s := New(BackendFunc(func(b int) (Evaluator, error) { return slow{b, &delay, &batches}, nil }), opts(2, 64))
	p := board.StartPosition()
	var mu sync.Mutex
	answered, late := false, 0
	report := func(mind.Info) {
		mu.Lock()
		defer mu.Unlock()
		if answered {
			late++
		}
	}
	done := make(chan mind.Result, 1)
	s.Go(p, timeman.Limits{Infinite: true}, report, func(r mind.Result) {
		mu.Lock()
		answered = true
		mu.Unlock()
		done <- r
	})
	for batches.Load() < 3 { // the root is evaluated, the workers run
		time.Sleep(time.Millisecond)
	}
	delay.Store(int64(300 * time.Millisecond))
	time.Sleep(100 * time.Millisecond) // both workers are now in a slow run
	start := time.Now()
	s.Stop()
	r := <-done
	assert.Less(t, time.Since(start), 150*time.Millisecond, "stop waited for the network")
	requireLegal(t, p, r.Best)

	assert.NotEmpty(t, s.RootVisits(nil)) // waits for the workers
	mu.Lock()
	assert.Zero(t, late, "a report after the answer")
	mu.Unlock()
	checkVisits(t, s.tree)
	delay.Store(0)
	r = s.Search(p, timeman.Limits{Nodes: 200}, nil)
	requireLegal(t, p, r.Best)
	assert.True(t, s.Reused())
	checkVisits(t, s.tree)
}

// A report goes out whenever the best root move changes (and once a
// second, and at the end), as Lc0 does: a short search reports more than
// its final line, and every report but the final one shows a new move.
func TestReportsOnBestMoveChange(t *testing.T) {
	s := New(BackendFunc(func(b int) (Evaluator, error) { return hashed{b}, nil }), opts(1, 4))
	var infos []mind.Info
	s.Search(board.StartPosition(), timeman.Limits{Nodes: 3000}, func(i mind.Info) {
		require.NotEmpty(t, i.PV)
		infos = append(infos, i)
	})
	require.Greater(t, len(infos), 2, "only the final report")
	// Between the first and the final report, a report comes when the best
	// move changes, or when a second has passed since the last one (a slow
	// or loaded machine); never more often with the same best move.
	for i := 1; i < len(infos)-1; i++ {
		if infos[i].PV[0] == infos[i-1].PV[0] {
			assert.GreaterOrEqual(t, infos[i].Time-infos[i-1].Time, 900*time.Millisecond,
				"report %d repeats the best move %v within a second", i, infos[i].PV[0])
		}
	}
}

// hashed is a deterministic network with opinions: priors and values are
// a hash of the input, so the best move changes as the search goes on.
type hashed struct{ max int }

func (h hashed) Evaluate(in []float32, n int, pol, val []float32) error {
	for i := range n {
		x := float32(0)
		for j, f := range in[i*encoding.InputSize : (i+1)*encoding.InputSize] {
			x += f * float32(j%97)
		}
		for j := range encoding.PolicySize {
			pol[i*encoding.PolicySize+j] = float32((int(x)+j*31)%13) / 5
		}
		val[i] = float32(int(x)%21-10) / 11
	}
	return nil
}
func (h hashed) MaxBatch() int { return h.max }
func (h hashed) Close() error  { return nil }
