package azero

// nodeStore holds a tree's nodes in pages of pageSize, addressed by int32
// index. One growing slice would copy itself at each growth and leave the
// old copies to the garbage collector: a search whose tree had a 64 MiB
// budget held about 300 MiB of memory. Pages are never copied (but the
// first, which starts small because most trees, self-play's, stay small)
// nor freed while the tree lives, so the tree's memory is what it uses.
//
// A node's children are one block inside one page; a block that does not
// fit the rest of the last page starts the next one, and the rest is padded
// with inert nodes, so every index below size is a node.
type nodeStore struct {
	pages [][]node
}

const (
	pageBits = 14 // 16384 nodes, 512 KiB: a few hundred playouts of children
	pageSize = 1 << pageBits
	pageMask = pageSize - 1
)

// at returns node i.
func (s *nodeStore) at(i int32) *node { return &s.pages[i>>pageBits][i&pageMask] }

// span returns the count nodes from first, which are in one page.
func (s *nodeStore) span(first int32, count uint16) []node {
	o := first & pageMask
	return s.pages[first>>pageBits][o : o+int32(count)]
}

// size is the number of node indices in use.
func (s *nodeStore) size() int {
	last := len(s.pages) - 1
	if last < 0 {
		return 0
	}
	return last<<pageBits + len(s.pages[last])
}

// sizeAfter is size once k more nodes are allocated.
func (s *nodeStore) sizeAfter(k int) int {
	n := s.size()
	if n&pageMask+k > pageSize || len(s.pages) == 0 {
		n = (n + pageMask) &^ pageMask // a new page
	}
	return n + k
}

// bytes is the memory the pages hold (for tests).
func (s *nodeStore) bytes() int {
	n := 0
	for _, p := range s.pages {
		n += cap(p)
	}
	return n * nodeBytes
}

// alloc makes k (at most pageSize) zero nodes, contiguous in one page, and
// returns the first one's index.
func (s *nodeStore) alloc(k int) int32 {
	if last := len(s.pages) - 1; last >= 0 {
		p := s.pages[last]
		if len(p)+k > pageSize { // pad the page: every index is a node
			p = grow(p, pageSize)
			for len(p) < pageSize {
				p = append(p, node{first: -1})
			}
			s.pages[last] = p
		} else {
			s.pages[last] = grow(p, len(p)+k)[:len(p)+k]
			return int32(last<<pageBits + len(p))
		}
	}
	start := len(s.pages) << pageBits
	capacity := pageSize
	if len(s.pages) == 0 {
		capacity = 1024 // self-play's many trees mostly stay small
	}
	s.pages = append(s.pages, make([]node, k, max(capacity, k)))
	return int32(start)
}

// grow returns p with room for n nodes: only the first page starts short of
// pageSize, and it doubles up to it.
func grow(p []node, n int) []node {
	if n <= cap(p) {
		return p
	}
	grown := make([]node, len(p), min(max(2*cap(p), n), pageSize))
	copy(grown, p)
	return grown
}
