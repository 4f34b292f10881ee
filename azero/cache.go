package azero

// cache keeps network results by Zobrist key, so a position reached again
// (a transposition, a reused subtree lost to compaction, the next move's
// search) costs no network run. It stores the value and the priors already
// softmaxed over the legal moves in generation order. Direct-mapped: a new
// entry replaces whatever shared its slot. Not safe for concurrent use.
type cache struct {
	entries []cacheEntry
}

type cacheEntry struct {
	key    uint64
	value  float32 // for the side to move
	priors []float32
}

// CacheMemory estimates the bytes a cache of entries takes once full: a
// 40-byte slot each plus its priors (about 35 legal moves of 4 bytes in
// middlegames). Callers check it against the memory the machine has before
// asking for a cache of millions of entries.
func CacheMemory(entries int) uint64 { return uint64(max(entries, 0)) * (40 + 35*4) }

func newCache(size int) *cache {
	return &cache{entries: make([]cacheEntry, max(size, 0))}
}

// get returns the cached value and priors of key, if present for a node
// with count moves (a different count means a key collision).
func (c *cache) get(key uint64, count int) (float32, []float32, bool) {
	if len(c.entries) == 0 {
		return 0, nil, false
	}
	e := &c.entries[key%uint64(len(c.entries))]
	if e.priors == nil || e.key != key || len(e.priors) != count {
		return 0, nil, false
	}
	return e.value, e.priors, true
}

// put stores a result, reusing the slot's memory.
func (c *cache) put(key uint64, value float32, priors []float32) {
	if len(c.entries) == 0 {
		return
	}
	e := &c.entries[key%uint64(len(c.entries))]
	e.key, e.value = key, value
	e.priors = append(e.priors[:0], priors...)
}
