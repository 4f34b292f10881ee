//go:build unix

package loop

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// LockRunDir takes an exclusive, non-blocking flock on DIR/lock for the
// loop's lifetime, so a second `engine train` on the same directory fails at
// once instead of training a second writer on the same checkpoint. The
// kernel drops the lock when the process dies, however it dies, so a stale
// lock file never blocks a restart. The file holds the holder's pid, for
// the message.
func LockRunDir(dir string) (release func(), err error) {
	path := filepath.Join(dir, "lock")
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if !errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, fmt.Errorf("cannot lock %s: %v", path, err)
		}
		holder := "another process"
		if data, rerr := os.ReadFile(path); rerr == nil {
			if pid, perr := strconv.Atoi(strings.TrimSpace(string(data))); perr == nil {
				holder = fmt.Sprintf("another engine train or climb (pid %d)", pid)
			}
		}
		return nil, fmt.Errorf("run directory %s is in use by %s (it holds %s); stop that one first or use another --run-dir", dir, holder, path)
	}
	// The file is never removed: removing it would let a third process lock
	// a fresh file while a second still waits on the old one.
	if err := f.Truncate(0); err == nil {
		f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	}
	return func() { f.Close() }, nil
}
