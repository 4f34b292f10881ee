package azero

import (
	"errors"
	"os"
	"path/filepath"
)

// ChunkTempPattern names WriteChunk's temporary files (the same pattern is
// written there). A writer killed before its rename leaves one behind;
// readers skip them, as they lack ChunkExt, and RemoveChunkTemps clears them.
const ChunkTempPattern = ".tmp-chunk-*"

// RemoveChunkTemps deletes the temporary files killed writers left in dir
// and returns how many it removed. Only call it while no other process
// writes chunks to dir: a live writer's temporary file would go too.
func RemoveChunkTemps(dir string) (int, error) {
	names, err := filepath.Glob(filepath.Join(dir, ChunkTempPattern))
	if err != nil {
		return 0, err
	}
	removed := 0
	for _, name := range names {
		if err := os.Remove(name); err != nil && !errors.Is(err, os.ErrNotExist) {
			return removed, err
		}
		removed++
	}
	return removed, nil
}
