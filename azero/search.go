package azero

import (
	"fmt"
	"math"
	"runtime"
	"slices"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/twofold-chess/twofold/board"
	"github.com/twofold-chess/twofold/mind"
	"github.com/twofold-chess/twofold/movegen"
	"github.com/twofold-chess/twofold/timeman"
)

// Options configure the MCTS searcher.
type Options struct {
	Threads      int // workers, each with its own evaluator
	BatchSize    int // leaves gathered per network run (per worker)
	CacheSize    int // NN cache entries (0 = off)
	MultiPV      int
	MoveOverhead time.Duration
	Params       Params
	// RamLimitMB bounds the search tree's memory, in MiB (Lc0's RamLimitMb;
	// < 1 means the default). Without it "go infinite" grows the tree until
	// the machine runs out of memory. A search whose tree is full stops
	// playing out: a timed or node-limited one returns, an infinite or
	// ponder one keeps its best move and waits for Stop (or PonderHit and
	// then the clock), as UCI wants bestmove only then. The NN cache is
	// bounded apart from this, by CacheSize.
	RamLimitMB int
	// Tablebases are the endgame tables probed: a new node inside them
	// takes its value from WDL instead of the network and needs no
	// children, and the root moves are those that keep the root's result
	// (see tree.tbRoot). Zero: none.
	Tablebases mind.Tablebases
}

// DefaultOptions are the searcher's defaults (also the UCI defaults). A
// GiB of tree is about 33 million nodes, over a million playouts: minutes
// of analysis on a CPU, while leaving most of a small machine's memory to
// the rest of the process.
var DefaultOptions = Options{Threads: 1, BatchSize: 16, CacheSize: 200_000, MultiPV: 1, MoveOverhead: 10 * time.Millisecond, Params: DefaultParams, RamLimitMB: 1024}

// MoveVisits is a root move and the playouts that went through it.
type MoveVisits struct {
	Move   board.Move
	Visits int
	Proven int // +1: the move wins by force, -1: it loses by force, 0: not known
}

// RootVisits appends the root moves of the last search, with their visits,
// to dst (nothing before the first search).
func (s *Searcher) RootVisits(dst []MoveVisits) []MoveVisits {
	s.settle()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.tree == nil {
		return dst
	}
	for _, c := range s.tree.children(root) {
		mv := MoveVisits{Move: c.move, Visits: int(c.n)}
		switch c.proven {
		case provenWin:
			mv.Proven = 1
		case provenLoss:
			mv.Proven = -1
		}
		dst = append(dst, mv)
	}
	return dst
}

// The searcher is a mind.Searcher itself, reporting and answering in
// mind's forms (see Search).
var _ mind.Searcher = (*Searcher)(nil)

// SetShared implements mind.Searcher; the searcher's other options stay.
func (s *Searcher) SetShared(o mind.Shared) {
	so := s.opts
	so.Threads, so.MultiPV, so.MoveOverhead, so.Tablebases = o.Threads, o.MultiPV, o.MoveOverhead, o.Tablebases
	s.SetOptions(so)
}

// networkFailed is how a network failure is reported as the result's Err.
func networkFailed(err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("MCTS: network evaluation failed: %w", err)
}

// QToCentipawns maps an expected result in [-1, 1] to centipawns with Lc0's
// classic formula, 90 * tan(1.5637541897 * q), clamped to +-12800.
func QToCentipawns(q float64) int {
	cp := 90 * math.Tan(1.5637541897*q)
	return int(math.Round(max(-12800, min(12800, cp))))
}

