package sysmem

import (
	"bufio"
	"bytes"
	"os"
	"strconv"
	"strings"
)

// Available returns the bytes this process can still allocate: the
// kernel's MemAvailable, lowered to the room left under a cgroup memory
// limit or an address-space limit when one applies. ok is false where none
// can be read (other systems); callers then go ahead as before.
func Available() (bytes uint64, ok bool) {
	if b, err := os.ReadFile("/proc/meminfo"); err == nil {
		bytes, ok = statusKB(b, "MemAvailable:")
	}
	for _, room := range []func() (uint64, bool){cgroupRoom, addressSpaceRoom} {
		if r, limited := room(); limited && (!ok || r < bytes) {
			bytes, ok = r, true
		}
	}
	return bytes, ok
}

// statusKB reads a "Name: N kB" line of /proc/meminfo or /proc/self/status
// and returns N in bytes.
func statusKB(text []byte, name string) (uint64, bool) {
	sc := bufio.NewScanner(bytes.NewReader(text))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) >= 2 && f[0] == name {
			kb, err := strconv.ParseUint(f[1], 10, 64)
			return kb << 10, err == nil
		}
	}
	return 0, false
}

// cgroupRoom is the limit minus the usage of this process's memory cgroup
// (v2, then v1); limited is false when there is no limit.
func cgroupRoom() (room uint64, limited bool) {
	for _, files := range [][2]string{
		{"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory.current"},
		{"/sys/fs/cgroup/memory/memory.limit_in_bytes", "/sys/fs/cgroup/memory/memory.usage_in_bytes"},
	} {
		limit, ok1 := readNumber(files[0])
		used, ok2 := readNumber(files[1])
		if ok1 && ok2 {
			return roomUnder(limit, used)
		}
	}
	return 0, false
}

// roomUnder is what is left of limit after used; v1 writes "no limit" as a
// huge number near 2^63, which counts as none.
func roomUnder(limit, used uint64) (uint64, bool) {
	if limit >= 1<<62 {
		return 0, false
	}
	if used >= limit {
		return 0, true
	}
	return limit - used, true
}

// readNumber reads a cgroup file holding one number ("max" = no number).
func readNumber(path string) (uint64, bool) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, false
	}
	n, err := strconv.ParseUint(strings.TrimSpace(string(b)), 10, 64)
	return n, err == nil
}
