package sysmem

import (
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestStatusKB(t *testing.T) {
	for _, c := range []struct {
		name    string
		meminfo string
		want    uint64
		ok      bool
	}{
		{"present", "MemTotal:       24000000 kB\nMemFree:  100 kB\nMemAvailable:   2048 kB\n", 2048 << 10, true},
		{"absent (old kernels)", "MemTotal: 1 kB\nMemFree: 1 kB\n", 0, false},
		{"garbled", "MemAvailable: lots kB\n", 0, false},
		{"empty", "", 0, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, ok := statusKB([]byte(c.meminfo), "MemAvailable:")
			assert.Equal(t, c.ok, ok)
			assert.Equal(t, c.want, got)
		})
	}
}

func TestRoomUnder(t *testing.T) {
	room, limited := roomUnder(1<<30, 1<<28)
	assert.True(t, limited)
	assert.Equal(t, uint64(3<<28), room)
	room, limited = roomUnder(1<<30, 2<<30)
	assert.True(t, limited)
	assert.Zero(t, room, "over the limit leaves no room")
	_, limited = roomUnder(9223372036854771712, 1<<20) // cgroup v1's "unlimited"
	assert.False(t, limited)
}

func TestAvailableOnThisMachine(t *testing.T) {
	n, ok := Available()
	if runtime.GOOS != "linux" {
		t.Skip("only Linux reports available memory")
	}
	assert.True(t, ok)
	assert.Greater(t, n, uint64(16<<20), "a machine that runs the tests has more than 16 MB free")
}

// Under an address-space limit (ulimit -v) the room left under it counts:
// a child process checks with a 2 GB limit.
func TestAddressSpaceLimit(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("address-space limits are read on Linux only")
	}
	if os.Getenv("SYSMEM_CHILD") == "1" {
		n, ok := Available()
		if !ok || n > 2<<30 {
			fmt.Printf("available %d ok %v under a 2 GB address-space limit\n", n, ok)
			os.Exit(1)
		}
		os.Exit(0)
	}
	prlimit, err := exec.LookPath("prlimit")
	if err != nil {
		t.Skip("no prlimit")
	}
	cmd := exec.Command(prlimit, "--as=2147483648", "--", os.Args[0], "-test.run=^TestAddressSpaceLimit$")
	cmd.Env = append(os.Environ(), "SYSMEM_CHILD=1")
	out, err := cmd.CombinedOutput()
	assert.NoError(t, err, "%s", out)
}

func TestLarge(t *testing.T) {
	for _, n := range []int{1, 4096, 3<<20 + 5} {
		l := NewLarge(n)
		mem := l.Bytes()
		require.Len(t, mem, n)
		assert.Zero(t, mem[0])
		assert.Zero(t, mem[n-1])
		mem[0], mem[n-1] = 1, 2 // writable to the last byte
		if runtime.GOOS == "linux" {
			assert.True(t, l.HugePages(), "a mapping of its own on Linux")
			assert.Zero(t, uintptr(unsafe.Pointer(&mem[0]))%(2<<20), "on a huge-page boundary")
		}
		l.Free()
		l.Free() // twice is harmless
		assert.Nil(t, l.Bytes())
	}
	assert.Len(t, NewLarge(0).Bytes(), 1, "never empty")
}
