//go:build !unix

package loop

import (
	"runtime"
	"time"
)

var processStart = time.Now()

// processCPUSeconds estimates the processor time where getrusage is
// missing (Windows): the wall time since the start times the cores, an
// upper bound.
func processCPUSeconds() float64 {
	return time.Since(processStart).Seconds() * float64(runtime.NumCPU())
}