// Searcher is the MCTS searcher: Threads workers share one tree under a
// mutex, each gathering a batch of leaves (kept apart by virtual loss),
// running the network on the batch outside the lock, and backing up.
type Searcher struct {
	backend Backend
	opts    Options
	evals   []Evaluator
	evalB   int

	mu    sync.Mutex // guards tree, cache and the counters below during a search
	tree  *tree
	cache *cache
	lim   timeman.Limits
	clock timeman.Clock

	started, done uint64 // playouts begun and finished in this search
	full          bool   // the tree reached its memory budget in this search
	nnEvals       uint64 // network evaluations in this search
	sumDepth      uint64
	selDepth      int
	err           error
	lastReport    time.Time
	report        func(mind.Info)
	lastBest      board.Move // the root move the last report put first
	stopping      atomic.Bool
	pondering     atomic.Bool
	// A Stop does not wait for the batches in flight: run answers from the
	// tree at once, and the workers finish their batch and leave after it
	// (a network run of a large batch on a busy machine takes longer than
	// UCI's stop should). workers counts them; everything that touches the
	// tree or the evaluators outside a search waits for them (settle).
	// stop is closed by Stop; reportMu keeps a straggler's report from
	// following the final one, and ended says the search has answered.
	workers  *sync.WaitGroup
	stop     atomic.Pointer[stopSignal]
	reportMu sync.Mutex
	ended    bool
	reused   bool
	side     board.Color // side to move at the root
}

// stopSignal is closed once, by the first Stop of a search.
type stopSignal struct {
	once sync.Once
	ch   chan struct{}
}

func (g *stopSignal) fire() { g.once.Do(func() { close(g.ch) }) }

// settle waits for the workers of the last search to finish their batches.
func (s *Searcher) settle() {
	if s.workers != nil {
		s.workers.Wait()
	}
}

// New returns a searcher whose workers get evaluators from b (one per
// worker, made at the first search and again when Threads or BatchSize
// change).
func New(b Backend, opts Options) *Searcher {
	s := &Searcher{backend: b}
	s.SetOptions(opts)
	return s
}

// Open is New, but makes the evaluators at once, so that a backend that
// cannot run (a network ONNX Runtime refuses) is reported here rather than
// at the first "go".
func Open(b Backend, opts Options) (*Searcher, error) {
	s := New(b, opts)
	if err := s.ensureEvaluators(); err != nil {
		return nil, err
	}
	return s, nil
}

// SetOptions changes options; they apply from the next search. Values out
// of range are corrected rather than refused (see Params for the search
// constants), so no setting can make the search misbehave.
func (s *Searcher) SetOptions(o Options) {
	s.settle()
	o.Threads = max(o.Threads, 1)
	o.BatchSize = max(o.BatchSize, 1)
	o.MultiPV = max(o.MultiPV, 1)
	if o.Params == (Params{}) {
		o.Params = DefaultParams
	}
	// Sanitized here and not only in the tree so the comparison below sees
	// the constants actually used (NaN would never compare equal).
	o.Params = o.Params.sanitized()
	if o.RamLimitMB < 1 {
		o.RamLimitMB = DefaultOptions.RamLimitMB
	}
	// The cache holds priors already softmaxed at the old temperature.
	if s.cache == nil || o.CacheSize != s.opts.CacheSize || o.Params.PolicyTemp != s.opts.Params.PolicyTemp {
		s.cache = newCache(o.CacheSize)
	}
	if o.Params != s.opts.Params || o.Tablebases != s.opts.Tablebases {
		s.tree = nil // statistics gathered under other constants, or other tables
	}
	s.opts = o
	if s.tree != nil && s.tree.size() > s.maxNodes() {
		s.tree = nil // kept, it would leave the next search no room
	}
}

// Options returns the options in force (corrected as SetOptions corrects
// them).
func (s *Searcher) Options() Options { return s.opts }

// maxNodes is the tree size RamLimitMB allows: whole pages of nodes (at
// least one), as the tree allocates them.
func (s *Searcher) maxNodes() int {
	pages := max(int64(s.opts.RamLimitMB)<<20/(pageSize*int64(nodeBytes)), 1)
	return int(min(pages*pageSize, maxTreeNodes))
}

// ensureEvaluators opens one evaluator per worker.
func (s *Searcher) ensureEvaluators() error {
	if len(s.evals) == s.opts.Threads && s.evalB == s.opts.BatchSize {
		return nil
	}
	s.closeEvaluators()
	for range s.opts.Threads {
		ev, err := s.backend.NewEvaluator(s.opts.BatchSize)
		if err != nil {
			s.closeEvaluators()
			return err
		}
		s.evals = append(s.evals, ev)
	}
	s.evalB = s.opts.BatchSize
	return nil
}

