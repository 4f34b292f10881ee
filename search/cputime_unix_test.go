//go:build unix

package search_test

import (
	"syscall"
	"time"
)

// cpuTime is the CPU time the process has used: on a machine shared with
// other work it measures speed where the wall clock does not.
func cpuTime() (time.Duration, bool) {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
