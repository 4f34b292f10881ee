package sysmem

import (
	"os"
	"syscall"
)

// addressSpaceRoom is what is left under an address-space limit (ulimit -v,
// prlimit --as): the limit minus the process's VmSize. Go fails such an
// allocation with a fatal "out of memory" just as it does when RAM runs out.
func addressSpaceRoom() (room uint64, limited bool) {
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_AS, &lim); err != nil || lim.Cur == ^uint64(0) || lim.Cur >= 1<<62 {
		return 0, false
	}
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0, false
	}
	used, ok := statusKB(status, "VmSize:")
	if !ok {
		return 0, false
	}
	return roomUnder(lim.Cur, used)
}
