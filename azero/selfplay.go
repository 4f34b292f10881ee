package azero

import (
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/twofold-chess/twofold/azero/chunk"
	"github.com/twofold-chess/twofold/azero/encoding"
	"github.com/twofold-chess/twofold/board"
	"github.com/twofold-chess/twofold/movegen"
	"github.com/twofold-chess/twofold/pgn"
)

// SelfPlayConfig configures self-play data generation.
type SelfPlayConfig struct {
	Games         int // games to play in all
	Workers       int // goroutines, each with its own evaluator
	Parallel      int // games each worker plays in lockstep
	LeavesPerGame int // leaves gathered per game per network run (virtual loss)
	Playouts      int // root visits per move (a reused subtree counts)
	// Playout cap randomization (KataGo): when FastPlayouts > 0, only a
	// FullShare of the moves get a full search of Playouts with root noise
	// and become samples; the others get FastPlayouts and no noise and are
	// not recorded. Games then finish several times faster, so the value
	// head sees many more game results for the same compute.
	FastPlayouts int
	FullShare    float64
	// GumbelActions > 0 searches the full (recorded) moves with Gumbel
	// AlphaZero's root (gumbel.go) considering that many moves, on a fresh
	// tree: the move played is sequential halving's survivor, the sample's
	// policy the improved policy softmax(logit + σ(completed Q)), and there
	// is no Dirichlet noise. 0 is PUCT with noise and visit-count targets.
	GumbelActions int
	SamplePlies   int // moves are sampled by visit count before this ply, then greedy
	MaxPlies      int // a game this long is adjudicated a draw
	NoiseAlpha    float64
	NoiseWeight   float64
	// Resignation: a side whose best move's Q is below -ResignThreshold
	// resigns (0 = never). ResignCheck is the share of games played on
	// anyway, to count how often resigning would have been wrong.
	ResignThreshold float64
	ResignCheck     float64
	Params          Params
	CacheSize       int // NN cache entries per worker
	Seed            uint64
	ChunkDir        string    // where chunk files go ("" = none)
	ChunkGames      int       // games per chunk file (per worker)
	ChunkPrefix     string    // file name prefix, so runs and iterations do not collide
	PGN             io.Writer // every game in PGN (nil = none)
	Progress        func(SelfPlayStats)
}

// DefaultSelfPlay is AlphaZero's recipe scaled to small machines.
var DefaultSelfPlay = SelfPlayConfig{
	Games: 100, Workers: 2, Parallel: 16, LeavesPerGame: 2, Playouts: 100,
	SamplePlies: 30, MaxPlies: 400, NoiseAlpha: 0.3, NoiseWeight: 0.25,
	ResignCheck: 0.1, Params: SelfPlayParams, CacheSize: 100_000, ChunkGames: 8,
}

// SelfPlayStats is the running total of a self-play run.
type SelfPlayStats struct {
	Games, Positions         int
	WhiteWins, Draws, Losses int // Losses = Black wins
	Resigned                 int
	ResignChecked, ResignBad int // games played on after a would-be resignation, and those the resigner did not lose
	Plies                    int
	Elapsed                  time.Duration
}

// GamesPerMinute is the self-play rate.
func (s SelfPlayStats) GamesPerMinute() float64 {
	return float64(s.Games) / max(s.Elapsed.Minutes(), 1e-9)
}

func (s SelfPlayStats) String() string {
	return fmt.Sprintf("games %d positions %d games/min %.1f W/D/L %d/%d/%d resigned %d (checked %d, wrong %d) avg plies %.0f",
		s.Games, s.Positions, s.GamesPerMinute(), s.WhiteWins, s.Draws, s.Losses, s.Resigned, s.ResignChecked, s.ResignBad,
		float64(s.Plies)/max(float64(s.Games), 1))
}

// SelfPlay plays cfg.Games games of the network against itself and writes
// their samples and PGN; each worker evaluates with its own evaluator from b.
func SelfPlay(b Backend, cfg SelfPlayConfig) (SelfPlayStats, error) {
	cfg.Workers = max(cfg.Workers, 1)
	cfg.Parallel = max(cfg.Parallel, 1)
	cfg.LeavesPerGame = max(cfg.LeavesPerGame, 1)
	cfg.Playouts = max(cfg.Playouts, 1)
	cfg.ChunkGames = max(cfg.ChunkGames, 1)
	if cfg.Params == (Params{}) {
		cfg.Params = SelfPlayParams
	}
	run := &selfPlayRun{cfg: cfg, backend: b, start: time.Now(), remaining: cfg.Games}
	var wg sync.WaitGroup
	errs := make([]error, cfg.Workers)
	for i := range cfg.Workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = run.worker(i)
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return run.stats, err
		}
	}
	return run.stats, nil
}

