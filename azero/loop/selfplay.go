package loop

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/twofold-chess/twofold/azero"
	"github.com/twofold-chess/twofold/azero/chunk"
)

// SelfPlayProgress is what one iteration's (or round's) self-play has
// committed: the games in its recorded chunk files and the PGN up to an
// offset. Anything of the iteration beyond it was written by a loop killed
// before it could record it, and is discarded on resume.
type SelfPlayProgress struct {
	Iteration int      `json:"iteration"`  // or the round
	Games     int      `json:"games"`      // games in Chunks
	PGNOffset int64    `json:"pgn_offset"` // size of games.pgn after those games
	Chunks    []string `json:"chunks"`     // the iteration's chunk files, by name
}

// selfplayIteration plays iteration it's self-play games with the best
// network (see playGames), recording the progress in the state file.
func (c *Config) selfplayIteration(it int, st *State, statePath string) error {
	return playGames(gamesJob{
		noun: "iteration", n: it, chunkDir: c.path("chunks"), pgnPath: c.path("games.pgn"),
		prefix: fmt.Sprintf("iter%04d-", it), games: c.GamesPerIter, network: c.path(st.Best),
		cfg: c.SelfPlay, seed: c.SelfPlay.Seed*1_000_003 + uint64(it), load: c.Load, out: c.Out,
		progress: &st.SelfPlay, save: func() error { return saveState(statePath, *st) },
		report: func(_ int, s azero.SelfPlayStats) { fmt.Fprintf(c.Out, "selfplay %s\n", s) },
	})
}

// gamesJob is one resumable batch of self-play games: an iteration of the
// loop, or a round of the rounds (rounds.go).
type gamesJob struct {
	noun              string // "iteration" or "round", for the messages
	n                 int    // its number
	chunkDir, pgnPath string
	prefix            string // of the batch's chunk file names
	games             int
	network           string // the network file that plays
	cfg               azero.SelfPlayConfig
	seed              uint64 // the batch's seed (cfg.Seed is ignored)
	load              func(path string) (azero.Backend, error)
	out               io.Writer
	// progress points at the state's record of the batch, which save
	// writes to disk.
	progress **SelfPlayProgress
	save     func() error
	// report gets the running stats after every chunk, and the games of
	// the killed attempts before (not in the stats).
	report func(before int, s azero.SelfPlayStats)
}

// playGames plays a batch of self-play games, continuing a killed attempt:
// the games already committed (*j.progress) are kept, what came after them
// is removed, and only the remaining games are played, from a seed that
// depends on how many were done, so that no game is replayed and no data
// is duplicated. It records the progress in the state file after every
// chunk.
func playGames(j gamesJob) error {
	chunkDir, pgnPath, prefix := j.chunkDir, j.pgnPath, j.prefix
	// The run directory is locked, so no one else is writing chunks here.
	if n, err := chunk.RemoveTemps(chunkDir); err != nil {
		return err
	} else if n > 0 {
		fmt.Fprintf(j.out, "selfplay: removed %d temporary chunk files of a killed writer\n", n)
	}
	p := *j.progress
	if p == nil || p.Iteration != j.n {
		size, err := fileSize(pgnPath)
		if err != nil {
			return err
		}
		p = &SelfPlayProgress{Iteration: j.n, PGNOffset: size}
		*j.progress = p
		if err := j.save(); err != nil {
			return err
		}
	}
	// Chunks of this batch that are not recorded were renamed into place
	// after the last record (or come from an engine that kept no record);
	// their games are not counted, so they would be duplicated.
	stray, err := iterationChunks(chunkDir, prefix)
	if err != nil {
		return err
	}
	stray = slices.DeleteFunc(stray, func(name string) bool { return slices.Contains(p.Chunks, name) })
	for _, name := range stray {
		if err := os.Remove(filepath.Join(chunkDir, name)); err != nil {
			return err
		}
	}
	if len(stray) > 0 {
		fmt.Fprintf(j.out, "selfplay: removed %d chunk files of %s %d written after its last saved progress\n", len(stray), j.noun, j.n)
	}
	// Likewise PGN games appended after the record.
	if size, err := fileSize(pgnPath); err != nil {
		return err
	} else if size > p.PGNOffset {
		if err := os.Truncate(pgnPath, p.PGNOffset); err != nil {
			return err
		}
		fmt.Fprintf(j.out, "selfplay: cut %s back to the %d bytes of the saved games\n", pgnPath, p.PGNOffset)
	}
	remaining := j.games - p.Games
	if remaining <= 0 {
		return nil
	}
	best, err := j.load(j.network)
	if err != nil {
		return err
	}
	cfg := j.cfg
	cfg.Games = remaining
	cfg.ChunkDir = chunkDir
	cfg.ChunkPrefix = prefix
	cfg.Seed = j.seed
	done := p.Games
	if done > 0 {
		fmt.Fprintf(j.out, "selfplay: %s %d resumes after %d of %d games\n", j.noun, j.n, done, j.games)
		// A fresh seed stream, so the remaining games are not the first
		// games of the killed attempt over again; the prefix keeps the
		// file names apart from that attempt's.
		cfg.Seed ^= 0x9e3779b97f4a7c15 * uint64(done)
		cfg.ChunkPrefix = fmt.Sprintf("%sfrom%04d-", prefix, done)
	}
	pgn, err := os.OpenFile(pgnPath, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	defer pgn.Close()
	cfg.PGN = pgn
	var recordErr error
	// SelfPlay calls Progress under its lock right after a chunk and its
	// games' PGN are written, so the chunk files listed here are exactly
	// those whose games s counts.
	cfg.Progress = func(s azero.SelfPlayStats) {
		if j.report != nil {
			j.report(done, s)
		}
		if recordErr != nil {
			return
		}
		recordErr = func() error {
			// On disk before it is counted, or a power cut could leave an
			// offset past the end of the file.
			if err := pgn.Sync(); err != nil {
				return err
			}
			fi, err := pgn.Stat()
			if err != nil {
				return err
			}
			names, err := iterationChunks(chunkDir, prefix)
			if err != nil {
				return err
			}
			p.Games, p.PGNOffset, p.Chunks = done+s.Games, fi.Size(), names
			return j.save()
		}()
	}
	if _, err := azero.SelfPlay(best, cfg); err != nil {
		return err
	}
	if recordErr != nil {
		return fmt.Errorf("saving self-play progress: %v", recordErr)
	}
	return nil
}

// iterationChunks lists the chunk files in dir whose names start with prefix.
func iterationChunks(dir, prefix string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, e := range entries {
		if n := e.Name(); strings.HasPrefix(n, prefix) && strings.HasSuffix(n, chunk.Ext) {
			names = append(names, n)
		}
	}
	return names, nil
}

// fileSize is the size of path, 0 when it does not exist.
func fileSize(path string) (int64, error) {
	fi, err := os.Stat(path)
	if errors.Is(err, os.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	return fi.Size(), nil
}