func (s *Searcher) closeEvaluators() {
	for _, ev := range s.evals {
		ev.Close()
	}
	s.evals = nil
}

// Close frees the evaluators.
func (s *Searcher) Close() {
	s.settle()
	s.closeEvaluators()
}

// Clear forgets the tree and the NN cache (a new game).
func (s *Searcher) Clear() {
	s.settle()
	s.tree = nil
	s.cache = newCache(s.opts.CacheSize)
}

// Stop ends the running search; it still reports its best move, at once:
// the batches in flight are not waited for.
func (s *Searcher) Stop() {
	s.pondering.Store(false)
	s.stopping.Store(true)
	if g := s.stop.Load(); g != nil {
		g.fire()
	}
}

// PonderHit turns a ponder search into a normal one: the clock starts now.
func (s *Searcher) PonderHit() {
	s.clock.Start(s.lim, s.opts.MoveOverhead, s.side, time.Now())
	s.pondering.Store(false)
}

// Search searches p within lim and returns the best move; report (may be
// nil) gets progress reports: one per MultiPV line, ordered by visits, with
// depth the mean playout depth, nodes the playouts, the score Q in
// centipawns (QToCentipawns) or a proven mate, and no hash table (HashFull
// -1). A network failure comes back as the result's Err, with a legal move.
func (s *Searcher) Search(p *board.Position, lim timeman.Limits, report func(mind.Info)) mind.Result {
	s.begin(p, lim, report)
	return s.run()
}

// Go implements mind.Searcher: Search in its own goroutine, calling done
// with the result. The search is set up before Go returns, so an immediate
// Stop or PonderHit is never lost.
func (s *Searcher) Go(p *board.Position, lim timeman.Limits, report func(mind.Info), done func(mind.Result)) {
	s.begin(p, lim, report)
	go func() { done(s.run()) }()
}

func (s *Searcher) begin(p *board.Position, lim timeman.Limits, report func(mind.Info)) {
	s.settle()
	if s.err != nil {
		s.tree = nil // the last search failed: pending nodes are left behind
	}
	s.stop.Store(&stopSignal{ch: make(chan struct{})})
	s.ended, s.lastBest = false, board.NoMove
	s.stopping.Store(false)
	s.pondering.Store(lim.Ponder)
	s.lim, s.report, s.side = lim, report, p.Side()
	s.started, s.done, s.nnEvals, s.sumDepth, s.selDepth, s.err = 0, 0, 0, 0, 0, nil
	s.full = false
	s.prepareTree(p)
	s.tree.allowed = s.tree.tbRoot(s.opts.Tablebases, lim.Moves)
	s.tree.maxNodes = s.maxNodes()
	s.clock.Start(lim, s.opts.MoveOverhead, p.Side(), time.Now())
	s.lastReport = time.Now()
}

// prepareTree reuses the previous tree when p continues the game it was
// searched in (the moves played since are in p's history), else starts anew.
func (s *Searcher) prepareTree(p *board.Position) {
	s.reused = false
	if s.tree != nil {
		if moves, ok := continuation(s.tree.pos, p); ok && s.tree.reroot(moves, p) {
			s.reused = true
			return
		}
	}
	s.tree = newTree(p, s.opts.Params)
}

// continuation returns the moves that lead from old to p through p's
// history, if p continues old.
func continuation(old, p *board.Position) ([]board.Move, bool) {
	k := p.Ply() - old.Ply()
	if k < 0 || k > 16 {
		return nil, false
	}
	c := p.Clone()
	moves := make([]board.Move, k)
	for i := k - 1; i >= 0; i-- {
		moves[i] = c.LastMove()
		c.Unmake()
	}
	return moves, c.Key() == old.Key() && c.Side() == old.Side()
}

