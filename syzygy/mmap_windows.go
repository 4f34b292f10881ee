//go:build windows

package syzygy

import (
	"fmt"
	"os"
	"syscall"
	"unsafe"
)

// mapFile maps the file read-only into memory.
func mapFile(path string) ([]byte, func() error, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	size := st.Size()
	if size <= 0 || size != int64(int(size)) {
		return nil, nil, fmt.Errorf("%w: file size %d", errCorrupt, size)
	}
	h, err := syscall.CreateFileMapping(syscall.Handle(f.Fd()), nil, syscall.PAGE_READONLY,
		uint32(uint64(size)>>32), uint32(size), nil)
	if err != nil {
		return nil, nil, fmt.Errorf("CreateFileMapping: %w", err)
	}
	addr, err := syscall.MapViewOfFile(h, syscall.FILE_MAP_READ, 0, 0, uintptr(size))
	if err != nil {
		syscall.CloseHandle(h)
		return nil, nil, fmt.Errorf("MapViewOfFile: %w", err)
	}
	// The view lives outside the Go heap until UnmapViewOfFile.
	data := unsafe.Slice(*(**byte)(unsafe.Pointer(&addr)), int(size))
	return data, func() error {
		err := syscall.UnmapViewOfFile(addr)
		if cerr := syscall.CloseHandle(h); err == nil {
			err = cerr
		}
		return err
	}, nil
}
