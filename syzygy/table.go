package syzygy

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// The layout of a table file (all numbers little-endian unless noted):
//
//	magic (4 bytes), flags (1: bit 0 two sides stored, bit 1 pawns)
//	per sub-table (1 without pawns, 4 with: leading pawn on file a..d):
//	    order byte(s) (low nibble side 0, high nibble side 1; a second one
//	    when both colours have pawns), then one byte per piece (same nibbles)
//	pad to an even offset
//	per sub-table and side: the compression header (see parsePairs)
//	DTZ only: the value maps of the sub-tables that have them, padded
//	per sub-table and side: the sparse index (6 bytes per entry)
//	per sub-table and side: the block lengths (2 bytes per block)
//	per sub-table and side: aligned to 64 bytes, the compressed blocks
//
// and 16 bytes of checksum at the end. Values are Huffman-coded symbols
// that expand by "recursive pairing" into runs of up to 256 values.

var (
	wdlMagic = [4]byte{0x71, 0xE8, 0x23, 0x5D}
	dtzMagic = [4]byte{0xD7, 0x66, 0x0C, 0xA5}
)

// Flags of a sub-table.
const (
	flagSide      = 1   // DTZ: the side to move stored (0 white, 1 black, after colour flipping)
	flagMapped    = 2   // DTZ: values go through a map
	flagWinPlies  = 4   // DTZ: wins counted in plies, not moves
	flagLossPlies = 8   // DTZ: losses counted in plies
	flagWide      = 16  // DTZ: the map holds 16-bit values
	flagSingle    = 128 // every position has the same value
)

// errCorrupt is wrapped by every error about the content of a table file.
var errCorrupt = errors.New("corrupt table")

func corrupt(format string, args ...any) error {
	return fmt.Errorf("%w: %s", errCorrupt, fmt.Sprintf(format, args...))
}

// pairs is one compressed sub-table: the values of one side to move (and,
// with pawns, one file of the leading pawn).
type pairs struct {
	encoding
	flags  uint8
	single bool  // every value is const1
	const1 uint8 // the value when single

	blockShift uint     // blocks are 1<<blockShift bytes
	spanShift  uint     // a sparse index entry every 1<<spanShift values
	numBlocks  int      // blocks of data
	minLen     int      // shortest Huffman code in bits
	lowest     []int    // lowest symbol of each code length, minLen..maxLen
	base       []uint64 // base[l-minLen]: the lowest code of length l, left-aligned
	symLen     []uint8  // values minus one each symbol expands to
	symPat     []byte   // 3 bytes per symbol: left and right child (12 bits each)
	sparse     []byte   // 6 bytes per entry: block (u32) and offset (u16)
	numLengths int      // entries of lengths: numBlocks plus padding
	lengths    []byte   // u16 per block: values minus one
	data       []byte   // the blocks, to the end of the file

	mapOff [4]int // DTZ: byte offsets of the four value maps (see dtzMapIndex)
}

// tableData is a parsed table file.
type tableData struct {
	raw    []byte      // the whole file (mapped or read)
	dtz    bool        // a DTZ file
	sides  int         // WDL: 1 or 2 stored sides; DTZ: 1
	files  int         // 1 without pawns, 4 with
	sub    [4][2]pairs // [file][side]
	dtzMap []byte      // DTZ: the value maps
}

// reader walks through a file with bounds checks.
type reader struct {
	b   []byte
	off int
	err error
}

func (r *reader) need(n int, what string) bool {
	if r.err != nil {
		return false
	}
	if n < 0 || r.off+n > len(r.b) || r.off+n < r.off {
		r.err = corrupt("file too short for %s (offset %d, %d more bytes, size %d)", what, r.off, n, len(r.b))
		return false
	}
	return true
}

func (r *reader) u8(what string) uint8 {
	if !r.need(1, what) {
		return 0
	}
	r.off++
	return r.b[r.off-1]
}