// Reused reports whether the last search started from the previous tree.
func (s *Searcher) Reused() bool { return s.reused }

func (s *Searcher) run() mind.Result {
	t := s.tree
	var ml movegen.MoveList
	movegen.Legal(t.pos, &ml)
	if ml.Len() == 0 {
		return mind.Result{}
	}
	if ml.Len() == 1 {
		s.clock.OnlyMove()
	}
	if err := s.ensureEvaluators(); err != nil {
		s.tree = nil
		return mind.Result{Best: ml.At(0), Err: networkFailed(err)}
	}
	// The root gets its priors before anything can stop the search, so even
	// a search stopped at once plays the network's choice (or a mate in one).
	if t.at(root).state == stateNew {
		s.mu.Lock()
		w := s.newWorker(s.evals[0], 1)
		n, _ := s.gather(w) // gathers the new root whatever the limits say
		s.mu.Unlock()
		if n == 1 {
			if err := w.b.evaluate(); err != nil {
				s.tree = nil
				return mind.Result{Best: ml.At(0), Err: networkFailed(err)}
			}
			s.mu.Lock()
			s.finish(w.b)
			s.mu.Unlock()
		}
	}
	wg := &sync.WaitGroup{}
	s.workers = wg
	for i := range s.opts.Threads {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.work(i, s.evals[i])
		}()
	}
	all := make(chan struct{})
	go func() {
		wg.Wait()
		close(all)
	}()
	select {
	case <-all:
	case <-s.stop.Load().ch: // the workers may still be in a network run
	}

	// The final report, then the answer; the tree is read under the lock,
	// as workers still finishing a batch may be writing it.
	s.reportMu.Lock()
	s.mu.Lock()
	s.ended = true
	var infos []mind.Info
	if s.report != nil {
		infos = s.infos()
	}
	res := s.result(&ml)
	s.mu.Unlock()
	for _, info := range infos {
		s.report(info)
	}
	s.reportMu.Unlock()
	return res
}

// result is the search's answer; it holds s.mu.
func (s *Searcher) result(ml *movegen.MoveList) mind.Result {
	t := s.tree
	res := mind.Result{Nodes: s.done, Evals: s.nnEvals, Err: networkFailed(s.err)}
	best := t.bestChild(root)
	if best < 0 {
		res.Best = ml.At(0)
		return res
	}
	res.Best = t.at(best).move
	res.Root = s.rootMoves()
	res.Q = t.at(best).q(0)
	res.Score = mind.CP(QToCentipawns(res.Q))
	if t.rootTB && t.at(best).proven == provenNone {
		res.Score = mind.CP(t.rootTBCP)
	}
	if t.at(best).state == stateExpanded && t.at(best).count > 0 {
		if reply := t.bestChild(best); reply >= 0 && t.at(reply).n > 0 {
			res.Ponder = t.at(reply).move
		}
	}
	return res
}

// rootMoves lists the root's children (those searchmoves allows) in the
// order bestChild ranks them; it holds s.mu.
func (s *Searcher) rootMoves() []mind.RootMove {
	t := s.tree
	rootNode := t.at(root)
	var order []int32
	total := 0
	for i := int32(0); i < int32(rootNode.count); i++ {
		c := rootNode.first + i
		if t.allowed != nil && !slices.Contains(t.allowed, t.at(c).move) {
			continue
		}
		order = append(order, c)
		total += int(t.at(c).n)
	}
	sort.SliceStable(order, func(a, b int) bool { return t.better(order[a], order[b]) })
	out := make([]mind.RootMove, 0, len(order))
	for _, c := range order {
		nd := t.at(c)
		rm := mind.RootMove{Move: nd.move, Visits: int(nd.n), Prior: float64(nd.prior), Q: nd.q(0)}
		switch nd.proven {
		case provenWin:
			rm.Proven = 1
		case provenLoss:
			rm.Proven = -1
		}
		if total > 0 {
			rm.Share = float64(nd.n) / float64(total)
		}
		out = append(out, rm)
	}
	return out
}

