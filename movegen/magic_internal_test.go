package movegen

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twofold-chess/twofold/board"
)

// TestInitMagicsFresh re-initialises the slider tables into fresh arrays,
// times it (logged only; the speed goal lives in BenchmarkInitMagics) and
// checks that the result is the package's own tables.
func TestInitMagicsFresh(t *testing.T) {
	start := time.Now()
	var rm, bm [64]magic
	rt := initMagics(&rm, &rookMagicNumbers, rookDirs)
	bt := initMagics(&bm, &bishopMagicNumbers, bishopDirs)
	t.Logf("magic initialisation: %v (rook table %d entries, bishop table %d)", time.Since(start), len(rt), len(bt))

	assert.Equal(t, rookMagics, rm)
	assert.Equal(t, bishopMagics, bm)
	require.Equal(t, rookTable, rt)
	require.Equal(t, bishopTable, bt)

	rng := rand.New(rand.NewPCG(3, 4))
	for s := board.Square(0); s < 64; s++ {
		for i := 0; i < 100; i++ {
			occ := board.Bitboard(rng.Uint64() & rng.Uint64())
			require.Equal(t, slide(s, occ, rookDirs), rt[rm[s].index(occ)], "rook %s %#x", s, uint64(occ))
			require.Equal(t, slide(s, occ, bishopDirs), bt[bm[s].index(occ)], "bishop %s %#x", s, uint64(occ))
		}
	}
}

// TestInitMagicsRejectsCorruptNumbers: a wrong magic number makes two
// occupancies with different attacks share a slot, which initMagics must
// refuse rather than build a table that answers wrongly.
func TestInitMagicsRejectsCorruptNumbers(t *testing.T) {
	for _, s := range []board.Square{board.A1, board.NewSquare(3, 3), board.H8} {
		for _, bad := range []uint64{0, 1} {
			numbers := rookMagicNumbers
			numbers[s] = bad
			var m [64]magic
			assert.Panics(t, func() { initMagics(&m, &numbers, rookDirs) }, "rook square %s number %#x", s, bad)
		}
		numbers := bishopMagicNumbers
		numbers[s] = 0
		var m [64]magic
		assert.Panics(t, func() { initMagics(&m, &numbers, bishopDirs) }, "bishop square %s", s)
	}
}

func TestMaskExcludesEdges(t *testing.T) {
	// The relevant-occupancy masks leave out the board edges (and the square
	// itself): 12 bits for a rook in a corner, 10 in the centre, 6 and 9 for
	// bishops in a corner and the centre.
	d4 := board.NewSquare(3, 3)
	assert.Equal(t, 12, rookMagics[board.A1].mask.Count())
	assert.Equal(t, 10, rookMagics[d4].mask.Count())
	assert.Equal(t, 6, bishopMagics[board.H8].mask.Count())
	assert.Equal(t, 9, bishopMagics[d4].mask.Count())
	for s := board.Square(0); s < 64; s++ {
		assert.False(t, rookMagics[s].mask.Has(s))
		assert.False(t, bishopMagics[s].mask.Has(s))
		assert.Zero(t, bishopMagics[s].mask&(board.Rank1|board.Rank8|board.FileA|board.FileH))
		assert.Equal(t, uint8(64-rookMagics[s].mask.Count()), rookMagics[s].shift)
	}
}
