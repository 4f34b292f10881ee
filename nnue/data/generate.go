package data

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/twofold-chess/twofold/internal/mathx"
	"github.com/twofold-chess/twofold/nnue"

	"github.com/twofold-chess/twofold/board"
	"github.com/twofold-chess/twofold/movegen"
	"github.com/twofold-chess/twofold/search"
)

// GenOptions configure Generate. Zero values take the defaults noted.
type GenOptions struct {
	Nodes       uint64        // search nodes per move, a hard cut (default 5000 when Depth and SoftNodes are 0)
	SoftNodes   uint64        // a search ends after the iteration that passes this many nodes (0: none)
	Depth       int           // search depth per move instead of (or, with Nodes, besides) nodes
	RandomPlies int           // random moves after the opening before the searches play
	Openings    []string      // FENs to start from (one drawn per game), or none for the start position
	FRC         float64       // share of games started from a random Chess960 position instead
	Workers     int           // games played at once (default 1)
	HashMB      int           // transposition table per worker (default 16)
	MaxPlies    int           // searched plies after which a game is a draw (default 400)
	Network     *nnue.Network // the searches' evaluation; nil = the hand-crafted one
	// MaxStartScore: a start whose search score exceeds this many centipawns
	// either way is drawn again (0: any start). The random plies end with
	// one side's random move, which often leaves material hanging for the
	// side to move; without the check those starts tilt the results.
	MaxStartScore int

	// Game g's random choices come from PCG(Seed, Stream<<32 | g), so a run
	// is reproducible for (Seed, Stream) whatever the number of workers
	// (the order of games in the file depends on timing). A resumed run
	// uses another Stream so that it does not replay the earlier games.
	Seed, Stream uint64

	Games     int   // stop after this many games in this run (0: no limit)
	Positions int64 // stop once the file holds this many records (0: no limit)
	MaxBytes  int64 // stop once the file holds this many bytes (0: no limit)

	Progress      io.Writer     // progress lines, or nil
	ProgressEvery time.Duration // default 5s
}

// Adjudication. A game is won once the searches of both sides agree on a
// score of at least winScore for the same side winPlies plies in a row, and
// drawn once after move drawMove they agree on |score| < drawScore for
// drawPlies plies in a row; the automatic draws (repetition, fifty moves,
// material, stalemate) end games as the rules say.
const (
	winScore  = 1000
	winPlies  = 8
	drawMove  = 40
	drawScore = 10
	drawPlies = 20
)

// Stats count a run's games and records.
type Stats struct {
	Games, Positions            int64
	WhiteWins, Draws, BlackWins int64
	Plies, Nodes, Depths        int64 // the searches of the games written (start checks aside), their nodes and completed depths
}

