package search

import (
	"slices"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/twofold-chess/twofold/board"
	"github.com/twofold-chess/twofold/eval"
	"github.com/twofold-chess/twofold/mind"
	"github.com/twofold-chess/twofold/movegen"
	"github.com/twofold-chess/twofold/nnue"
	"github.com/twofold-chess/twofold/timeman"
)

// Options configure a Searcher; the zero value of each field means its default.
type Options struct {
	Threads      int             // Lazy SMP threads, default 1
	MultiPV      int             // lines to report, default 1
	MoveOverhead time.Duration   // kept in hand per move for GUI and transport lag
	Strength     Strength        // weakening for casual play; zero = full strength
	Network      *nnue.Network   // the static evaluation at full strength; nil = the hand-crafted eval.Evaluate (SetOptions empties the tables when it changes)
	Tablebases   mind.Tablebases // the endgame tables probed at full strength (see tablebase.go); zero = none
}

// Evaluator is the network a search with these options evaluates with: nil
// (the hand-crafted evaluation) when Network is nil or when Strength
// weakens the search, whose levels were calibrated (and the seed's
// Easy/Medium/Hard defined) with the hand-crafted evaluation, unless the
// Strength was measured with the network (Strength.Network).
func (o Options) Evaluator() *nnue.Network {
	if o.Strength.Limited() && !o.Strength.Network {
		return nil
	}
	return o.Network
}

// Searcher runs searches; it keeps the transposition table and the threads'
// history tables between searches of one game.
type Searcher struct {
	tt      *TT
	opts    Options
	threads []*thread

	stop      atomic.Bool
	pondering atomic.Bool
	clock     timeman.Clock

	limits   Limits
	report   func(mind.Info) // nil when nobody listens
	start    time.Time       // when Search began (for reports)
	rootSide board.Color
	mu       sync.Mutex // held for the duration of a search
	rng      uint64     // for the weakened modes' random choices
	// The search's tablebase probes (see tbSetup): the most pieces probed
	// in the tree (0: no probes), the least depth for that many, whether
	// the root moves were ranked by the tables, the root probe's hits.
	tbCard, tbDepth int
	rootInTB        bool
	tbRootHits      uint64
}

// New returns a Searcher with a transposition table of hashMB megabytes.
func New(hashMB int, opts Options) *Searcher {
	s := &Searcher{tt: NewTT(hashMB), rng: uint64(time.Now().UnixNano()) | 1}
	s.SetOptions(opts)
	return s
}

// SetOptions changes the options; not during a search.
func (s *Searcher) SetOptions(o Options) {
	o.Threads = max(o.Threads, 1)
	o.MultiPV = max(o.MultiPV, 1)
	newEval := o.Evaluator() != s.opts.Evaluator()
	s.opts = o
	for len(s.threads) < o.Threads {
		s.threads = append(s.threads, &thread{s: s, id: len(s.threads)})
	}
	s.threads = s.threads[:o.Threads]
	if newEval {
		// The table and histories hold the other evaluation's scores: a
		// search after the change is the one a fresh searcher makes.
		s.Clear()
	}
}

// Options returns the current options.
func (s *Searcher) Options() Options { return s.opts }

// SetHash resizes (and empties) the transposition table; a size the machine
// cannot hold is refused and the table kept.
func (s *Searcher) SetHash(mb int) error { return s.tt.Resize(mb) }

// Clear empties the transposition table and the history tables (new game).
func (s *Searcher) Clear() {
	s.tt.Clear()
	for _, t := range s.threads {
		t.clearHistory()
	}
}

// Stop asks a running search to finish; Search then returns at once.
func (s *Searcher) Stop() {
	s.pondering.Store(false)
	s.stop.Store(true)
}

// PonderHit turns a ponder search into a normal one: the clock starts now.
func (s *Searcher) PonderHit() {
	if s.pondering.Load() {
		s.clock.Start(s.limits, s.opts.MoveOverhead, s.rootSide, time.Now())
		s.pondering.Store(false)
	}
}