// worker state: its root position to descend from and its batch,
// allocated once per search.
type worker struct {
	pos *board.Position
	b   *batch
}

// newWorker allocates a worker with a batch of size; it holds s.mu.
func (s *Searcher) newWorker(ev Evaluator, size int) *worker {
	return &worker{pos: s.tree.pos.Clone(), b: newBatch(ev, s.cache, size)}
}

func (s *Searcher) work(id int, ev Evaluator) {
	s.mu.Lock()
	w := s.newWorker(ev, s.opts.BatchSize)
	s.mu.Unlock()
	for {
		s.mu.Lock()
		if s.finished() {
			s.mu.Unlock()
			return
		}
		n, collided := s.gather(w)
		full := s.full
		s.mu.Unlock()
		if n == 0 {
			switch {
			case full:
				// An infinite or ponder search with a full tree: nothing
				// to do until Stop or PonderHit, which finished() polls.
				time.Sleep(fullPoll)
			case collided:
				runtime.Gosched() // another worker holds the only open leaves
			}
			if s.reportDue(id) {
				s.sendReports()
			}
			continue
		}
		err := w.b.evaluate()
		s.mu.Lock()
		if err != nil {
			s.err = err
			s.stopping.Store(true)
			s.mu.Unlock()
			return
		}
		s.finish(w.b)
		s.mu.Unlock()
		if s.reportDue(id) {
			s.sendReports()
		}
	}
}

// fullPoll is how often an idle worker of a full tree looks for Stop: short
// next to the milliseconds UCI allows for bestmove, long next to a poll's cost.
const fullPoll = 2 * time.Millisecond

// gather fills w's batch with leaves for the network, resolving terminal,
// proven and cached leaves on the spot. It holds s.mu.
func (s *Searcher) gather(w *worker) (n int, collided bool) {
	t, b := s.tree, w.b
	b.reset()
	size := len(b.leaves)
	// Resolved playouts cost no network run; a bound on them per batch keeps
	// a proven or tiny tree from holding the lock forever.
	for tries := 0; !b.full() && tries < 4*size+64 && !s.full && (s.budgetLeft() || t.at(root).state == stateNew); tries++ {
		out, lf, queued := b.add(t, w.pos)
		switch out {
		case needsNetwork:
			s.started++
			if !queued {
				s.count(lf) // answered by the cache
			}
		case collision:
			return b.n, true
		case treeFull:
			// The budget is spent: no more playouts in this search (the
			// ones in flight still finish).
			s.full = true
			return b.n, false
		case resolved:
			s.started++
			s.count(lf)
		}
	}
	return b.n, false
}

func (s *Searcher) count(lf *leaf) {
	s.done++
	d := len(lf.path) - 1
	s.sumDepth += uint64(d)
	s.selDepth = max(s.selDepth, d)
}

// finish backs up the network's results for b's leaves; it holds s.mu.
func (s *Searcher) finish(b *batch) {
	for i := range b.n {
		s.count(b.apply(i))
		s.nnEvals++
	}
}

// budgetLeft reports whether another playout may start: "go nodes N" is
// exactly N playouts.
func (s *Searcher) budgetLeft() bool {
	return !s.stopping.Load() && (s.lim.Nodes == 0 || s.started < s.lim.Nodes)
}

// finished decides whether the workers stop; it holds s.mu.
func (s *Searcher) finished() bool {
	if s.stopping.Load() {
		return true
	}
	if s.lim.Nodes > 0 && s.started >= s.lim.Nodes {
		return true
	}
	if s.pondering.Load() || s.lim.Infinite {
		return false // only Stop (or PonderHit, then the clock) ends these
	}
	if s.full {
		s.stopping.Store(true)
		return true
	}
	t := s.tree
	rootNode := t.at(root)
	if rootNode.proven != provenNone && s.lim.Nodes == 0 {
		s.stopping.Store(true) // a forced result: nothing left to learn
		return true
	}
	if s.lim.Mate > 0 && rootNode.proven == provenLoss && int(rootNode.plies+1)/2 <= s.lim.Mate {
		s.stopping.Store(true)
		return true
	}
	if s.lim.Depth > 0 && s.done > 0 && int(s.sumDepth/s.done) >= s.lim.Depth {
		s.stopping.Store(true)
		return true
	}
	if s.clock.HardStop() {
		s.stopping.Store(true)
		return true
	}
	if soft := s.clock.Soft(); soft > 0 {
		elapsed := s.clock.Elapsed()
		if elapsed >= soft || s.decided(soft-elapsed, elapsed) {
			s.stopping.Store(true)
			return true
		}
	}
	return false
}

