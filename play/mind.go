package play

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/twofold-chess/twofold/azero"
	"github.com/twofold-chess/twofold/azero/onnx"
	"github.com/twofold-chess/twofold/board"
	"github.com/twofold-chess/twofold/mind"
	"github.com/twofold-chess/twofold/nnue"
	"github.com/twofold-chess/twofold/search"
)

// Mind picks moves. The server knows minds only through this interface, so
// AlphaBeta, MCTS and the tests' fakes are interchangeable, and the HTTP
// code never touches a searcher's own types.
type Mind interface {
	// Think searches pos (which it must not modify) until ctx is done or
	// the request's limit is reached, calling report with progress (from
	// any goroutine, never after Think returns), and returns the best line.
	// A position without legal moves is never passed.
	Think(ctx context.Context, pos *board.Position, req ThinkRequest, report func(Line)) (Line, error)
}

// ThinkRequest says how long and how a mind thinks.
type ThinkRequest struct {
	MoveTime time.Duration // 0 with Infinite: until ctx is done
	Infinite bool
	MultiPV  int
	Level    Level
}

// Line is one principal variation as a mind reports it. Scores are from
// White's point of view (positive: White is better), as a board shows them;
// a mind's own scores are the side to move's and are turned round here.
type Line struct {
	MultiPV int
	Depth   int
	CP      int // centipawns, when Mate is 0
	Mate    int // moves to mate: > 0 White mates, < 0 Black mates
	Nodes   uint64
	Time    time.Duration
	PV      []board.Move
}

// Level is a playing strength: a named difficulty or an Elo.
type Level struct {
	Name string // "easy", "medium", "hard", "max"; "" when Elo is set
	Elo  int    // MinElo..MaxElo, or 0
}

// Elo bounds: the calibrated range UCI_Elo declares.
const (
	MinElo = search.MinElo
	MaxElo = search.MaxElo
)

// ParseLevel reads "easy", "medium", "hard", "max" (any case) or an Elo
// from MinElo to MaxElo; "" is max.
func ParseLevel(s string) (Level, error) {
	s = strings.ToLower(strings.TrimSpace(s))
	if s == "" {
		return Level{Name: "max"}, nil
	}
	if _, ok := search.DifficultyStrength(s); ok {
		return Level{Name: s}, nil
	}
	if elo, err := strconv.Atoi(s); err == nil {
		if elo < MinElo || elo > MaxElo {
			return Level{}, fmt.Errorf("level: Elo %d is out of range %d..%d", elo, MinElo, MaxElo)
		}
		return Level{Elo: elo}, nil
	}
	return Level{}, fmt.Errorf("level %q: want easy, medium, hard, max or an Elo from %d to %d", s, MinElo, MaxElo)
}

func (l Level) String() string {
	if l.Elo > 0 {
		return strconv.Itoa(l.Elo)
	}
	return l.Name
}

// strength maps the level onto the classical searcher's weakening, the way
// the UCI options Difficulty and UCI_Elo do.
func (l Level) strength() search.Strength {
	if l.Elo > 0 {
		return search.EloStrength(l.Elo)
	}
	st, _ := search.DifficultyStrength(l.Name)
	return st
}

// whitePOV turns a side-to-move score round when Black is to move.
func whitePOV(side board.Color, v int) int {
	if side == board.Black {
		return -v
	}
	return v
}

// AlphaBeta is the classical searcher as a Mind. Searchers (each with its
// transposition table) are kept in a free list and reused across games:
// the server's search semaphore bounds how many run at once, so the list
// never grows past it, and memory stays at that many tables whatever the
// number of games.
type AlphaBeta struct {
	HashMB int
	mu     sync.Mutex
	free   []*search.Searcher
}

func (a *AlphaBeta) get() *search.Searcher {
	a.mu.Lock()
	defer a.mu.Unlock()
	if n := len(a.free); n > 0 {
		s := a.free[n-1]
		a.free = a.free[:n-1]
		return s
	}
	return search.New(max(a.HashMB, 1), search.Options{})
}

func (a *AlphaBeta) put(s *search.Searcher) {
	a.mu.Lock()
	a.free = append(a.free, s)
	a.mu.Unlock()
}

