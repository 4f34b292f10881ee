package regularfile

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"syscall"
)

// Read returns the contents of path if it is a regular file of at most
// limit bytes; what names the file in messages ("a network", "a book").
func Read(path string, limit int64, what string) ([]byte, error) {
	st, err := os.Stat(path) // follows links: the target is what is read
	if err != nil {
		return nil, err
	}
	if err := check(path, st, limit, what); err != nil {
		return nil, err
	}
	// O_NONBLOCK: should the path be swapped for a FIFO after the Stat,
	// opening it still returns at once (and the Stat below refuses it).
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st, err = f.Stat(); err != nil {
		return nil, err
	}
	if err := check(path, st, limit, what); err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	buf.Grow(int(st.Size()) + 1) // one read into the right size
	// The limit holds even if the file grows while it is read.
	if _, err := buf.ReadFrom(io.LimitReader(f, limit+1)); err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	if int64(buf.Len()) > limit {
		return nil, fmt.Errorf("%s: larger than the %d MiB %s may have", path, limit>>20, what)
	}
	return buf.Bytes(), nil
}

func check(path string, st os.FileInfo, limit int64, what string) error {
	if m := st.Mode(); !m.IsRegular() {
		kind := "a special file"
		switch {
		case m.IsDir():
			kind = "a directory"
		case m&os.ModeNamedPipe != 0:
			kind = "a named pipe"
		case m&os.ModeDevice != 0:
			kind = "a device"
		case m&os.ModeSocket != 0:
			kind = "a socket"
		}
		return fmt.Errorf("%s is %s, not a regular file", path, kind)
	}
	if st.Size() > limit {
		return fmt.Errorf("%s: %d bytes, larger than the %d MiB %s may have", path, st.Size(), limit>>20, what)
	}
	return nil
}