// decided reports whether the most-visited root move can no longer be
// overtaken in the time left at the current playout rate (smart pruning).
func (s *Searcher) decided(left, elapsed time.Duration) bool {
	if elapsed < 50*time.Millisecond || s.done < 100 {
		return false
	}
	first, second := int32(0), int32(0)
	for _, c := range s.tree.children(root) {
		if c.n > first {
			first, second = c.n, first
		} else if c.n > second {
			second = c.n
		}
	}
	rate := float64(s.done) / elapsed.Seconds()
	return float64(first-second) > rate*left.Seconds()
}

// reportDue says whether worker id should send info lines now: the first
// worker does, once a second and whenever the best root move changed since
// the last report (as Lc0 does).
func (s *Searcher) reportDue(id int) bool {
	if id != 0 || s.report == nil {
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if time.Since(s.lastReport) >= time.Second {
		return true
	}
	best := s.tree.bestChild(root)
	return best >= 0 && s.tree.at(best).move != s.lastBest
}

// sendReports sends one report per MultiPV line, ordered by visits, unless
// the search has already answered.
func (s *Searcher) sendReports() {
	if s.report == nil {
		return
	}
	s.reportMu.Lock()
	defer s.reportMu.Unlock()
	s.mu.Lock()
	if s.ended {
		s.mu.Unlock()
		return
	}
	infos := s.infos()
	s.lastReport = time.Now()
	s.mu.Unlock()
	for _, info := range infos {
		s.report(info)
	}
}

// infos builds the reports; it holds s.mu.
func (s *Searcher) infos() []mind.Info {
	t := s.tree
	rootNode := t.at(root)
	if rootNode.first < 0 {
		return nil
	}
	var order []int32
	for i := int32(0); i < int32(rootNode.count); i++ {
		c := rootNode.first + i
		if t.allowed != nil && !slices.Contains(t.allowed, t.at(c).move) {
			continue
		}
		order = append(order, c)
	}
	sort.SliceStable(order, func(a, b int) bool { return t.better(order[a], order[b]) })
	if len(order) > 0 {
		s.lastBest = t.at(order[0]).move
	}
	lines := min(s.opts.MultiPV, len(order))
	elapsed := s.clock.Elapsed()
	depth := 1
	if s.done > 0 {
		depth = max(1, int(math.Round(float64(s.sumDepth)/float64(s.done))))
	}
	infos := make([]mind.Info, 0, lines)
	for k := range lines {
		c := order[k]
		nd := t.at(c)
		q := nd.q(-rootNode.q(0))
		info := mind.Info{
			Depth: depth, SelDepth: max(s.selDepth, depth), MultiPV: k + 1,
			Score: mind.CP(QToCentipawns(q)), Q: q, Visits: int(nd.n),
			Nodes: s.done, Time: elapsed, HashFull: -1, TBHits: t.tbHits, PV: t.pv(c, nil),
		}
		mate := 0 // moves to a proven mate: > 0 we mate, < 0 we are mated
		switch nd.proven {
		case provenWin:
			mate = (int(nd.plies) + 2) / 2
		case provenLoss:
			mate = -(int(nd.plies) + 1) / 2
		}
		if mate != 0 {
			info.Score = mind.MateIn(mate)
		} else if t.rootTB {
			// The tables know the root's result; the network's Q only
			// guesses it (the moves searched are those that keep it).
			info.Score = mind.CP(t.rootTBCP)
		}
		infos = append(infos, info)
	}
	return infos
}
