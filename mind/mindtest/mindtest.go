package mindtest

import (
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twofold-chess/twofold/board"
	"github.com/twofold-chess/twofold/mind"
	"github.com/twofold-chess/twofold/syzygy"
	"github.com/twofold-chess/twofold/timeman"
)

// Shared checks that SetShared reaches the searcher: got returns the
// shared options the searcher holds (its own options are the caller's to
// check).
func Shared(t *testing.T, s mind.Searcher, got func() mind.Shared) {
	t.Helper()
	tb, err := syzygy.Open("") // no tables, but tables
	require.NoError(t, err)
	for _, want := range []mind.Shared{
		{Threads: 2, MultiPV: 3, MoveOverhead: 7 * time.Millisecond},
		{Threads: 1, MultiPV: 1, Tablebases: mind.Tablebases{Tables: tb, ProbeDepth: 4, ProbeLimit: 5, Rule50: true}},
		{Threads: 1, MultiPV: 1},
	} {
		s.SetShared(want)
		assert.Equal(t, want, got())
	}
}

// MateInOne drives s through a search of a mate in one within lim: it must
// report lines, the last first line scoring the mate, and answer once, with
// the mate, after its last report.
func MateInOne(t *testing.T, s mind.Searcher, lim timeman.Limits) {
	t.Helper()
	p, err := board.ParseFEN("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")
	require.NoError(t, err)
	var (
		mu    sync.Mutex
		last  mind.Info // the last first line
		lines int
		ended bool
		late  bool // a report after the answer
	)
	done := make(chan mind.Result, 2)
	s.Go(p, lim, func(i mind.Info) {
		mu.Lock()
		defer mu.Unlock()
		late = late || ended
		if i.CurrMove == board.NoMove && i.MultiPV == 1 {
			last = i
			lines++
		}
	}, func(r mind.Result) {
		mu.Lock()
		ended = true
		mu.Unlock()
		done <- r
	})
	var r mind.Result
	select {
	case r = <-done:
	case <-time.After(time.Minute):
		s.Stop()
		t.Fatalf("no answer within a minute (stopped it: %+v)", <-done)
	}
	require.NoError(t, r.Err)
	assert.Equal(t, "a1a8", r.Best.UCI(false))
	time.Sleep(10 * time.Millisecond)
	mu.Lock()
	defer mu.Unlock()
	assert.Empty(t, done, "one answer")
	assert.False(t, late, "no report after the answer")
	require.Positive(t, lines, "lines reported")
	assert.Equal(t, mind.MateIn(1), last.Score)
	assert.Equal(t, []board.Move{r.Best}, last.PV[:1])
}
