package search

import (
	"fmt"
	"runtime"
	"sync/atomic"
	"unsafe"

	"github.com/twofold-chess/twofold/board"
	"github.com/twofold-chess/twofold/internal/mathx"
	"github.com/twofold-chess/twofold/internal/sysmem"
)

// Bound tells how a stored score relates to the true value.
type Bound uint8

// Bounds of a search result: exact (PV node), lower (fail high), upper (fail low).
const (
	BoundNone  Bound = 0
	BoundUpper Bound = 1
	BoundLower Bound = 2
	BoundExact Bound = BoundUpper | BoundLower
)

// ttEntry is one slot: the key is stored xored with the data so that a slot
// torn by two threads writing at once reads as a miss instead of a wrong hit
// (Hyatt's lockless hashing). Both words are accessed atomically, which keeps
// the race detector quiet and costs nothing extra for loads on amd64.
type ttEntry struct {
	check atomic.Uint64 // key ^ data
	data  atomic.Uint64
}

// ttBucket groups entries that share an index; the replacement scheme picks
// the least valuable one.
type ttBucket [ttBucketSize]ttEntry

const ttBucketSize = 2

// ttData is the unpacked content of an entry.
type ttData struct {
	move  board.Move
	score int16
	eval  int16
	depth int8
	bound Bound
	age   uint8
}

func (d ttData) pack() uint64 {
	return uint64(d.move) | uint64(uint16(d.score))<<16 | uint64(uint16(d.eval))<<32 |
		uint64(uint8(d.depth))<<48 | uint64(d.bound)<<56 | uint64(d.age&63)<<58
}

func unpack(v uint64) ttData {
	return ttData{
		move:  board.Move(v),
		score: int16(v >> 16),
		eval:  int16(v >> 32),
		depth: int8(v >> 48),
		bound: Bound(v >> 56 & 3),
		age:   uint8(v >> 58),
	}
}

// TT is the transposition table shared by all search threads.
type TT struct {
	buckets []ttBucket
	mem     *sysmem.Large // where buckets live (huge pages where the system has them)
	age     uint8
	// salt is xored into every key. Clear draws a new one, which turns every
	// stored entry into a miss at once: zeroing gigabytes took seconds and
	// held up the input loop (isready) after "ucinewgame".
	salt   uint64
	clears uint64
}

const (
	ttBucketBytes = 32
	// memoryReserve is left to the rest of the process and the system when
	// checking that a table fits.
	memoryReserve = 256 << 20
)

// The table's memory is laid out as buckets of exactly ttBucketBytes.
var _ [ttBucketBytes - unsafe.Sizeof(ttBucket{})]struct{}
var _ [unsafe.Sizeof(ttBucket{}) - ttBucketBytes]struct{}

// NewTT returns a table of about mb megabytes (at least one bucket), or a
// 1 MB one if the machine cannot hold that.
func NewTT(mb int) *TT {
	t := &TT{}
	if t.Resize(mb) != nil {
		t.Resize(1)
	}
	return t
}

// Resize reallocates the table (emptying it) to about mb megabytes, rounded
// down to a power of two number of buckets. A size the machine cannot hold
// is refused with an error and the table is kept as it was: Go cannot
// recover from a failed allocation.
func (t *TT) Resize(mb int) error {
	n := uint64(max(mb, 1)) << 20 / ttBucketBytes
	size := uint64(1)
	for size*2 <= n {
		size *= 2
	}
	want, have := size*ttBucketBytes, uint64(len(t.buckets))*ttBucketBytes
	if free, ok := sysmem.Available(); ok && want > have && want-have+memoryReserve > free {
		return fmt.Errorf("%d MB do not fit in the %d MB of memory available; keeping %d MB",
			mb, (free+have)>>20, have>>20)
	}
	// Let the old table go before the new one is taken, so the two are
	// never held at once.
	t.buckets = nil
	if t.mem != nil {
		huge := t.mem.HugePages()
		t.mem.Free()
		t.mem = nil
		if !huge && have > 64<<20 {
			runtime.GC()
		}
	}
	t.mem = sysmem.NewLarge(int(size * ttBucketBytes))
	t.buckets = unsafe.Slice((*ttBucket)(unsafe.Pointer(unsafe.SliceData(t.mem.Bytes()))), size)
	t.salt, t.age = 0, 0
	return nil
}

