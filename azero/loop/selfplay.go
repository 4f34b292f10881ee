package loop

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/twofold-chess/twofold/azero"
	"github.com/twofold-chess/twofold/azero/chunk"
)

// SelfPlayProgress is what one iteration's self-play has committed: the
// games in its recorded chunk files and the PGN up to an offset. Anything
// of the iteration beyond it was written by a loop killed before it could
// record it, and is discarded on resume.
type SelfPlayProgress struct {
	Iteration int      `json:"iteration"`
	Games     int      `json:"games"`      // games in Chunks
	PGNOffset int64    `json:"pgn_offset"` // size of games.pgn after those games
	Chunks    []string `json:"chunks"`     // the iteration's chunk files, by name
}

// selfplayIteration plays iteration it's self-play games, continuing a
// killed attempt: the games already committed (st.SelfPlay) are kept, what
// came after them is removed, and only the remaining games are played, from
// a seed that depends on how many were done, so that no game is replayed
// and no data is duplicated. It records the progress in the state file
// after every chunk.
func (c *Config) selfplayIteration(it int, st *State, statePath string) error {
	chunkDir, pgnPath := c.path("chunks"), c.path("games.pgn")
	prefix := fmt.Sprintf("iter%04d-", it)
	// The run directory is locked, so no one else is writing chunks here.
	if n, err := chunk.RemoveTemps(chunkDir); err != nil {
		return err
	} else if n > 0 {
		fmt.Fprintf(c.Out, "selfplay: removed %d temporary chunk files of a killed writer\n", n)
	}
	p := st.SelfPlay
	if p == nil || p.Iteration != it {
		size, err := fileSize(pgnPath)
		if err != nil {
			return err
		}
		p = &SelfPlayProgress{Iteration: it, PGNOffset: size}
		st.SelfPlay = p
		if err := saveState(statePath, *st); err != nil {
			return err
		}
	}
	// Chunks of this iteration that are not recorded were renamed into
	// place after the last record (or come from an engine that kept no
	// record); their games are not counted, so they would be duplicated.
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
		fmt.Fprintf(c.Out, "selfplay: removed %d chunk files of iteration %d written after its last saved progress\n", len(stray), it)
	}
	// Likewise PGN games appended after the record.
	if size, err := fileSize(pgnPath); err != nil {
		return err
	} else if size > p.PGNOffset {
		if err := os.Truncate(pgnPath, p.PGNOffset); err != nil {
			return err
		}
		fmt.Fprintf(c.Out, "selfplay: cut %s back to the %d bytes of the saved games\n", pgnPath, p.PGNOffset)
	}
	remaining := c.GamesPerIter - p.Games
	if remaining <= 0 {
		return nil
	}
	best, err := c.Load(c.path(st.Best))
	if err != nil {
		return err
	}
	cfg := c.SelfPlay
	cfg.Games = remaining
	cfg.ChunkDir = chunkDir
	cfg.ChunkPrefix = prefix
	cfg.Seed = c.SelfPlay.Seed*1_000_003 + uint64(it)
	done := p.Games
	if done > 0 {
		fmt.Fprintf(c.Out, "selfplay: iteration %d resumes after %d of %d games\n", it, done, c.GamesPerIter)
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
		fmt.Fprintf(c.Out, "selfplay %s\n", s)
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
			return saveState(statePath, *st)
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
