package sysmem

import (
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestMemAvailable(t *testing.T) {
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
			got, ok := memAvailable([]byte(c.meminfo))
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