func (r *reader) u16(what string) uint16 {
	if !r.need(2, what) {
		return 0
	}
	r.off += 2
	return binary.LittleEndian.Uint16(r.b[r.off-2:])
}

func (r *reader) u32(what string) uint32 {
	if !r.need(4, what) {
		return 0
	}
	r.off += 4
	return binary.LittleEndian.Uint32(r.b[r.off-4:])
}

func (r *reader) bytes(n int, what string) []byte {
	if !r.need(n, what) {
		return nil
	}
	r.off += n
	return r.b[r.off-n : r.off : r.off]
}

func (r *reader) align(n int) { r.off = (r.off + n - 1) &^ (n - 1) }

// parseTable checks and indexes the bytes of a table file for the material
// m (the table's white pieces are m's first side).
func parseTable(raw []byte, m *material, dtz bool) (*tableData, error) {
	if len(raw)%64 != 16 {
		return nil, corrupt("file size %d is not 16 more than a multiple of 64 (truncated?)", len(raw))
	}
	magic := wdlMagic
	if dtz {
		magic = dtzMagic
	}
	if [4]byte(raw[:4]) != magic {
		kind := "WDL"
		if dtz {
			kind = "DTZ"
		}
		return nil, corrupt("not a %s table (magic %x)", kind, raw[:4])
	}
	t := &tableData{raw: raw, dtz: dtz, files: 1}
	r := &reader{b: raw, off: 4}
	flags := r.u8("flags")
	split := flags&1 != 0
	if (flags&2 != 0) != m.hasPawns {
		return nil, corrupt("pawn flag %d does not match the material %s", flags&2, m.name)
	}
	if m.hasPawns {
		t.files = 4
	}
	t.sides = 1
	if !dtz {
		if split == m.symmetric {
			return nil, corrupt("two-sides flag %v does not match the material %s", split, m.name)
		}
		if split {
			t.sides = 2
		}
	}
	bothPawns := m.hasPawns && m.pawns[1] > 0

	// Piece order and group order of each sub-table.
	for f := 0; f < t.files; f++ {
		o1 := r.u8("piece order")
		o2 := uint8(0xFF)
		if bothPawns {
			o2 = r.u8("piece order")
		}
		pcs := r.bytes(m.count, "piece list")
		if r.err != nil {
			return nil, r.err
		}
		for s := 0; s < t.sides; s++ {
			shift := uint(4 * s)
			e := &t.sub[f][s].encoding
			for i := range pcs {
				e.pieces[i] = pcs[i] >> shift & 15
			}
			if err := m.setGroups(e, int(o1>>shift&15), int(o2>>shift&15), f); err != nil {
				return nil, err
			}
		}
	}
	r.align(2)
	for f := 0; f < t.files && m.hasPawns; f++ {
		for s := 0; s < t.sides; s++ {
			if t.sub[f][s].pieces[0] != t.sub[0][0].pieces[0] {
				return nil, corrupt("sub-tables of %s lead with different pieces", m.name)
			}
		}
	}

	for f := 0; f < t.files; f++ {
		for s := 0; s < t.sides; s++ {
			parsePairs(r, &t.sub[f][s], dtz)
		}
	}
	if dtz {
		start := r.off
		for f := 0; f < t.files; f++ {
			d := &t.sub[f][0]
			if d.flags&flagMapped == 0 {
				continue
			}
			if d.flags&flagWide == 0 {
				for i := 0; i < 4; i++ {
					n := int(r.u8("DTZ map"))
					d.mapOff[i] = r.off - start
					r.bytes(n, "DTZ map")
				}
			} else {
				r.align(2)
				for i := 0; i < 4; i++ {
					n := int(r.u16("DTZ map"))
					d.mapOff[i] = r.off - start
					r.bytes(2*n, "DTZ map")
				}
			}
		}
		if r.err != nil {
			return nil, r.err
		}
		t.dtzMap = raw[start:r.off]
		r.align(2)
	}
	for f := 0; f < t.files; f++ {
		for s := 0; s < t.sides; s++ {
			d := &t.sub[f][s]
			if d.single {
				continue
			}
			n := (d.size + 1<<d.spanShift - 1) >> d.spanShift
			if n > uint64(len(raw)) {
				return nil, corrupt("sparse index of %d entries is larger than the file", n)
			}
			d.sparse = r.bytes(6*int(n), "sparse index")
		}
	}
	for f := 0; f < t.files; f++ {
		for s := 0; s < t.sides; s++ {
			d := &t.sub[f][s]
			if !d.single {
				d.lengths = r.bytes(2*d.numLengths, "block lengths")
			}
		}
	}
	for f := 0; f < t.files; f++ {
		for s := 0; s < t.sides; s++ {
			d := &t.sub[f][s]
			if d.single {
				continue
			}
			r.align(64)
			if !r.need(d.numBlocks<<d.blockShift, "compressed data") {
				return nil, r.err
			}
			d.data = raw[r.off:]
			r.off += d.numBlocks << d.blockShift
		}
	}
	if r.err != nil {
		return nil, r.err
	}
	if len(raw)-r.off < 16 {
		return nil, corrupt("%d bytes after the data, want a 16-byte checksum", len(raw)-r.off)
	}
	return t, nil
}