// Think implements Mind.
func (a *AlphaBeta) Think(ctx context.Context, pos *board.Position, req ThinkRequest, report func(Line)) (Line, error) {
	s := a.get()
	defer a.put(s)
	st := req.Level.strength()
	// The weakened levels evaluate by hand (search.Options.Evaluator).
	s.SetOptions(search.Options{Threads: 1, MultiPV: req.MultiPV, Strength: st, Network: nnue.Default()})
	lim := search.Limits{MoveTime: req.MoveTime, Infinite: req.Infinite}
	side := pos.Side()
	toLine := func(i mind.Info) Line {
		l := Line{MultiPV: max(i.MultiPV, 1), Depth: i.Depth, Nodes: i.Nodes, Time: i.Time, PV: i.PV}
		if i.Score.Mate {
			l.Mate = whitePOV(side, i.Score.Value)
		} else {
			l.CP = whitePOV(side, i.Score.Value)
		}
		return l
	}
	var (
		mu   sync.Mutex
		best Line // the last first line reported
	)
	done := make(chan mind.Result, 1)
	s.Go(pos, lim, func(i mind.Info) {
		if i.CurrMove != board.NoMove || len(i.PV) == 0 {
			return
		}
		l := toLine(i)
		if l.MultiPV == 1 {
			mu.Lock()
			best = l
			mu.Unlock()
		}
		report(l)
	}, func(r mind.Result) { done <- r })
	var res mind.Result
	select {
	case res = <-done:
	case <-ctx.Done():
		s.Stop()
		res = <-done
	}
	mu.Lock()
	defer mu.Unlock()
	if res.Best == board.NoMove {
		return Line{}, errors.New("no move found")
	}
	if len(best.PV) == 0 || best.PV[0] != res.Best {
		best = toLine(mind.Info{MultiPV: 1, Depth: res.Depth, Score: res.Score, Nodes: res.Nodes, PV: []board.Move{res.Best}})
	}
	return best, nil
}

// MCTS is the network searcher as a Mind, built on first use the way the
// UCI engine builds it (ONNX Runtime, then the network, then a searcher);
// a failure is kept and returned by every call, so the page can say why
// MCTS is greyed out. Levels do not apply (as in UCI, where Skill and Elo
// weaken AlphaBeta only).
type MCTS struct {
	// RuntimeLib and Network are passed to onnx.Open ("" = its defaults).
	RuntimeLib, Network string
	RamLimitMB          int

	once sync.Once
	net  *onnx.Network
	err  error
	mu   sync.Mutex
	free []*azero.Searcher
}

// Available loads ONNX Runtime and the network (once) and returns why MCTS
// cannot play, or nil.
func (m *MCTS) Available() error {
	m.once.Do(func() {
		m.net, m.err = onnx.Open(m.RuntimeLib, m.Network)
	})
	return m.err
}

func (m *MCTS) get() (*azero.Searcher, error) {
	if err := m.Available(); err != nil {
		return nil, err
	}
	m.mu.Lock()
	if n := len(m.free); n > 0 {
		s := m.free[n-1]
		m.free = m.free[:n-1]
		m.mu.Unlock()
		return s, nil
	}
	m.mu.Unlock()
	o := azero.DefaultOptions
	// A smaller tree and cache than the UCI defaults: a server runs several.
	o.RamLimitMB = max(m.RamLimitMB, 1)
	o.CacheSize = 50_000
	return azero.Open(m.net, o)
}

func (m *MCTS) put(s *azero.Searcher) {
	m.mu.Lock()
	m.free = append(m.free, s)
	m.mu.Unlock()
}

// Think implements Mind.
func (m *MCTS) Think(ctx context.Context, pos *board.Position, req ThinkRequest, report func(Line)) (Line, error) {
	s, err := m.get()
	if err != nil {
		return Line{}, fmt.Errorf("MCTS is unavailable: %w", err)
	}
	defer m.put(s)
	o := azero.DefaultOptions
	o.RamLimitMB, o.CacheSize, o.MultiPV = max(m.RamLimitMB, 1), 50_000, req.MultiPV
	s.SetOptions(o)
	side := pos.Side()
	toLine := func(i mind.Info) Line {
		l := Line{MultiPV: max(i.MultiPV, 1), Depth: i.Depth, Nodes: i.Nodes, Time: i.Time, PV: i.PV}
		if i.Score.Mate {
			l.Mate = whitePOV(side, i.Score.Value)
		} else {
			l.CP = whitePOV(side, i.Score.Value)
		}
		return l
	}
	var (
		mu   sync.Mutex
		best Line
	)
	done := make(chan mind.Result, 1)
	lim := search.Limits{MoveTime: req.MoveTime, Infinite: req.Infinite}
	s.Go(pos, lim, func(i mind.Info) {
		if len(i.PV) == 0 {
			return
		}
		l := toLine(i)
		if l.MultiPV == 1 {
			mu.Lock()
			best = l
			mu.Unlock()
		}
		report(l)
	}, func(r mind.Result) { done <- r })
	var res mind.Result
	select {
	case res = <-done:
	case <-ctx.Done():
		s.Stop()
		res = <-done
	}
	if res.Err != nil {
		return Line{}, res.Err
	}
	if res.Best == board.NoMove {
		return Line{}, errors.New("no move found")
	}
	mu.Lock()
	defer mu.Unlock()
	if len(best.PV) == 0 || best.PV[0] != res.Best {
		best = Line{MultiPV: 1, CP: whitePOV(side, azero.QToCentipawns(res.Q)), Nodes: res.Nodes, PV: []board.Move{res.Best}}
	}
	return best, nil
}
