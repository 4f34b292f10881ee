package play

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"sort"
	"sync"
	"time"

	"github.com/twofold-chess/twofold/board"
	"github.com/twofold-chess/twofold/mind"
)

// Config sets the server's minds and limits; the zero value of each field
// means its default (see DefaultConfig).
type Config struct {
	MaxGames     int           // games held at once
	IdleExpiry   time.Duration // a game untouched this long is deleted
	DefaultThink time.Duration // the engine's time per move when none is asked
	MaxThink     time.Duration // the most time per move a request may ask
	MaxAnalysis  time.Duration // an analysis stops by itself after this
	MaxBody      int64         // request body bytes
	MaxPGN       int64         // request body bytes of a PGN import (POST /api/games, /api/pgn)
	Searches     int           // searches (engine moves and analyses) running at once, all games together
	QueueWait    time.Duration // how long a search waits for a free slot before 503
	MaxMultiPV   int           // analysis lines
	MaxStreams   int           // event streams per game
	// Minds by name, as requests give them ("alphabeta", "mcts"). A mind
	// is offered only when its Available returns nil.
	Minds map[string]*Pool
	// Tablebases are the Syzygy tables every mind probes (given to the
	// pools whose own Shared names none) and the game state reports on
	// (see Tablebase); zero: none.
	Tablebases mind.Tablebases
	// Now is the clock (tests move it to expire games).
	Now func() time.Time
}

// DefaultConfig is what a zero Config field becomes.
var DefaultConfig = Config{
	MaxGames:     100,
	IdleExpiry:   time.Hour,
	DefaultThink: time.Second,
	MaxThink:     30 * time.Second,
	MaxAnalysis:  10 * time.Minute,
	MaxBody:      16 << 10,
	MaxPGN:       1 << 20,
	Searches:     2,
	QueueWait:    5 * time.Second,
	MaxMultiPV:   5,
	MaxStreams:   8,
}

// DefaultMinds returns AlphaBeta (16 MB of hash per running search) and
// MCTS (loaded on first use, a 256 MiB tree per running search).
func DefaultMinds() map[string]*Pool {
	return map[string]*Pool{
		"alphabeta": AlphaBeta(16),
		"mcts":      MCTS("", "", 256),
	}
}

func (c Config) withDefaults() Config {
	d := DefaultConfig
	pick := func(v *int, def int) {
		if *v <= 0 {
			*v = def
		}
	}
	pickD := func(v *time.Duration, def time.Duration) {
		if *v <= 0 {
			*v = def
		}
	}
	pick(&c.MaxGames, d.MaxGames)
	pick(&c.Searches, d.Searches)
	pick(&c.MaxMultiPV, d.MaxMultiPV)
	pick(&c.MaxStreams, d.MaxStreams)
	pickD(&c.IdleExpiry, d.IdleExpiry)
	pickD(&c.DefaultThink, d.DefaultThink)
	pickD(&c.MaxThink, d.MaxThink)
	pickD(&c.MaxAnalysis, d.MaxAnalysis)
	pickD(&c.QueueWait, d.QueueWait)
	if c.MaxBody <= 0 {
		c.MaxBody = d.MaxBody
	}
	if c.MaxPGN <= 0 {
		c.MaxPGN = max(d.MaxPGN, c.MaxBody)
	}
	c.DefaultThink = min(c.DefaultThink, c.MaxThink)
	if c.Minds == nil {
		c.Minds = DefaultMinds()
	}
	if c.Now == nil {
		c.Now = time.Now
	}
	return c
}

// Server holds the games and serves them; see Handler.
type Server struct {
	cfg Config
	// sem bounds the searches running at once: each holds a slot, so N
	// simultaneous /engine calls queue (and then get 503) instead of
	// starting N searches on a small machine.
	sem chan struct{}

	ctx    context.Context // cancelled by Close: every search stops
	cancel context.CancelFunc
	wg     sync.WaitGroup // the janitor

	mu    sync.Mutex
	games map[string]*game
}

// New returns a server and starts its janitor, which deletes idle games;
// Close stops it and every search.
func New(cfg Config) *Server {
	cfg = cfg.withDefaults()
	for _, p := range cfg.Minds {
		if p.Shared.Tablebases.Tables == nil {
			p.Shared.Tablebases = cfg.Tablebases
		}
	}
	s := &Server{cfg: cfg, sem: make(chan struct{}, cfg.Searches), games: map[string]*game{}}
	s.ctx, s.cancel = context.WithCancel(context.Background())
	s.wg.Add(1)
	go s.janitor()
	return s
}