type selfPlayRun struct {
	cfg       SelfPlayConfig
	backend   Backend
	start     time.Time
	mu        sync.Mutex
	remaining int // games not yet started
	stats     SelfPlayStats
	gameNo    int
}

// claim reserves a game to start.
func (r *selfPlayRun) claim() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.remaining == 0 {
		return false
	}
	r.remaining--
	return true
}

// spGame is one self-play game in progress.
type spGame struct {
	pos       *board.Position
	t         *tree
	scratch   *board.Position // the root position, for descents
	inflight  int
	samples   []chunk.Sample
	sides     []board.Color
	moves     []board.Move
	full      bool // this move gets a full search and becomes a sample
	noise     func([]float32)
	checking  bool        // resignation disabled to check it
	resigner  board.Color // who would have resigned (checking games)
	wouldHave bool
	resigned  bool
	winner    int // +1 White, -1 Black, 0 draw (when over)
	reason    string
}

func (r *selfPlayRun) newGame(rng *rand.Rand) *spGame {
	g := &spGame{pos: board.StartPosition()}
	g.checking = r.cfg.ResignThreshold > 0 && rng.Float64() < r.cfg.ResignCheck
	g.noise = r.noise(rng)
	g.full = r.fullSearch(rng)
	g.t = newTree(g.pos, r.cfg.Params)
	r.nextSearch(g, rng)
	g.scratch = g.t.pos.Clone()
	return g
}

// fullSearch decides whether the coming move gets a full search (recorded)
// or a fast one.
func (r *selfPlayRun) fullSearch(rng *rand.Rand) bool {
	return r.cfg.FastPlayouts <= 0 || r.cfg.FullShare >= 1 || rng.Float64() < r.cfg.FullShare
}

// gumbel reports whether g's coming search is a Gumbel root search.
func (r *selfPlayRun) gumbel(g *spGame) bool { return g.full && r.cfg.GumbelActions > 0 }

// nextSearch sets up the root of g's coming search for its kind (g.full):
// a full search gets the root noise or, with GumbelActions, the Gumbel
// root (g.t is then fresh); a fast one neither.
func (r *selfPlayRun) nextSearch(g *spGame, rng *rand.Rand) {
	g.t.noise, g.t.gumbel = nil, nil
	switch {
	case r.gumbel(g):
		g.t.gumbel = newGumbelRoot(r.cfg.GumbelActions, r.cfg.Playouts, rng, true)
	case g.full:
		g.t.noise = g.noise
		g.t.applyNoise() // a reused root is already expanded
	}
}

// playouts is the root visit target of g's current move.
func (r *selfPlayRun) playouts(g *spGame) int {
	if g.full {
		return r.cfg.Playouts
	}
	return r.cfg.FastPlayouts
}

// noise returns the root noise hook: priors mixed with Dirichlet(alpha).
func (r *selfPlayRun) noise(rng *rand.Rand) func([]float32) {
	if r.cfg.NoiseWeight <= 0 {
		return nil
	}
	return func(p []float32) {
		d := make([]float64, len(p))
		sum := 0.0
		for i := range d {
			d[i] = gamma(rng, r.cfg.NoiseAlpha)
			sum += d[i]
		}
		if sum <= 0 {
			return
		}
		w := r.cfg.NoiseWeight
		for i := range p {
			p[i] = float32((1-w)*float64(p[i]) + w*d[i]/sum)
		}
	}
}

// gamma draws from Gamma(alpha, 1) (Marsaglia and Tsang; alpha < 1 by the
// boost Gamma(a) = Gamma(a+1) * U^(1/a)).
func gamma(rng *rand.Rand, alpha float64) float64 {
	if alpha < 1 {
		return gamma(rng, alpha+1) * math.Pow(rng.Float64(), 1/alpha)
	}
	d := alpha - 1.0/3
	c := 1 / math.Sqrt(9*d)
	for {
		x := rng.NormFloat64()
		v := 1 + c*x
		if v <= 0 {
			continue
		}
		v = v * v * v
		u := rng.Float64()
		if math.Log(u) < 0.5*x*x+d-d*v+d*math.Log(v) {
			return d * v
		}
	}
}

