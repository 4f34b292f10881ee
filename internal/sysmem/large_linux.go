package sysmem

import (
	"syscall"
	"unsafe"
)

const hugePage = 2 << 20

// madvHugepage is MADV_HUGEPAGE, which package syscall does not name.
const madvHugepage = 14

// mapLarge maps n bytes rounded up to whole huge pages, starting on a
// huge-page boundary, and advises huge pages before anything touches them
// (the pages are then faulted in as huge ones where the kernel allows).
// The advice failing (a kernel without transparent huge pages) still
// leaves a usable mapping.
func mapLarge(n int) (mem []byte, unmap func(), ok bool) {
	size := (n + hugePage - 1) &^ (hugePage - 1)
	raw, err := syscall.Mmap(-1, 0, size+hugePage, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
	if err != nil {
		return nil, nil, false
	}
	off := int(-uintptr(unsafe.Pointer(&raw[0])) & (hugePage - 1))
	_ = syscall.Madvise(raw[off:off+size], madvHugepage)
	return raw[off : off+n : off+n], func() { _ = syscall.Munmap(raw) }, true
}
