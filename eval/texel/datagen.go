package texel

import (
	"bufio"
	"fmt"
	"io"
	"math/rand"
	"sync"
	"sync/atomic"
	"time"

	"github.com/twofold-chess/twofold/board"
	"github.com/twofold-chess/twofold/movegen"
	"github.com/twofold-chess/twofold/search"
)

// GenOptions configure data generation.
type GenOptions struct {
	Games       int       // games to play
	Nodes       uint64    // search nodes per move
	RandomPlies int       // random opening moves before the engine takes over
	Workers     int       // games played at once
	Seed        int64     // for the random openings; games are reproducible per seed
	MaxPlies    int       // a game still running after this many plies is a draw
	Openings    []string  // FENs to start from instead of the start position (optional)
	Progress    io.Writer // progress lines, or nil
}

// Adjudication: a game is decided once the searches agree it is lost for
// this many plies in a row by at least this score.
const (
	resignScore = 1000
	resignPlies = 6
)

// Generate plays self-play games and writes one line per kept position:
// "FEN | result", with the result 1, 0.5 or 0 from White's view. Positions
// kept are quiet ones (not in check, the searched best move is not a capture
// or promotion) after the random opening. It returns the number written.
func Generate(w io.Writer, opt GenOptions) (int, error) {
	opt.Workers = max(opt.Workers, 1)
	if opt.MaxPlies <= 0 {
		opt.MaxPlies = 400
	}
	out := bufio.NewWriter(w)
	var mu sync.Mutex
	var written, played, wins, draws, losses atomic.Int64
	var firstErr error
	next := atomic.Int64{}
	start := time.Now()
	var wg sync.WaitGroup
	for worker := 0; worker < opt.Workers; worker++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := search.New(8, search.Options{Threads: 1})
			for {
				g := int(next.Add(1)) - 1
				if g >= opt.Games {
					return
				}
				rng := rand.New(rand.NewSource(opt.Seed + int64(g)))
				fens, result := playGame(s, rng, opt, g)
				mu.Lock()
				for _, f := range fens {
					if _, err := fmt.Fprintf(out, "%s | %s\n", f, result); err != nil && firstErr == nil {
						firstErr = err
					}
				}
				mu.Unlock()
				written.Add(int64(len(fens)))
				switch result {
				case "1":
					wins.Add(1)
				case "0":
					losses.Add(1)
				default:
					draws.Add(1)
				}
				if n := played.Add(1); opt.Progress != nil && (n%50 == 0 || int(n) == opt.Games) {
					el := time.Since(start)
					fmt.Fprintf(opt.Progress, "games %d/%d  positions %d  white W/D/L %d/%d/%d  %.1f games/min\n",
						n, opt.Games, written.Load(), wins.Load(), draws.Load(), losses.Load(), float64(n)/el.Minutes())
				}
			}
		}()
	}
	wg.Wait()
	if err := out.Flush(); err != nil && firstErr == nil {
		firstErr = err
	}
	return int(written.Load()), firstErr
}

// playGame plays one game and returns its quiet positions and the result.
func playGame(s *search.Searcher, rng *rand.Rand, opt GenOptions, game int) ([]string, string) {
	var p *board.Position
	if len(opt.Openings) > 0 {
		var err error
		if p, err = movegen.ParseFEN(opt.Openings[rng.Intn(len(opt.Openings))]); err != nil {
			return nil, "1/2"
		}
	} else {
		p = board.StartPosition()
	}
	var ml movegen.MoveList
	for i := 0; i < opt.RandomPlies; i++ {
		movegen.Legal(p, &ml)
		if ml.Len() == 0 {
			return nil, "1/2"
		}
		p.Make(ml.At(rng.Intn(ml.Len())))
	}
	s.Clear()
	var fens []string
	losing := [2]int{}
	for ply := 0; ply < opt.MaxPlies; ply++ {
		switch st := movegen.GameStatus(p); st {
		case movegen.Checkmate:
			if p.Side() == board.White {
				return fens, "0"
			}
			return fens, "1"
		case movegen.Ongoing:
		default:
			return fens, "1/2"
		}
		res := s.Search(p, search.Limits{Nodes: opt.Nodes}, nil)
		score := search.Value(res.Score)
		us := p.Side()
		if score <= -resignScore {
			losing[us]++
			if losing[us] >= resignPlies {
				if us == board.White {
					return fens, "0"
				}
				return fens, "1"
			}
		} else {
			losing[us] = 0
		}
		quiet := p.CapturedPiece(res.Best) == board.NoPiece && res.Best.Kind() != board.Promotion
		if quiet && !movegen.InCheck(p) && !search.IsMate(score) {
			fens = append(fens, p.FEN())
		}
		p.Make(res.Best)
	}
	return fens, "1/2"
}
