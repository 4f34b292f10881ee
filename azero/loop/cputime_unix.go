//go:build unix

package loop

import "syscall"

// processCPUSeconds is the processor time (user and system) of this
// process and of its children that have ended (the trainer's scripts).
func processCPUSeconds() float64 {
	var total float64
	for _, who := range []int{syscall.RUSAGE_SELF, syscall.RUSAGE_CHILDREN} {
		var ru syscall.Rusage
		if syscall.Getrusage(who, &ru) == nil {
			total += float64(ru.Utime.Sec+ru.Stime.Sec) + float64(ru.Utime.Usec+ru.Stime.Usec)/1e6
		}
	}
	return total
}
