package mathx

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestAbs(t *testing.T) {
	for _, tc := range []struct{ in, want int }{{0, 0}, {5, 5}, {-5, 5}, {math.MaxInt, math.MaxInt}} {
		assert.Equal(t, tc.want, Abs(tc.in))
	}
	assert.Equal(t, int16(7), Abs(int16(-7)))
}

// The reference outputs of splitmix64 seeded with 0 (Vigna's generator
// returns SplitMix64(k*golden) for its k-th call from state 0).
func TestSplitMix64(t *testing.T) {
	assert.Equal(t, uint64(0xe220a8397b1dcdaf), SplitMix64(0))
	assert.Equal(t, uint64(0x6e789e6aa1b965f4), SplitMix64(0x9e3779b97f4a7c15))
	assert.NotEqual(t, SplitMix64(1), SplitMix64(2))
}