// parsePairs reads the compression header of one sub-table.
func parsePairs(r *reader, d *pairs, dtz bool) {
	d.flags = r.u8("sub-table flags")
	if d.flags&flagSingle != 0 {
		d.single = true
		v := r.u8("single value")
		if !dtz {
			d.const1 = v
		}
		return
	}
	d.blockShift = uint(r.u8("block size"))
	d.spanShift = uint(r.u8("index span"))
	pad := int(r.u8("block padding"))
	real := r.u32("block count")
	maxLen := int(r.u8("longest code"))
	d.minLen = int(r.u8("shortest code"))
	if r.err != nil {
		return
	}
	switch {
	case d.blockShift < 4 || d.blockShift > 16:
		r.err = corrupt("block size 2^%d", d.blockShift)
	case d.spanShift < 1 || d.spanShift > 32:
		r.err = corrupt("index span 2^%d", d.spanShift)
	case real > 1<<28 || int(real)<<d.blockShift > len(r.b):
		r.err = corrupt("%d blocks of 2^%d bytes do not fit in the file", real, d.blockShift)
	case d.minLen < 1 || maxLen > 32 || maxLen < d.minLen:
		r.err = corrupt("code lengths %d..%d", d.minLen, maxLen)
	}
	if r.err != nil {
		return
	}
	d.numBlocks = int(real)
	d.numLengths = int(real) + pad
	h := maxLen - d.minLen + 1
	lowest := r.bytes(2*h, "code table")
	numSyms := int(r.u16("symbol count"))
	d.symPat = r.bytes(3*numSyms, "symbol tree")
	r.off += numSyms & 1
	if r.err != nil {
		return
	}
	if numSyms == 0 {
		r.err = corrupt("no symbols")
		return
	}

	d.lowest = make([]int, h)
	for i := range d.lowest {
		d.lowest[i] = int(binary.LittleEndian.Uint16(lowest[2*i:]))
	}

	// base[i] is the first code of length minLen+i, left-aligned in 64 bits;
	// longer codes are numerically smaller.
	d.base = make([]uint64, h)
	for i := h - 2; i >= 0; i-- {
		d.base[i] = (d.base[i+1] + uint64(d.lowest[i]) - uint64(d.lowest[i+1])) / 2
	}
	for i := range d.base {
		d.base[i] <<= 64 - uint(d.minLen+i)
	}

	// Symbol lengths, checking that the pairing tree is a tree.
	d.symLen = make([]uint8, numSyms)
	state := make([]uint8, numSyms) // 0 new, 1 being expanded, 2 done
	var visit func(s int) int
	visit = func(s int) int {
		if state[s] == 2 {
			return int(d.symLen[s])
		}
		if state[s] == 1 {
			r.err = corrupt("symbol %d expands into itself", s)
			return 0
		}
		state[s] = 1
		n := 0
		left, right := d.children(s)
		if right != 0xFFF {
			if left >= numSyms || right >= numSyms {
				r.err = corrupt("symbol %d has children %d and %d of %d", s, left, right, numSyms)
				return 0
			}
			n = visit(left) + visit(right) + 1
			if n > 255 {
				r.err = corrupt("symbol %d expands into more than 256 values", s)
				return 0
			}
		}
		d.symLen[s] = uint8(n)
		state[s] = 2
		return n
	}
	for s := 0; s < numSyms && r.err == nil; s++ {
		visit(s)
	}
}

