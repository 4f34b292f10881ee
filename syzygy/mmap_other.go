//go:build !(darwin || dragonfly || freebsd || linux || netbsd || openbsd || windows)

package syzygy

import (
	"fmt"
	"os"
)

// mapFile reads the whole file into memory (systems without mmap here).
func mapFile(path string) ([]byte, func() error, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, err
	}
	if len(data) == 0 {
		return nil, nil, fmt.Errorf("%w: empty file", errCorrupt)
	}
	return data, func() error { return nil }, nil
}
