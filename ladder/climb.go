package ladder

import (
	"fmt"
	"sync"
)

// ClimbConfig says how a subject climbs the ladder.
type ClimbConfig struct {
	Games    int // per rung (even: each opening twice, colours swapped)
	MaxPlies int // a game this long is a draw
	Workers  int // rungs played at the same time
	Seed     uint64
	Rungs    []string // only these rungs (nil: all)
	PGN      *PGNLog  // every game (nil: none)
	// Progress, if not nil, gets the score against a rung after each of
	// its games (done: the games played against it), one call at a time.
	Progress func(rung string, done int, s Score)
}

// Climb plays a subject against every rung, c.Workers rungs at a time.
// newSubject makes the subject's player for one rung (each plays in its own
// goroutine; a player with a Close method is closed after its rung);
// subject names it in the PGN. done, if not nil, gets each rung's score
// when the rung ends, one call at a time.
func Climb(newSubject func() (Player, error), subject string, c ClimbConfig, done func(rung string, s Score)) ([]RungResult, error) {
	rungs := Rungs(c.Seed)
	if len(c.Rungs) > 0 {
		var keep []Player
		for _, r := range rungs {
			for _, name := range c.Rungs {
				if r.Name() == name {
					keep = append(keep, r)
				}
			}
		}
		if len(keep) == 0 {
			return nil, fmt.Errorf("no rung named %v; rungs: %v", c.Rungs, RungNames())
		}
		rungs = keep
	}
	results := make([]RungResult, len(rungs))
	errs := make([]error, len(rungs))
	sem := make(chan struct{}, max(c.Workers, 1))
	var wg sync.WaitGroup
	var mu sync.Mutex
	for i, rung := range rungs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			p, err := newSubject()
			if err != nil {
				errs[i] = err
				return
			}
			if cl, ok := p.(interface{ Close() }); ok {
				defer cl.Close()
			}
			s := Match(p, rung, c.Games, c.MaxPlies, func(done int, s Score, g GameResult) {
				c.PGN.MatchGame(g, subject, rung.Name(), done)
				if c.Progress != nil {
					mu.Lock()
					c.Progress(rung.Name(), done, s)
					mu.Unlock()
				}
			})
			results[i] = RungResult{Name: rung.Name(), Score: s}
			if done != nil {
				mu.Lock()
				done(rung.Name(), s)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return results, nil
}
