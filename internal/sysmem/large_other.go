//go:build !linux

package sysmem

// mapLarge has no huge-page mapping to offer here: NewLarge uses Go memory.
func mapLarge(int) ([]byte, func(), bool) { return nil, nil, false }
