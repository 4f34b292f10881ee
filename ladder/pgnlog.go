package ladder

import (
	"io"
	"os"
	"sync"
	"time"
)

// PGNLog appends games to a PGN file; games may come from several
// goroutines (Climb plays rungs in parallel). A nil *PGNLog logs nothing.
type PGNLog struct {
	mu    sync.Mutex
	w     io.WriteCloser
	event string
	site  string
	err   error // the first write error, reported by close
}

// OpenPGNLog opens path for appending, games tagged with event; "" gives a
// nil log.
func OpenPGNLog(path, event string) (*PGNLog, error) {
	if path == "" {
		return nil, nil
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return nil, err
	}
	site, _ := os.Hostname()
	return &PGNLog{w: f, event: event, site: site}, nil
}

// Add writes one game between the named players; round numbers the game
// within its match.
func (l *PGNLog) Add(g GameResult, white, black string, round int) {
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

// MatchGame logs game done (1-based) of a Match or MatchFrom, in which the
// subject has White in odd-numbered games.
func (l *PGNLog) MatchGame(g GameResult, subject, opponent string, done int) {
	if done%2 == 1 {
		l.Add(g, subject, opponent, done)
	} else {
		l.Add(g, opponent, subject, done)
	}
}

// Close closes the file and returns the first error met.
func (l *PGNLog) Close() error {
	if l == nil {
		return nil
	}
	err := l.w.Close()
	if l.err != nil {
		return l.err
	}
	return err
}
