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
	"github.com/twofold-chess/twofold/search"
	"github.com/twofold-chess/twofold/timeman"
)

// Pool is one of the server's minds: searchers of one kind, driven through
// mind.Searcher as the UCI loop drives them, so that AlphaBeta, MCTS and
// the tests' fakes are interchangeable and the HTTP code never touches a
// searcher's own types. Searchers are made on demand and kept for reuse:
// the server's search semaphore bounds how many run at once, so the pool
// never grows past it, and memory stays at that many searchers whatever
// the number of games.
type Pool struct {
	// Load, when set, prepares what every searcher of the kind shares (the
	// network), once; its error says why the kind cannot play, and every
	// later call returns it, so the page can say why the mind is greyed out.
	Load func() error
	// New makes a searcher and its own options (see mind.Option). A level
	// is set through the strength options it declares (Difficulty,
	// UCI_LimitStrength, UCI_Elo); one that declares none plays every level
	// at full strength, as MCTS does in UCI.
	New func() (mind.Searcher, []mind.Option, error)
	// Shared are the options of its searches (MultiPV is the request's).
	Shared mind.Shared

	once sync.Once
	err  error
	mu   sync.Mutex
	free []pooled
}

type pooled struct {
	s    mind.Searcher
	opts []mind.Option
}

// AlphaBeta is the classical searcher, with a transposition table of
// hashMB per running search.
func AlphaBeta(hashMB int) *Pool {
	return &Pool{
		New: func() (mind.Searcher, []mind.Option, error) {
			s := search.New(max(hashMB, 1), search.Options{})
			return s, search.NewSettings(s, nil).Declare(), nil
		},
		Shared: mind.Shared{Threads: 1},
	}
}

// MCTS is the network searcher, loaded on first use the way the UCI engine
// loads it (onnx.Open: ONNX Runtime from runtimeLib, then the network file;
// "" = the defaults), with a tree of at most ramLimitMB per running search
// and a smaller NN cache than the UCI default, as a server runs several.
func MCTS(runtimeLib, network string, ramLimitMB int) *Pool {
	var net *onnx.Network
	return &Pool{
		Load: func() (err error) {
			net, err = onnx.Open(runtimeLib, network)
			return err
		},
		New: func() (mind.Searcher, []mind.Option, error) {
			o := azero.DefaultOptions
			o.RamLimitMB, o.CacheSize = max(ramLimitMB, 1), 50_000
			s, err := azero.Open(net, o)
			if err != nil {
				return nil, nil, err
			}
			return s, nil, nil
		},
		Shared: mind.Shared{Threads: 1, MoveOverhead: azero.DefaultOptions.MoveOverhead},
	}
}

// Available loads what the kind needs (once) and returns why it cannot
// play, or nil.
func (p *Pool) Available() error {
	p.once.Do(func() {
		if p.Load != nil {
			p.err = p.Load()
		}
	})
	return p.err
}

func (p *Pool) get() (pooled, error) {
	if err := p.Available(); err != nil {
		return pooled{}, err
	}
	p.mu.Lock()
	if n := len(p.free); n > 0 {
		s := p.free[n-1]
		p.free = p.free[:n-1]
		p.mu.Unlock()
		return s, nil
	}
	p.mu.Unlock()
	s, opts, err := p.New()
	return pooled{s, opts}, err
}

func (p *Pool) put(s pooled) {
	p.mu.Lock()
	p.free = append(p.free, s)
	p.mu.Unlock()
}

// ThinkRequest says how long and how a searcher thinks.
type ThinkRequest struct {
	MoveTime time.Duration // 0 with Infinite: until ctx is done
	Nodes    uint64        // nodes (playouts for MCTS) at most; 0: no limit
	Infinite bool
	MultiPV  int
	Level    Level
}

// think searches pos (which it does not modify) with a searcher of the
// pool until ctx is done or the request's limit is reached, calling report
// with each line (from any goroutine, never after think returns), and
// returns the line of the move chosen and the searcher's result. A
// position without legal moves is never passed. Lines are the searcher's
// own, from the side to move's point of view; toInfo turns them round for
// the page.
func (p *Pool) think(ctx context.Context, pos *board.Position, req ThinkRequest, report func(mind.Info)) (mind.Info, mind.Result, error) {
	ps, err := p.get()
	if err != nil {
		return mind.Info{}, mind.Result{}, fmt.Errorf("unavailable: %w", err)
	}
	defer p.put(ps)
	for _, kv := range req.Level.options() {
		if o, ok := mind.Find(ps.opts, kv[0]); ok {
			if err := o.Set(kv[1]); err != nil {
				return mind.Info{}, mind.Result{}, err
			}
		}
	}
	sh := p.Shared
	sh.MultiPV = req.MultiPV
	s := ps.s
	s.SetShared(sh)
	var (
		mu   sync.Mutex
		best mind.Info // the last first line reported
	)
	done := make(chan mind.Result, 1)
	s.Go(pos, timeman.Limits{MoveTime: req.MoveTime, Nodes: req.Nodes, Infinite: req.Infinite}, func(i mind.Info) {
		if i.CurrMove != board.NoMove || len(i.PV) == 0 {
			return
		}
		if i.MultiPV <= 1 {
			mu.Lock()
			best = i
			mu.Unlock()
		}
		report(i)
	}, func(r mind.Result) { done <- r })
	var res mind.Result
	select {
	case res = <-done:
	case <-ctx.Done():
		s.Stop()
		res = <-done
	}
	if res.Err != nil {
		return mind.Info{}, res, res.Err
	}
	if res.Best == board.NoMove {
		return mind.Info{}, res, errors.New("no move found")
	}
	mu.Lock()
	defer mu.Unlock()
	if len(best.PV) == 0 || best.PV[0] != res.Best {
		best = mind.Info{MultiPV: 1, Depth: res.Depth, Score: res.Score, Nodes: res.Nodes, PV: []board.Move{res.Best}}
	}
	return best, res, nil
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

// options are the values of the strength options (as the UCI options
// Difficulty, UCI_LimitStrength and UCI_Elo set them) that give the level,
// in an order that never passes through a third strength on the way: the
// searcher empties its tables when the evaluation changes, and should do
// so only when the level's does.
func (l Level) options() [][2]string {
	if l.Elo > 0 {
		return [][2]string{{"UCI_Elo", strconv.Itoa(l.Elo)}, {"UCI_LimitStrength", "true"}, {"Difficulty", "Max"}}
	}
	name := l.Name
	if name == "" {
		name = "max"
	}
	return [][2]string{{"Difficulty", strings.ToUpper(name[:1]) + name[1:]}, {"UCI_LimitStrength", "false"}}
}

// whitePOV turns a side-to-move score round when Black is to move.
func whitePOV(side board.Color, v int) int {
	if side == board.Black {
		return -v
	}
	return v
}
