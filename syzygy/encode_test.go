package syzygy

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestIndexTables(t *testing.T) {
	// The two kings: 462 placements, each numbered once.
	seen := map[int]bool{}
	for tri := 0; tri < 10; tri++ {
		for s := 0; s < 64; s++ {
			if c := kkIndex[tri][s]; c >= 0 {
				assert.False(t, seen[c], "code %d twice", c)
				seen[c] = true
			}
		}
	}
	assert.Len(t, seen, 462)
	for c := range seen {
		assert.Less(t, c, 462)
	}

	// The triangle a1-d1-d4 and the squares below the diagonal.
	n := 0
	for s := 0; s < 64; s++ {
		if triangle[s] >= 0 {
			n++
			assert.LessOrEqual(t, s&7, 3)
			assert.LessOrEqual(t, s>>3, s&7)
		}
	}
	assert.Equal(t, 10, n)
	assert.Equal(t, 27, lower[63-8]) // h7, the last square below the diagonal

	// Pawn squares a2..h7 take the values 47..0 once each, edge files first.
	var values [48]bool
	for s := 8; s < 56; s++ {
		values[pawnRank[s]] = true
	}
	for v, ok := range values {
		assert.True(t, ok, "value %d", v)
	}
	assert.Equal(t, 47, pawnRank[8])  // a2
	assert.Equal(t, 46, pawnRank[15]) // h2
	// One leading pawn: 6 squares per file, the files together 24.
	var total uint64
	for f := 0; f < 4; f++ {
		total += leadPawnSize[1][f]
	}
	assert.Equal(t, uint64(24), total)
	assert.Equal(t, uint64(1128), binomial[2][48])
}

func TestParseMaterial(t *testing.T) {
	m, err := parseMaterial("KRPvKR")
	require.NoError(t, err)
	assert.Equal(t, 5, m.count)
	assert.True(t, m.hasPawns)
	assert.False(t, m.symmetric)
	assert.Equal(t, [2]int{1, 0}, m.pawns)
	assert.False(t, m.twoKings)

	m, err = parseMaterial("KPPvKP")
	require.NoError(t, err)
	assert.Equal(t, [2]int{1, 2}, m.pawns, "the side with fewer pawns leads")

	m, err = parseMaterial("KQQvKRR")
	require.NoError(t, err)
	assert.True(t, m.twoKings)

	m, err = parseMaterial("KRvKR")
	require.NoError(t, err)
	assert.True(t, m.symmetric)

	for _, bad := range []string{"KRK", "KRvKvK", "RvK", "KvR", "KXvK", "KvK", "KQQQQQQvK", ""} {
		_, err := parseMaterial(bad)
		assert.Error(t, err, bad)
	}
}