// Generate plays self-play games with the alpha-beta searcher at fixed
// nodes and appends their quiet positions to w: not in check, the searched
// best move not a capture or promotion, the score not a mate score; the
// random opening plies are not kept (Keep). Each game is written at once
// when it ends: its records, or in the games format the game itself, which
// expands to the same records. Cancelling ctx stops the workers between moves; games
// in flight are dropped. It returns what this run added.
func Generate(ctx context.Context, w *Writer, opt GenOptions) (Stats, error) {
	if opt.Nodes == 0 && opt.SoftNodes == 0 && opt.Depth <= 0 {
		opt.Nodes = 5000
	}
	opt.Workers = max(opt.Workers, 1)
	if opt.HashMB <= 0 {
		opt.HashMB = 16
	}
	if opt.MaxPlies <= 0 {
		opt.MaxPlies = 400
	}
	if opt.ProgressEvery <= 0 {
		opt.ProgressEvery = 5 * time.Second
	}
	for i, fen := range opt.Openings {
		if _, err := movegen.ParseFEN(fen); err != nil {
			return Stats{}, fmt.Errorf("opening %d: %w", i+1, err)
		}
	}
	if full(w, &opt) {
		return Stats{}, nil // the file is complete
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()

	var (
		mu       sync.Mutex // guards w, st and firstErr
		st       Stats
		firstErr error
		next     atomic.Int64
		wg       sync.WaitGroup
	)
	start := time.Now()
	progress := func() {
		el := time.Since(start).Seconds()
		fmt.Fprintf(opt.Progress, "games %d  positions %d (file %d)  %.0f pos/s  %.1f games/min  %.0f nodes/move  depth %.1f  W/D/L %d/%d/%d\n",
			st.Games, st.Positions, w.Records(), float64(st.Positions)/max(el, 1e-9), float64(st.Games)*60/max(el, 1e-9),
			float64(st.Nodes)/float64(max(st.Plies, 1)), float64(st.Depths)/float64(max(st.Plies, 1)), st.WhiteWins, st.Draws, st.BlackWins)
	}
	done := make(chan struct{})
	if opt.Progress != nil {
		go func() {
			t := time.NewTicker(opt.ProgressEvery)
			defer t.Stop()
			for {
				select {
				case <-done:
					return
				case <-t.C:
					mu.Lock()
					progress()
					mu.Unlock()
				}
			}
		}()
	}
	for range opt.Workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := search.New(opt.HashMB, search.Options{Threads: 1, Network: opt.Network})
			var recs []Record
			var game Game
			for ctx.Err() == nil {
				g := next.Add(1) - 1
				if opt.Games > 0 && g >= int64(opt.Games) {
					return
				}
				rng := rand.New(rand.NewPCG(opt.Seed, opt.Stream<<32|uint64(g)))
				var result Result
				var ok bool
				var nodes, depths int64
				recs, result, nodes, depths, ok = playGame(ctx, s, rng, &opt, recs[:0], &game)
				if !ok {
					continue
				}
				mu.Lock()
				if err := w.Write(&game, recs); err != nil {
					if firstErr == nil {
						firstErr = err
					}
					cancel()
					mu.Unlock()
					return
				}
				st.Games++
				st.Positions += int64(len(recs))
				st.Plies += int64(len(game.Plies))
				st.Nodes += nodes
				st.Depths += depths
				switch result {
				case WhiteWon:
					st.WhiteWins++
				case Draw:
					st.Draws++
				default:
					st.BlackWins++
				}
				if full(w, &opt) {
					cancel()
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	close(done)
	if opt.Progress != nil {
		progress()
	}
	return st, firstErr
}

// full reports whether the file holds what opt asks for.
func full(w *Writer, opt *GenOptions) bool {
	return (opt.Positions > 0 && w.Records() >= opt.Positions) || (opt.MaxBytes > 0 && w.Size() >= opt.MaxBytes)
}

// playGame plays one game and appends its kept positions to recs, labelled
// with the result, and sets game to it (its start, the searched moves and
// scores). nodes and depths sum the searches' nodes and completed depths
// (the start check aside). ok is
// false for a game that found no playable start (startPosition) or was cut
// off by ctx.
func playGame(ctx context.Context, s *search.Searcher, rng *rand.Rand, opt *GenOptions, recs []Record, game *Game) (_ []Record, _ Result, nodes, depths int64, ok bool) {
	var p *board.Position
	lim := search.Limits{Nodes: opt.Nodes, SoftNodes: opt.SoftNodes, Depth: opt.Depth}
	for try := 0; ; try++ {
		if p = startPosition(rng, opt); p == nil || try == 100 {
			return recs, Draw, 0, 0, false
		}
		s.Clear()
		if opt.MaxStartScore <= 0 {
			break
		}
		res := s.Search(p, lim, nil)
		if ctx.Err() != nil {
			return recs, Draw, 0, 0, false
		}
		if mathx.Abs(search.Value(res.Score)) <= opt.MaxStartScore {
			s.Clear() // the game is the same as without the check
			break
		}
	}
	first := len(recs)
	game.Start, game.Plies = p.Clone(), game.Plies[:0]
	label := func(r Result) ([]Record, Result, int64, int64, bool) {
		for i := first; i < len(recs); i++ {
			recs[i].Result = r
		}
		game.Result, game.Kept = r, len(recs)-first
		return recs, r, nodes, depths, true
	}
	var whiteAhead, blackAhead, level int
	for range opt.MaxPlies {
		if ctx.Err() != nil {
			return recs, Draw, 0, 0, false
		}
		switch movegen.GameStatus(p) {
		case movegen.Ongoing:
		case movegen.Checkmate:
			if p.Side() == board.White {
				return label(BlackWon)
			}
			return label(WhiteWon)
		default:
			return label(Draw)
		}
		res := s.Search(p, lim, nil)
		if res.Best == board.NoMove {
			return recs, Draw, 0, 0, false // cannot happen in an ongoing game
		}
		nodes += int64(res.Nodes)
		depths += int64(res.Depth)
		score := search.Value(res.Score)
		white := score
		if p.Side() == board.Black {
			white = -white
		}
		// The data holds the network's scale (search.NetworkUnits); the
		// adjudication below goes by the search's own scores.
		learn := score
		if opt.Network != nil {
			learn = search.NetworkUnits(p, score)
		}
		game.Plies = append(game.Plies, Ply{Move: res.Best, Score: ClampScore(learn)})
		if Keep(p, res.Best, learn) {
			recs = append(recs, FromPosition(p, learn, Draw))
		}
		whiteAhead, blackAhead, level = streak(whiteAhead, white >= winScore), streak(blackAhead, white <= -winScore),
			streak(level, p.FullmoveNumber() >= drawMove && white > -drawScore && white < drawScore)
		switch {
		case whiteAhead >= winPlies:
			return label(WhiteWon)
		case blackAhead >= winPlies:
			return label(BlackWon)
		case level >= drawPlies:
			return label(Draw)
		}
		p.Make(res.Best)
	}
	return label(Draw)
}

// startPosition draws a game's start: the opening, then the random plies.
// A start whose random plies end the game is drawn again (from the same
// random stream, so the game stays reproducible); nil after many tries.
func startPosition(rng *rand.Rand, opt *GenOptions) *board.Position {
	var ml movegen.MoveList
	for range 100 {
		p := board.StartPosition()
		var start string
		switch {
		case opt.FRC > 0 && rng.Float64() < opt.FRC:
			start = chess960Start(rng)
		case len(opt.Openings) > 0:
			start = opt.Openings[rng.IntN(len(opt.Openings))]
		}
		if start != "" {
			var err error
			if p, err = movegen.ParseFEN(start); err != nil {
				return nil // Generate checked the openings
			}
		}
		for range opt.RandomPlies {
			if movegen.Legal(p, &ml); ml.Len() == 0 {
				break
			}
			p.Make(ml.At(rng.IntN(ml.Len())))
		}
		if !movegen.GameStatus(p).Over() {
			return p
		}
	}
	return nil
}

// streak extends a run of plies while cond holds and resets it otherwise.
func streak(n int, cond bool) int {
	if cond {
		return n + 1
	}
	return 0
}

// chess960Start returns a random Chess960 start position as a Shredder-FEN:
// bishops on squares of both colours, the king between the rooks, Black
// mirroring White.
func chess960Start(rng *rand.Rand) string {
	var rank [8]byte
	rank[2*rng.IntN(4)] = 'B'
	rank[2*rng.IntN(4)+1] = 'B'
	free := func() []int {
		var f []int
		for i, c := range rank {
			if c == 0 {
				f = append(f, i)
			}
		}
		return f
	}
	for _, pc := range []byte{'Q', 'N', 'N'} {
		f := free()
		rank[f[rng.IntN(len(f))]] = pc
	}
	f := free() // three squares left: rook, king, rook in this order
	rank[f[0]], rank[f[1]], rank[f[2]] = 'R', 'K', 'R'
	castling := string([]byte{'A' + byte(f[2]), 'A' + byte(f[0]), 'a' + byte(f[2]), 'a' + byte(f[0])})
	white := string(rank[:])
	return strings.ToLower(white) + "/pppppppp/8/8/8/8/PPPPPPPP/" + white + " w " + castling + " - 0 1"
}
