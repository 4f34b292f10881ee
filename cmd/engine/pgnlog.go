package main

import (
	"io"
	"os"
	"sync"
	"time"

	"github.com/twofold-chess/twofold/ladder"
)

// pgnLog appends games to a PGN file; games may come from several
// goroutines (the ladder plays rungs in parallel). A nil *pgnLog logs
// nothing.
type pgnLog struct {
	mu    sync.Mutex
	w     io.WriteCloser
	event string
	site  string
	err   error // the first write error, reported by close
}

// openPGNLog opens path for appending; "" gives a nil log.
func openPGNLog(path, event string) (*pgnLog, error) {
	if path == "" {
		return nil, nil
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return nil, err
	}
	site, _ := os.Hostname()
	return &pgnLog{w: f, event: event, site: site}, nil
}

// add writes one ladder game between the named players; round numbers the
// game within its match.
func (l *pgnLog) add(g ladder.GameResult, white, black string, round int) {
	if l == nil {
		return
	}
	game := g.PGN(white, black)
	game.Event, game.Site, game.Date, game.Round = l.event, l.site, time.Now(), round
	l.mu.Lock()
	defer l.mu.Unlock()
	if _, err := io.WriteString(l.w, game.String()); err != nil && l.err == nil {
		l.err = err
	}
}

// matchGame logs game done (1-based) of a ladder.Match, in which the
// subject has White in odd-numbered games.
func (l *pgnLog) matchGame(g ladder.GameResult, subject, opponent string, done int) {
	if done%2 == 1 {
		l.add(g, subject, opponent, done)
	} else {
		l.add(g, opponent, subject, done)
	}
}

// close closes the file and returns the first error met.
func (l *pgnLog) close() error {
	if l == nil {
		return nil
	}
	err := l.w.Close()
	if l.err != nil {
		return l.err
	}
	return err
}
