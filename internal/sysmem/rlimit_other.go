//go:build !linux

package sysmem

// addressSpaceRoom: only Linux is checked for an address-space limit.
func addressSpaceRoom() (uint64, bool) { return 0, false }