// Close stops the janitor, every search and every event stream.
func (s *Server) Close() {
	s.cancel()
	s.wg.Wait()
	s.mu.Lock()
	games := s.games
	s.games = map[string]*game{}
	s.mu.Unlock()
	for _, g := range games {
		s.retire(g)
	}
}

// janitor sweeps idle games every quarter of the expiry (1 s to 1 min).
func (s *Server) janitor() {
	defer s.wg.Done()
	t := time.NewTicker(min(max(s.cfg.IdleExpiry/4, time.Second), time.Minute))
	defer t.Stop()
	for {
		select {
		case <-s.ctx.Done():
			return
		case <-t.C:
			s.sweep()
		}
	}
}

// sweep deletes the games idle for longer than IdleExpiry. A game whose
// engine is thinking, that is being analysed or reviewed is in use,
// whatever its last request (all end by themselves: MaxThink,
// MaxAnalysis).
func (s *Server) sweep() int {
	now := s.cfg.Now()
	var idle []*game
	s.mu.Lock()
	for id, g := range s.games {
		g.mu.Lock()
		if !g.thinking && !g.analysis.running() && !g.review.running() && now.Sub(g.lastUsed) > s.cfg.IdleExpiry {
			idle = append(idle, g)
			delete(s.games, id)
		}
		g.mu.Unlock()
	}
	s.mu.Unlock()
	for _, g := range idle {
		s.retire(g)
	}
	return len(idle)
}

// retire stops what runs for a game removed from the map and ends its
// streams.
func (s *Server) retire(g *game) {
	g.mu.Lock()
	g.gone = true
	if g.cancelThink != nil {
		g.cancelThink()
	}
	g.stopAnalysis()
	g.stopReview(errReviewCancelled)
	g.mu.Unlock()
	g.events.close()
}

func newID() string {
	var b [12]byte
	_, _ = rand.Read(b[:]) // never fails (crypto/rand panics instead)
	return hex.EncodeToString(b[:])
}

// add registers a new game, or fails when MaxGames are held (after
// sweeping, so expired games never block new ones).
func (s *Server) add(start *board.Position, mind string, level Level) (*game, error) {
	now := s.cfg.Now()
	g := &game{
		id: newID(), start: start.Clone(), pos: start, mind: mind, level: level,
		created: now, lastUsed: now, events: newHub(), tables: s.cfg.Tablebases.Tables,
	}
	s.mu.Lock()
	full := len(s.games) >= s.cfg.MaxGames
	s.mu.Unlock()
	if full {
		s.sweep()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.games) >= s.cfg.MaxGames {
		return nil, &apiError{status: 429, msg: "too many games on this server (at most " + itoa(s.cfg.MaxGames) + "); delete one or try again when idle ones expire"}
	}
	s.games[g.id] = g
	return g, nil
}

func (s *Server) get(id string) (*game, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	g, ok := s.games[id]
	if !ok {
		return nil, errGone
	}
	return g, nil
}

func (s *Server) remove(id string) error {
	s.mu.Lock()
	g, ok := s.games[id]
	delete(s.games, id)
	s.mu.Unlock()
	if !ok {
		return errGone
	}
	s.retire(g)
	return nil
}

// acquire takes a search slot, waiting at most QueueWait.
func (s *Server) acquire(ctx context.Context) (release func(), err error) {
	t := time.NewTimer(s.cfg.QueueWait)
	defer t.Stop()
	select {
	case s.sem <- struct{}{}:
		return func() { <-s.sem }, nil
	case <-t.C:
		return nil, &apiError{status: 503, msg: "the server is busy: " + itoa(s.cfg.Searches) + " searches are running; try again shortly", retry: true}
	case <-ctx.Done():
		return nil, &apiError{status: 503, msg: "stopped while waiting for a search slot"}
	case <-s.ctx.Done():
		return nil, &apiError{status: 503, msg: "the server is shutting down"}
	}
}

// mindNames lists the minds, sorted.
func (s *Server) mindNames() []string {
	var names []string
	for n := range s.cfg.Minds {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}
