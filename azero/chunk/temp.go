package chunk

import (
	"errors"
	"os"
	"path/filepath"
)

// TempPattern names Write's temporary files (the same pattern is
// written there). A writer killed before its rename leaves one behind;
// readers skip them, as they lack Ext, and RemoveTemps clears them.
const TempPattern = ".tmp-chunk-*"

// RemoveTemps deletes the temporary files killed writers left in dir
// and returns how many it removed. Only call it while no other process
// writes chunks to dir: a live writer's temporary file would go too.
func RemoveTemps(dir string) (int, error) {
	names, err := filepath.Glob(filepath.Join(dir, TempPattern))
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