// children returns the two halves of symbol s; right is 0xFFF for a leaf,
// whose value is then left.
func (d *pairs) children(s int) (left, right int) {
	w := d.symPat[3*s : 3*s+3]
	return int(w[1]&15)<<8 | int(w[0]), int(w[2])<<4 | int(w[1]>>4)
}

// value returns the stored value at index idx, or false if the data do not
// hold together.
func (d *pairs) value(idx uint64) (int, bool) {
	if d.single {
		return int(d.const1), true
	}
	if idx >= d.size {
		return 0, false
	}
	k := idx >> d.spanShift
	e := d.sparse[6*k : 6*k+6]
	block := int(binary.LittleEndian.Uint32(e))
	lit := int(idx&(1<<d.spanShift-1)) - 1<<(d.spanShift-1) + int(binary.LittleEndian.Uint16(e[4:]))
	nlen := len(d.lengths) / 2
	if block >= nlen {
		return 0, false
	}
	for lit < 0 {
		block--
		if block < 0 {
			return 0, false
		}
		lit += int(binary.LittleEndian.Uint16(d.lengths[2*block:])) + 1
	}
	for {
		n := int(binary.LittleEndian.Uint16(d.lengths[2*block:]))
		if lit <= n {
			break
		}
		lit -= n + 1
		block++
		if block >= nlen {
			return 0, false
		}
	}
	if block >= d.numBlocks {
		return 0, false
	}

	// Decode symbols from the start of the block until the one holding lit;
	// a block holds at most 65536 values and never runs past its end.
	p := block << d.blockShift
	end := p + 1<<d.blockShift + 8
	buf := d.load(p, 8)
	p += 8
	avail := 64
	var sym int
	for {
		l := 0
		for buf < d.base[l] {
			l++
		}
		length := l + d.minLen
		sym = d.lowest[l] + int((buf-d.base[l])>>(64-uint(length)))
		if sym >= len(d.symLen) {
			return 0, false
		}
		if lit <= int(d.symLen[sym]) {
			break
		}
		lit -= int(d.symLen[sym]) + 1
		buf <<= uint(length)
		avail -= length
		if avail <= 32 {
			avail += 32
			buf |= d.load(p, 4) << uint(64-avail)
			p += 4
		}
		if p > end {
			return 0, false
		}
	}
	// Walk down the pairing tree to the value.
	for d.symLen[sym] != 0 {
		left, right := d.children(sym)
		if lit <= int(d.symLen[left]) {
			sym = left
		} else {
			lit -= int(d.symLen[left]) + 1
			sym = right
		}
	}
	v, _ := d.children(sym)
	return v, true
}

// load reads n (4 or 8) bytes big-endian at p in the data, zeros past its end.
func (d *pairs) load(p, n int) uint64 {
	if p+n <= len(d.data) {
		if n == 8 {
			return binary.BigEndian.Uint64(d.data[p:])
		}
		return uint64(binary.BigEndian.Uint32(d.data[p:]))
	}
	var v uint64
	for i := 0; i < n; i++ {
		v <<= 8
		if p+i < len(d.data) {
			v |= uint64(d.data[p+i])
		}
	}
	return v
}
