//go:build !unix

package search_test

import "time"

// cpuTime is not measured here; the benchmarks report wall-clock speed only.
func cpuTime() (time.Duration, bool) { return 0, false }