// Search searches p (which it does not modify) within the limits, calling
// report with progress, and returns the best move. It blocks until done;
// call Stop or PonderHit from another goroutine, or use Go.
func (s *Searcher) Search(p *board.Position, lim Limits, report func(mind.Info)) mind.Result {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.begin(p, lim, report)
	return s.run(p, lim)
}

// Go implements mind.Searcher: it starts a search of p in a new goroutine
// and calls done with its result. Unlike Search run in a goroutine, the
// search is set up before Go returns, so a Stop or PonderHit that follows
// Go at once is never lost. p must not change until done is called.
func (s *Searcher) Go(p *board.Position, lim Limits, report func(mind.Info), done func(mind.Result)) {
	s.mu.Lock()
	s.begin(p, lim, report)
	go func() {
		res := s.run(p, lim)
		s.mu.Unlock()
		done(res)
	}()
}

// begin resets the per-search state; s.mu is held.
func (s *Searcher) begin(p *board.Position, lim Limits, report func(mind.Info)) {
	s.start = time.Now()
	s.stop.Store(false)
	s.pondering.Store(lim.Ponder)
	s.limits, s.report = lim, report
	s.rootSide = p.Side()
	s.tbCard, s.rootInTB, s.tbRootHits = 0, false, 0
	s.tt.newSearch()
}

// run is the search proper, after begin; s.mu is held.
func (s *Searcher) run(p *board.Position, lim Limits) mind.Result {
	root := s.rootMoves(p, lim.Moves)
	if len(root) == 0 {
		s.waitUntilReleased(lim)
		score := 0
		if movegen.InCheck(p) {
			score = -MateScore
		}
		return mind.Result{Score: reported(score, BoundExact)}
	}
	root = s.tbSetup(p, root)
	s.clock.Start(lim, s.opts.MoveOverhead, p.Side(), s.start)
	if len(root) == 1 {
		s.clock.OnlyMove()
	}

	if s.opts.Strength.active() {
		return s.weakSearch(p, root)
	}

	var wg sync.WaitGroup
	for _, t := range s.threads {
		t.prepare(p, root)
	}
	for _, t := range s.threads[1:] {
		wg.Add(1)
		go func(t *thread) {
			defer wg.Done()
			t.iterate()
		}(t)
	}
	main := s.threads[0]
	main.iterate()
	s.waitUntilReleased(lim)
	s.stop.Store(true)
	wg.Wait()
	if main.completedDepth == 0 {
		main.rankUnfinishedFirstIteration()
	}
	if main.interrupted || main.rootMoves[0].move != main.reportedBest {
		main.reportFinal(min(s.opts.MultiPV, len(main.rootMoves)))
	}

	best := main.rootMoves[0]
	score := best.score
	if score == -Infinity { // stopped before this iteration scored the move
		score = main.lastScore
	}
	res := mind.Result{Best: best.move, Score: s.reportedRoot(&best, score, BoundExact), Depth: main.completedDepth, Nodes: s.nodes()}
	if best.pvLen > 1 {
		res.Ponder = best.pv[1]
	} else if d, ok := s.tt.probe(afterMove(p, best.move)); ok && d.move != board.NoMove {
		res.Ponder = s.legalOrNone(p, best.move, d.move)
	}
	return res
}

// rankUnfinishedFirstIteration orders the root moves when a stop or a limit
// cut the first iteration short (stop is obeyed inside it): moves it scored
// keep their scores, the others get a one-ply static score (mate and
// stalemate seen), so the answer is a sensible move (a mate in one, not the
// first move generated) and costs well under a millisecond.
func (t *thread) rankUnfinishedFirstIteration() {
	p := t.pos
	for i := range t.rootMoves {
		rm := &t.rootMoves[i]
		if rm.score > -Infinity {
			continue
		}
		p.Make(rm.move)
		var replies movegen.MoveList
		movegen.Legal(p, &replies)
		switch {
		case replies.Len() == 0 && movegen.InCheck(p):
			rm.score = MateScore - 1
		case replies.Len() == 0 || isDraw(p):
			rm.score = 0
		default:
			rm.score = -eval.Evaluate(p)
		}
		p.Unmake()
		rm.pv[0], rm.pvLen = rm.move, 1
	}
	sort.SliceStable(t.rootMoves, func(i, j int) bool { return t.rootMoves[i].score > t.rootMoves[j].score })
}