func (r *selfPlayRun) worker(id int) error {
	cfg := r.cfg
	batch := cfg.Parallel * cfg.LeavesPerGame
	ev, err := r.backend.NewEvaluator(batch)
	if err != nil {
		return err
	}
	defer ev.Close()
	rng := rand.New(rand.NewPCG(cfg.Seed, uint64(id)+1))
	b := newBatch(ev, newCache(cfg.CacheSize), batch)
	owners := make([]*spGame, batch) // the game of each queued leaf
	var done []*spGame

	var games []*spGame
	for len(games) < cfg.Parallel && r.claim() {
		games = append(games, r.newGame(rng))
	}
	for len(games) > 0 {
		b.reset()
		for _, g := range games {
			target := r.playouts(g)
			for k := 0; k < cfg.LeavesPerGame && int(g.t.at(root).n)+g.inflight < target; k++ {
				out, _, queued := b.add(g.t, g.scratch)
				if queued {
					owners[b.n-1] = g
					g.inflight++
				}
				// A self-play tree never fills (its search is a few
				// hundred playouts, its budget maxTreeNodes).
				if out == collision || out == treeFull {
					break
				}
			}
		}
		if err := b.evaluate(); err != nil {
			return err
		}
		for i := range b.n {
			b.apply(i)
			owners[i].inflight--
		}
		// Games whose search is done play their move.
		kept := games[:0]
		for _, g := range games {
			rootNode := g.t.at(root)
			ready := g.inflight == 0 && (int(rootNode.n) >= r.playouts(g) || rootNode.proven != provenNone || rootNode.count == 1)
			if ready && rootNode.state == stateExpanded {
				r.playMove(g, rng)
			}
			if g.reason != "" {
				done = append(done, g)
				if r.claim() {
					kept = append(kept, r.newGame(rng))
				}
				continue
			}
			kept = append(kept, g)
		}
		games = kept
		if len(done) >= cfg.ChunkGames || (len(games) == 0 && len(done) > 0) {
			if err := r.finishGames(id, done); err != nil {
				return err
			}
			done = done[:0]
		}
	}
	return nil
}

// playMove records the sample (after a full search), picks the move (by
// visits, sampled early in the game), plays it, and ends the game when the
// rules or the ply cap say so.
func (r *selfPlayRun) playMove(g *spGame, rng *rand.Rand) {
	t := g.t
	children := t.children(root)
	total := 0
	for _, c := range children {
		total += int(c.n)
	}
	// rated is the move the search rates best (Gumbel's noise already
	// sampled it); best is the one played, drawn by visits early in a game.
	rated := t.bestChild(root)
	if t.gumbel != nil {
		rated = t.gumbel.choice(t)
	}
	best := rated
	if t.gumbel == nil && len(g.moves) < r.cfg.SamplePlies && total > 0 && t.at(root).proven == provenNone {
		x := rng.IntN(total)
		for i, c := range children {
			if x < int(c.n) {
				best = t.at(root).first + int32(i)
				break
			}
			x -= int(c.n)
		}
	}
	if g.full {
		var policy []float64
		if t.gumbel != nil {
			policy = t.gumbel.policy(t, nil)
		}
		g.samples = append(g.samples, sample(g.pos, children, total, policy, t.at(best).move, searchValue(t, rated)))
		g.sides = append(g.sides, g.pos.Side())
	}
	// Resignation looks at the best move's value, whatever was sampled.
	if th := r.cfg.ResignThreshold; th > 0 && total > 0 {
		bq := t.at(t.bestChild(root)).q(0)
		if bq < -th {
			if !g.checking {
				g.resigned, g.reason = true, "resignation"
				g.winner = -sign(g.pos.Side())
				return
			}
			if !g.wouldHave {
				g.wouldHave, g.resigner = true, g.pos.Side()
			}
		}
	}
	m := t.at(best).move
	g.pos.Make(m)
	g.moves = append(g.moves, m)
	switch st := movegen.GameStatus(g.pos); {
	case st == movegen.Checkmate:
		g.winner, g.reason = -sign(g.pos.Side()), "checkmate"
		return
	case st.Over():
		g.winner, g.reason = 0, st.String()
		return
	case len(g.moves) >= r.cfg.MaxPlies:
		g.winner, g.reason = 0, "ply cap"
		return
	}
	// A Gumbel root's schedule starts from an unvisited root.
	g.full = r.fullSearch(rng)
	if r.gumbel(g) || !t.reroot([]board.Move{m}, g.pos) {
		g.t = newTree(g.pos, r.cfg.Params)
	}
	r.nextSearch(g, rng)
	g.scratch = g.t.pos.Clone()
}