// Clear empties the table in constant time, by changing the salt.
func (t *TT) Clear() {
	t.clears++
	t.salt = mathx.SplitMix64(t.clears)
	// Entries of the old salt are misses now; aging them makes them the
	// first to be replaced and keeps them out of Hashfull.
	t.age = (t.age + 1) & 63
}

// newSearch ages the entries of earlier searches so they are replaced first.
func (t *TT) newSearch() { t.age = (t.age + 1) & 63 }

func (t *TT) bucket(key uint64) *ttBucket {
	return &t.buckets[key&uint64(len(t.buckets)-1)]
}

// prefetch starts loading key's bucket into the cache. The search calls it
// as soon as a child's key is known, so the miss on a 16 MB+ table overlaps
// with the work before the child's probe instead of stalling it.
func (t *TT) prefetch(key uint64) {
	prefetch(unsafe.Pointer(t.bucket(key ^ t.salt)))
}

// probe returns the entry stored for key, if any.
func (t *TT) probe(key uint64) (ttData, bool) {
	key ^= t.salt
	b := t.bucket(key)
	for i := range b {
		d := b[i].data.Load()
		if b[i].check.Load()^d == key {
			return unpack(d), true
		}
	}
	return ttData{}, false
}

// store saves a search result. Within the bucket it overwrites the same
// position, else the entry that is oldest and shallowest.
func (t *TT) store(key uint64, move board.Move, score, eval, depth int, bound Bound) {
	key ^= t.salt
	b := t.bucket(key)
	victim := &b[0]
	worst := 1 << 30
	for i := range b {
		e := &b[i]
		d := e.data.Load()
		if e.check.Load()^d == key {
			old := unpack(d)
			// Keep a deeper result of the same search unless this one is exact.
			if bound != BoundExact && old.age == t.age && int(old.depth) > depth+2 {
				return
			}
			if move == board.NoMove {
				move = old.move // keep the known best move
			}
			victim = e
			break
		}
		old := unpack(d)
		value := int(old.depth) - 8*int((t.age-old.age)&63)
		if value < worst {
			worst, victim = value, e
		}
	}
	d := ttData{move: move, score: int16(score), eval: int16(eval), depth: int8(depth), bound: bound, age: t.age}.pack()
	victim.data.Store(d)
	victim.check.Store(key ^ d)
}

// Hashfull returns the permille of the first thousand entries filled during this search.
func (t *TT) Hashfull() int {
	n := 0
	count := 0
	for i := 0; i < len(t.buckets) && count < 1000; i++ {
		for j := range t.buckets[i] {
			d := t.buckets[i][j].data.Load()
			if d != 0 && unpack(d).age == t.age {
				n++
			}
			count++
		}
	}
	return n * 1000 / max(count, 1)
}

// scoreToTT and scoreFromTT make mate scores relative to the node, so a
// stored mate is right wherever the position is reached again.
// scoreToTT stores mate and tablebase scores as distances from the node
// rather than the root, so that an entry holds wherever it is found;
// scoreFromTT turns them back.
func scoreToTT(score, ply int) int {
	switch {
	case score >= TBWinBound:
		return score + ply
	case score <= -TBWinBound:
		return score - ply
	}
	return score
}

func scoreFromTT(score, ply int) int {
	switch {
	case score >= TBWinBound:
		return score - ply
	case score <= -TBWinBound:
		return score + ply
	}
	return score
}

// boundOf classifies a node's result for the transposition table.
func boundOf(best, origAlpha, beta int) Bound {
	switch {
	case best >= beta:
		return BoundLower
	case best > origAlpha:
		return BoundExact
	}
	return BoundUpper
}