// waitUntilReleased holds the result of an infinite or ponder search until
// the GUI says stop (or ponderhit), as UCI requires.
func (s *Searcher) waitUntilReleased(lim Limits) {
	for (lim.Infinite || s.pondering.Load()) && !s.stop.Load() {
		if !lim.Infinite && !s.pondering.Load() {
			return
		}
		time.Sleep(time.Millisecond)
	}
}

// rootMoves returns the legal moves, restricted to only when given.
func (s *Searcher) rootMoves(p *board.Position, only []board.Move) []rootMove {
	var ml movegen.MoveList
	movegen.Legal(p, &ml)
	var root []rootMove
	for _, m := range ml.Moves() {
		if len(only) > 0 && !slices.Contains(only, m) {
			continue
		}
		root = append(root, rootMove{move: m, score: -Infinity, prevScore: -Infinity, passScore: -Infinity})
	}
	return root
}

func afterMove(p *board.Position, m board.Move) uint64 {
	p.Make(m)
	k := p.Key()
	p.Unmake()
	return k
}

// legalOrNone returns reply if it is legal after m (a TT move may be a collision).
func (s *Searcher) legalOrNone(p *board.Position, m, reply board.Move) board.Move {
	p.Make(m)
	defer p.Unmake()
	var ml movegen.MoveList
	movegen.Legal(p, &ml)
	if ml.Contains(reply) {
		return reply
	}
	return board.NoMove
}

// nodes sums the threads' published node counts.
func (s *Searcher) nodes() uint64 {
	var n uint64
	for _, t := range s.threads {
		n += t.published.Load()
	}
	return n
}

// elapsed is the time since the search (or the ponderhit) started.
func (s *Searcher) elapsed() time.Duration { return time.Since(s.start) }

// reportFinal sends the lines once more when stop or a limit cut the search
// short inside an iteration, as Stockfish does: GUIs take the last line as
// the verdict, and the earlier one may name another move than the bestmove
// or carry old node counts. A move the cut iteration scored is reported at
// that depth, with a bound if its score fell outside the window; the others
// at the depth before with their score from it.
func (t *thread) reportFinal(multiPV int) {
	if t.s.report == nil {
		return
	}
	for i := 0; i < multiPV; i++ {
		rm := &t.rootMoves[i]
		depth, score, bound := t.rootDepth, rm.score, BoundExact
		switch {
		case score == -Infinity && rm.passScore != -Infinity:
			score, bound = rm.passScore, rm.passBound
		case score == -Infinity:
			depth, score = t.rootDepth-1, rm.prevScore
		case score <= t.passAlpha:
			bound = BoundUpper
		case score >= t.passBeta:
			bound = BoundLower
		}
		if score == -Infinity || rm.pvLen == 0 {
			continue
		}
		t.s.report(mind.Info{
			Depth: max(depth, 1), SelDepth: rm.selDepth, MultiPV: i + 1, Score: t.s.reportedRoot(rm, score, bound),
			Nodes: t.s.nodes(), Time: t.s.elapsed(), HashFull: t.s.tt.Hashfull(), TBHits: t.s.tbHits(),
			PV: append([]board.Move(nil), rm.pv[:rm.pvLen]...),
		})
	}
}

// reportLine sends the report of MultiPV line i.
func (t *thread) reportLine(depth, i int) {
	rm := &t.rootMoves[i]
	if rm.score == -Infinity {
		return
	}
	if i == 0 {
		t.reportedBest = rm.move
	}
	t.published.Store(t.nodes)
	if t.s.report == nil {
		return
	}
	t.s.report(mind.Info{
		Depth: depth, SelDepth: rm.selDepth, MultiPV: i + 1, Score: t.s.reportedRoot(rm, rm.score, BoundExact),
		Nodes: t.s.nodes(), Time: t.s.elapsed(), HashFull: t.s.tt.Hashfull(), TBHits: t.s.tbHits(),
		PV: append([]board.Move(nil), rm.pv[:rm.pvLen]...),
	})
}