// sample is the training sample of a searched root: its features and the
// policy target, which is policy (one probability per child, a Gumbel
// root's improved policy) when given, else the root visit distribution over
// children (total visits in all). A root played without a search (a single
// legal move, or a mate in one found on expansion) teaches the move played.
func sample(pos *board.Position, children []node, total int, policy []float64, played board.Move, q float32) chunk.Sample {
	s := chunk.Sample{Features: encoding.Extract(pos), Q: q}
	switch {
	case total == 0 || len(children) == 1:
		s.Policy = []chunk.PolicyEntry{{Index: uint16(encoding.MoveIndex(pos, played)), Prob: 1}}
		return s
	case policy != nil:
		for i, c := range children {
			if policy[i] > 0 {
				s.Policy = append(s.Policy, chunk.PolicyEntry{Index: uint16(encoding.MoveIndex(pos, c.move)), Prob: float32(policy[i])})
			}
		}
		return s
	}
	for _, c := range children {
		if c.n > 0 {
			s.Policy = append(s.Policy, chunk.PolicyEntry{Index: uint16(encoding.MoveIndex(pos, c.move)), Prob: float32(c.n) / float32(total)})
		}
	}
	return s
}

// searchValue is the search's value of the root for its side to move, the
// value target a trainer may blend with the game's result: that of the root
// child best, the move the search rates best (Gumbel's survivor, else the
// most visited), exact when the move is proven, NaN when it was never
// visited (no search, or a Gumbel root whose visited moves all lose by
// force), so the result stands.
func searchValue(t *tree, best int32) float32 {
	if best < 0 {
		return float32(math.NaN())
	}
	switch c := t.at(best); {
	case c.proven != provenNone:
		return float32(c.proven)
	case c.n == 0:
		return float32(math.NaN())
	default:
		return float32(max(-1, min(1, c.q(0))))
	}
}

func sign(c board.Color) int {
	if c == board.White {
		return 1
	}
	return -1
}

// finishGames labels the games' samples with their results, writes one
// chunk and the PGN, and updates the totals.
func (r *selfPlayRun) finishGames(worker int, games []*spGame) error {
	var samples []chunk.Sample
	for _, g := range games {
		for i := range g.samples {
			g.samples[i].Result = int8(g.winner * sign(g.sides[i]))
		}
		samples = append(samples, g.samples...)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.cfg.ChunkDir != "" {
		name := fmt.Sprintf("%s%s-w%d-%06d%s", r.cfg.ChunkPrefix, time.Now().UTC().Format("20060102T150405.000"), worker, r.stats.Games, chunk.Ext)
		if err := chunk.Write(filepath.Join(r.cfg.ChunkDir, name), samples); err != nil {
			return err
		}
	}
	for _, g := range games {
		r.gameNo++
		if r.cfg.PGN != nil {
			if _, err := io.WriteString(r.cfg.PGN, gamePGN(g, r.gameNo)); err != nil {
				return err
			}
		}
		st := &r.stats
		st.Games++
		st.Positions += len(g.samples)
		st.Plies += len(g.moves)
		switch g.winner {
		case 1:
			st.WhiteWins++
		case -1:
			st.Losses++
		default:
			st.Draws++
		}
		if g.resigned {
			st.Resigned++
		}
		if g.wouldHave {
			st.ResignChecked++
			if g.winner != -sign(g.resigner) {
				st.ResignBad++
			}
		}
	}
	r.stats.Elapsed = time.Since(r.start)
	if r.cfg.Progress != nil {
		r.cfg.Progress(r.stats)
	}
	return nil
}

// gamePGN renders a finished game.
func gamePGN(g *spGame, round int) string {
	host, _ := os.Hostname()
	return pgn.Game{
		Event:       "Twofold self-play",
		Site:        host,
		Date:        time.Now(),
		Round:       round,
		White:       "Twofold MCTS",
		Black:       "Twofold MCTS",
		Result:      map[int]string{1: "1-0", 0: "1/2-1/2", -1: "0-1"}[g.winner],
		Termination: g.reason,
		Moves:       g.moves,
	}.String()
}
