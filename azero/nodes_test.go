package azero

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Blocks stay contiguous in one page, a block that does not fit starts
// the next page (the rest padded with inert nodes), nodes never move but
// within the first page's growth, and every index below size is a node.
func TestNodeStorePages(t *testing.T) {
	var s nodeStore
	require.Equal(t, 0, s.size())
	require.Equal(t, 1, s.sizeAfter(1))
	first := s.alloc(1)
	require.Equal(t, int32(0), first)
	for _, k := range []int{30, 218, 1, 200} {
		for s.size()+k <= 3*pageSize {
			want := s.sizeAfter(k)
			i := s.alloc(k)
			require.Equal(t, want, s.size(), "sizeAfter foretells size")
			require.Equal(t, int(i)+k, s.size())
			require.Equal(t, int(i)>>pageBits, (int(i)+k-1)>>pageBits, "block %d+%d in one page", i, k)
			block := s.span(i, uint16(k))
			require.Len(t, block, k)
			for j := range block {
				require.Zero(t, block[j].n)
				block[j].n = i + int32(j)
			}
		}
		s = nodeStore{}
		s.alloc(1)
	}
	// Fill, then check every index.
	s = nodeStore{}
	for s.size() < 2*pageSize+100 {
		i := s.alloc(218)
		for j := range int32(218) {
			s.at(i + j).n = i + j
		}
	}
	for i := range s.size() {
		nd := s.at(int32(i))
		if nd.first == -1 && nd.n == 0 { // padding
			assert.Greater(t, i&pageMask, pageSize-218)
			continue
		}
		require.Equal(t, int32(i), nd.n)
	}
	assert.Equal(t, 3*pageSize*nodeBytes, s.bytes(), "full pages, no copies kept")
}

// A node is 32 bytes: the memory budget (RamLimitMb) is counted in them,
// and a larger node means a smaller tree for the same memory.
func TestNodeSize(t *testing.T) {
	assert.Equal(t, 32, nodeBytes)
}
