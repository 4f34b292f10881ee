package search_test

import (
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/twofold-chess/twofold/board"
	"github.com/twofold-chess/twofold/mind"
	"github.com/twofold-chess/twofold/movegen"
	"github.com/twofold-chess/twofold/search"
)

// pos parses a FEN with the user-facing parser (which also validates it).
func pos(t *testing.T, fen string) *board.Position {
	t.Helper()
	p, err := movegen.ParseFEN(fen)
	require.NoError(t, err, fen)
	return p
}

// play makes the UCI moves on p, failing the test on an illegal one.
func play(t *testing.T, p *board.Position, moves ...string) {
	t.Helper()
	for _, s := range moves {
		m, err := movegen.ParseUCI(p, s)
		require.NoError(t, err, "move %s in %s", s, p.FEN())
		p.Make(m)
	}
}

// mv parses one legal UCI move of p without making it.
func mv(t *testing.T, p *board.Position, s string) board.Move {
	t.Helper()
	m, err := movegen.ParseUCI(p, s)
	require.NoError(t, err, "move %s in %s", s, p.FEN())
	return m
}

func legal(p *board.Position) []board.Move {
	var ml movegen.MoveList
	movegen.Legal(p, &ml)
	return append([]board.Move(nil), ml.Moves()...)
}

func isLegal(p *board.Position, m board.Move) bool {
	var ml movegen.MoveList
	movegen.Legal(p, &ml)
	return ml.Contains(m)
}

// recorder collects the reports of a search; safe for the search's goroutines.
type recorder struct {
	mu    sync.Mutex
	infos []mind.Info
}

func (r *recorder) report(i mind.Info) {
	r.mu.Lock()
	r.infos = append(r.infos, i)
	r.mu.Unlock()
}

func (r *recorder) all() []mind.Info {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]mind.Info(nil), r.infos...)
}

// lines returns the reports that describe a line (not "currmove" reports).
func (r *recorder) lines() []mind.Info {
	var out []mind.Info
	for _, i := range r.all() {
		if i.CurrMove == board.NoMove {
			out = append(out, i)
		}
	}
	return out
}

// searchDepth runs a fresh single-threaded search to a fixed depth.
func searchDepth(t *testing.T, p *board.Position, depth int) (mind.Result, *recorder) {
	t.Helper()
	rec := &recorder{}
	res := search.New(16, search.Options{Threads: 1}).Search(p, search.Limits{Depth: depth}, rec.report)
	return res, rec
}

// searchAsync starts a search with s.Go and returns a channel with its
// result. Tests wait on it with a deadline, so a search that never stops
// fails the test instead of hanging it. (s.Go sets the search up before it
// returns, so a Stop or PonderHit right after is never lost or raced, even
// when a loaded machine starts the search goroutine late.)
func searchAsync(s *search.Searcher, p *board.Position, lim search.Limits, report func(mind.Info)) <-chan mind.Result {
	done := make(chan mind.Result, 1)
	s.Go(p, lim, report, func(r mind.Result) { done <- r })
	return done
}

// await returns the search result, or stops the search and fails the test
// after the deadline.
func await(t *testing.T, s *search.Searcher, done <-chan mind.Result, deadline time.Duration) mind.Result {
	t.Helper()
	select {
	case r := <-done:
		return r
	case <-time.After(deadline):
		s.Stop()
		r := <-done
		t.Fatalf("search still running after %v (stopped it: %+v)", deadline, r)
		return r
	}
}

// pvIsLegal checks that a principal variation is a legal sequence from p.
func pvIsLegal(t *testing.T, p *board.Position, pv []board.Move) {
	t.Helper()
	q := p.Clone()
	for i, m := range pv {
		if !isLegal(q, m) {
			t.Errorf("pv %v: move %d (%v) is illegal in %s", pv, i, m, q.FEN())
			return
		}
		q.Make(m)
	}
}
