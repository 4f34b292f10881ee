//go:build amd64 || arm64

package search

import "unsafe"

// prefetch asks the CPU to bring the cache line at addr in, without
// waiting for it (PREFETCHT0 / PRFM PLDL1KEEP).
//
//go:noescape
func prefetch(addr unsafe.Pointer)
