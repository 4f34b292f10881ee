package azero

import (
	"math"
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

var (
	nan  = math.NaN()
	inf  = math.Inf(1)
	nan3 = float32(nan)
	inf3 = float32(inf)
)

// broken is a stand-in network that answers like a diverged one: from its
// call number after on, every logit is logit and every value is value (a
// network can pass onnx.Open's fixture positions and go wrong elsewhere).
type broken struct {
	max          int
	after        int64
	logit, value float32
	calls        atomic.Int64
}

func (b *broken) Evaluate(input []float32, n int, policy, value []float32) error {
	ok := b.calls.Add(1) <= b.after
	for i := range policy[:n*encoding.PolicySize] {
		policy[i] = 0
		if !ok {
			policy[i] = b.logit
		}
	}
	for i := range value[:n] {
		value[i] = 0
		if !ok {
			value[i] = b.value
		}
	}
	return nil
}
func (b *broken) MaxBatch() int { return b.max }
func (b *broken) Close() error  { return nil }

// checkFinite verifies no NaN or infinity reached the tree's statistics.
func checkTreeFinite(t *testing.T, tr *tree) {
	t.Helper()
	for i := range tr.size() {
		nd := tr.at(int32(i))
		require.True(t, isFinite(nd.w), "node %d: w %v", i, nd.w)
		require.True(t, isFinite(float64(nd.prior)) && nd.prior >= 0, "node %d: prior %v", i, nd.prior)
	}
}

// requireLegal fails unless m is a legal move in p.
func requireLegal(t *testing.T, p *board.Position, m board.Move) {
	t.Helper()
	var ml movegen.MoveList
	movegen.Legal(p, &ml)
	for _, x := range ml.Moves() {
		if x == m {
			return
		}
	}
	t.Fatalf("%v is not a legal move in %s", m, p.FEN())
}

func TestParamsAreSanitized(t *testing.T) {
	d := DefaultParams
	for _, c := range []struct {
		in, want Params
	}{
		{d, d},
		{Params{nan, nan, nan, nan, 0}, d},
		{Params{inf, inf, inf, inf, 0}, d},
		{Params{-inf, -inf, -inf, -inf, 0}, d},
		{Params{-1, 0, -50, -1, 0}, Params{0, 1, -10, minPolicyTemp, 0}},
		{Params{1e300, 1e300, 1e300, 1e300, 0}, Params{maxCPuct, maxCPuctBase, maxFPUReduction, maxPolicyTemp, 0}},
		{Params{2.5, 100, 0, 1.5, 0}, Params{2.5, 100, 0, 1.5, 0}},
		{Params{2.5, 100, 0, 0, 0}, Params{2.5, 100, 0, d.PolicyTemp, 0}}, // 0 is "unset"
		// The root's temperature: 0 is "as PolicyTemp", and so is anything
		// that is not a positive finite number.
		{Params{2.5, 100, 0, 1.5, 1}, Params{2.5, 100, 0, 1.5, 1}},
		{Params{2.5, 100, 0, 1.5, nan}, Params{2.5, 100, 0, 1.5, 0}},
		{Params{2.5, 100, 0, 1.5, inf}, Params{2.5, 100, 0, 1.5, 0}},
		{Params{2.5, 100, 0, 1.5, -1}, Params{2.5, 100, 0, 1.5, 0}},
		{Params{2.5, 100, 0, 1.5, 1e-9}, Params{2.5, 100, 0, 1.5, minPolicyTemp}},
		{Params{2.5, 100, 0, 1.5, 1e300}, Params{2.5, 100, 0, 1.5, maxPolicyTemp}},
	} {
		assert.Equal(t, c.want, c.in.sanitized(), "%+v", c.in)
	}
}

// "setoption name CPuct value NaN" (or CPuctBase, FPUReduction, inf,
// -inf) and "go nodes 300" used to overflow the stack in pick: every PUCT
// score was NaN, no child was chosen, and pick called itself for ever.
func TestSearchSurvivesNonFiniteParams(t *testing.T) {
	for _, p := range []Params{
		{nan, d.CPuctBase, d.FPUReduction, d.PolicyTemp, 0},
		{d.CPuct, nan, d.FPUReduction, d.PolicyTemp, 0},
		{d.CPuct, d.CPuctBase, nan, d.PolicyTemp, 0},
		{d.CPuct, d.CPuctBase, d.FPUReduction, nan, 0},
		{inf, d.CPuctBase, d.FPUReduction, d.PolicyTemp, 0},
		{d.CPuct, inf, d.FPUReduction, d.PolicyTemp, 0},
		{d.CPuct, d.CPuctBase, -inf, d.PolicyTemp, 0},
		{d.CPuct, d.CPuctBase, d.FPUReduction, inf, 0},
		{d.CPuct, 0, d.FPUReduction, d.PolicyTemp, 0},
		{d.CPuct, d.CPuctBase, d.FPUReduction, d.PolicyTemp, nan},
		{d.CPuct, d.CPuctBase, d.FPUReduction, d.PolicyTemp, 1e-300},
	} {
		for _, threads := range []int{1, 2} {
			o := opts(threads, 8)
			o.Params = p
			s := newUniform(o)
			pos := board.StartPosition()
			res := s.Search(pos, timeman.Limits{Nodes: 300}, nil)
			require.NoError(t, res.Err)
			assert.Equal(t, uint64(300), res.Nodes, "%+v", p)
			requireLegal(t, pos, res.Best)
			checkTreeFinite(t, s.tree)
		}
	}
}

var d = DefaultParams

// pick itself, given a tree whose constants were never sanitized, still
// chooses a child, for any constants and with searchmoves excluding all.
func TestPickAlwaysChoosesAChild(t *testing.T) {
	for _, p := range []Params{{nan, nan, nan, nan, 0}, {inf, 0, -inf, 0, 0}, {-inf, -1, inf, inf, 0}} {
		s := newUniform(opts(1, 4))
		pos := board.StartPosition()
		s.Search(pos, timeman.Limits{Nodes: 50}, nil)
		tr := s.tree
		tr.params = p // what sanitized() keeps out of real trees
		nd := *tr.at(root)
		for i := range nd.count {
			tr.at(nd.first + int32(i)).w = nan // and what applyNetwork keeps out
		}
		c := tr.pick(root)
		require.GreaterOrEqual(t, c, nd.first)
		require.Less(t, c, nd.first+int32(nd.count))

		e4, _ := movegen.ParseUCI(pos, "e2e4")
		tr.allowed = []board.Move{e4 ^ 0x7fff} // no root move
		c = tr.pick(root)
		require.GreaterOrEqual(t, c, nd.first)
		assert.Nil(t, tr.allowed, "searchmoves matching nothing means all moves")
	}
}

// A network that answers NaN or infinities (from its first call, or only
// after onnx.Open's check would have passed) never crashes or hangs the
// search, and none of it reaches the tree's statistics.
func TestSearchSurvivesNonFiniteNetworkOutputs(t *testing.T) {
	for _, c := range []struct {
		name         string
		after        int64
		logit, value float32
	}{
		{"nan everything", 0, nan3, nan3},
		{"nan logits", 0, nan3, 0.5},
		{"+inf logits", 0, inf3, 0},
		{"-inf logits", 0, -inf3, 0},
		{"nan value", 0, 0, nan3},
		{"+inf value", 0, 0, inf3},
		{"-inf value", 0, 0, -inf3},
		{"huge value", 0, 0, 1e30},
		{"nan after a while", 5, nan3, nan3},
	} {
		t.Run(c.name, func(t *testing.T) {
			for _, threads := range []int{1, 2} {
				s := New(BackendFunc(func(b int) (Evaluator, error) {
					return &broken{max: b, after: c.after, logit: c.logit, value: c.value}, nil
				}), opts(threads, 8))
				pos := board.StartPosition()
				var last mind.Info
				res := s.Search(pos, timeman.Limits{Nodes: 300}, func(i mind.Info) { last = i })
				require.NoError(t, res.Err)
				assert.Equal(t, uint64(300), res.Nodes)
				requireLegal(t, pos, res.Best)
				assert.True(t, isFinite(res.Q) && res.Q >= -1 && res.Q <= 1, "Q %v", res.Q)
				assert.True(t, isFinite(last.Q), "reported Q %v", last.Q)
				checkTreeFinite(t, s.tree)
				checkVisits(t, s.tree)
				// Priors are a distribution however the logits were broken.
				sum := float32(0)
				for _, ch := range s.tree.children(root) {
					sum += ch.prior
				}
				assert.InDelta(t, 1, sum, 1e-4)
			}
		})
	}
}

// "go infinite" with MCTS used to grow without bound. With RamLimitMB a
// search stops at the budget and still plays a legal move.
func TestTreeStaysWithinRamLimit(t *testing.T) {
	for _, lim := range []timeman.Limits{{Nodes: 10_000_000}, {MoveTime: 20 * time.Second}} {
		o := opts(2, 8)
		o.RamLimitMB = 1
		s := newUniform(o)
		pos := board.StartPosition()
		start := time.Now()
		res := s.Search(pos, lim, nil)
		require.NoError(t, res.Err)
		requireLegal(t, pos, res.Best)
		assert.Less(t, time.Since(start), 10*time.Second, "stopped by the budget, not the limit")
		assert.Less(t, res.Nodes, uint64(10_000_000))
		assert.Greater(t, res.Nodes, uint64(100), "the budget held some playouts")
		assert.LessOrEqual(t, s.tree.size(), s.maxNodes())
		assert.LessOrEqual(t, s.tree.nodes.bytes(), 1<<20, "the budget bounds the memory, not only the count")
		checkVisits(t, s.tree)

		// The next search starts from the full tree's subtree and has room.
		pos.Make(res.Best)
		res = s.Search(pos, timeman.Limits{Nodes: 100}, nil)
		requireLegal(t, pos, res.Best)
		assert.LessOrEqual(t, s.tree.size(), s.maxNodes())
	}
}

// An infinite search whose tree is full keeps its move and waits for Stop
// (UCI wants bestmove only then), without growing or spinning on the lock.
func TestInfiniteSearchWaitsAtRamLimit(t *testing.T) {
	o := opts(2, 8)
	o.RamLimitMB = 1
	s := newUniform(o)
	pos := board.StartPosition()
	done := make(chan mind.Result, 1)
	s.Go(pos, timeman.Limits{Infinite: true}, nil, func(r mind.Result) { done <- r })
	full := func() bool {
		s.mu.Lock()
		defer s.mu.Unlock()
		return s.full
	}
	deadline := time.Now().Add(20 * time.Second)
	for !full() {
		require.True(t, time.Now().Before(deadline), "the tree never filled")
		time.Sleep(5 * time.Millisecond)
	}
	s.mu.Lock()
	nodes, playouts := s.tree.size(), s.done
	s.mu.Unlock()
	select {
	case <-done:
		t.Fatal("bestmove before stop")
	case <-time.After(200 * time.Millisecond):
	}
	s.mu.Lock()
	assert.Equal(t, nodes, s.tree.size(), "the tree did not grow")
	assert.LessOrEqual(t, s.done, playouts+16, "only playouts in flight finished")
	s.mu.Unlock()
	s.Stop()
	select {
	case res := <-done:
		requireLegal(t, pos, res.Best)
	case <-time.After(time.Second):
		t.Fatal("no result after Stop")
	}
}

// A ponder search at the limit waits too, and after PonderHit it is an
// ordinary search with a full tree: it returns at once.
func TestPonderHitAtRamLimitReturns(t *testing.T) {
	o := opts(1, 8)
	o.RamLimitMB = 1
	s := newUniform(o)
	pos := board.StartPosition()
	done := make(chan mind.Result, 1)
	s.Go(pos, timeman.Limits{Ponder: true, Time: [2]time.Duration{time.Hour, time.Hour}}, nil, func(r mind.Result) { done <- r })
	deadline := time.Now().Add(20 * time.Second)
	for {
		s.mu.Lock()
		full := s.full
		s.mu.Unlock()
		if full {
			break
		}
		require.True(t, time.Now().Before(deadline), "the tree never filled")
		time.Sleep(5 * time.Millisecond)
	}
	select {
	case <-done:
		t.Fatal("bestmove while pondering")
	case <-time.After(100 * time.Millisecond):
	}
	s.PonderHit()
	select {
	case res := <-done:
		requireLegal(t, pos, res.Best)
	case <-time.After(time.Second):
		t.Fatal("no result after PonderHit")
	}
}

func TestRamLimitDefaultsAndDropsABigTree(t *testing.T) {
	s := newUniform(opts(1, 8))
	assert.Equal(t, DefaultOptions.RamLimitMB, s.opts.RamLimitMB)
	o := opts(1, 8)
	o.RamLimitMB = -3
	s.SetOptions(o)
	assert.Equal(t, DefaultOptions.RamLimitMB, s.opts.RamLimitMB, "< 1 means the default")

	s.Search(board.StartPosition(), timeman.Limits{Nodes: 3000}, nil)
	require.Greater(t, s.tree.size(), 30000)
	o.RamLimitMB = 1 // one page, 16384 nodes
	s.SetOptions(o)
	assert.Nil(t, s.tree, "a tree over the new budget is not kept")
}

// RootPolicyTemp gives a root its own temperature: the root's priors are
// the softmax at it, every other node's at PolicyTemp, and the root's
// priors neither go into the cache nor come from it (the cache holds
// PolicyTemp's priors for that position).
func TestRootPolicyTemperature(t *testing.T) {
	pos := board.StartPosition()
	p := DefaultParams
	p.PolicyTemp, p.RootPolicyTemp = 2, 1
	c := newCache(16)
	rootLeaf := func() *leaf { return &leaf{path: []int32{root}, side: board.White, key: pos.Key()} }
	var buf []float32
	// ratio is the first two root moves' prior ratio once the network's
	// logits (2 for the first move, 0 for the rest) are applied.
	ratio := func(tr *tree, logits []float32) float64 {
		tr.applyNetwork(c, rootLeaf(), logits, 0, &buf)
		kids := tr.children(root)
		return float64(kids[0].prior / kids[1].prior)
	}

	tr, logits := rootWithLogit(pos, p)
	assert.InDelta(t, math.Exp(2), ratio(tr, logits), 1e-3, "the root at its own temperature")
	_, _, cached := c.get(pos.Key(), int(tr.at(root).count))
	assert.False(t, cached, "a root's own priors are not cached")

	// The position expanded at PolicyTemp (as below a root) is cached; a
	// root with a temperature of its own does not take those priors.
	tr, logits = rootWithLogit(pos, p)
	tr.params.RootPolicyTemp = 0
	assert.InDelta(t, math.Exp(1), ratio(tr, logits), 1e-3, "PolicyTemp's priors")
	_, _, cached = c.get(pos.Key(), int(tr.at(root).count))
	require.True(t, cached)
	tr, _ = rootWithLogit(pos, p)
	assert.False(t, tr.fromCache(c, rootLeaf()), "a root with a temperature of its own does not take cached priors")
	tr.params.RootPolicyTemp = 0
	assert.True(t, tr.fromCache(c, rootLeaf()), "one without does")
}

// rootWithLogit returns a tree with pos's root expanded and logits giving
// its first move 2 and every other 0.
func rootWithLogit(pos *board.Position, p Params) (*tree, []float32) {
	tr := newTree(pos, p)
	var ml movegen.MoveList
	tr.expand(root, pos, &ml)
	logits := make([]float32, encoding.PolicySize)
	logits[encoding.MoveIndexFor(board.White, tr.children(root)[0].move)] = 2
	return tr, logits
}

// PolicyTemp divides the logits before the softmax: at 2 two moves whose
// logits differ by 2 keep priors e apart rather than e² apart, and the
// priors still sum to 1.
func TestPolicyTemperature(t *testing.T) {
	pos := board.StartPosition()
	for _, temp := range []float64{0.5, 1, 2} {
		p := DefaultParams
		p.PolicyTemp = temp
		tr, logits := rootWithLogit(pos, p)
		tr.setPriors(root, board.White, logits)
		kids := tr.children(root)
		sum := float32(0)
		for _, c := range kids {
			sum += c.prior
		}
		assert.InDelta(t, 1, sum, 1e-5, "temperature %g", temp)
		assert.InDelta(t, math.Exp(2/temp), float64(kids[0].prior/kids[1].prior), 1e-3, "temperature %g", temp)
	}
}
