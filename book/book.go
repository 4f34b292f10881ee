package book

import (
	"encoding/binary"
	"errors"
	"fmt"
	"sort"

	"github.com/twofold-chess/twofold/board"
	"github.com/twofold-chess/twofold/internal/regularfile"
	"github.com/twofold-chess/twofold/movegen"
)

// entrySize is the size of one book entry in bytes.
const entrySize = 16

// MaxSize is the largest book Open reads. The largest public books are a
// few hundred MB; a bigger file is more likely a wrong path (a disk image, a
// database) than a book, and reading it would take that much memory.
const MaxSize = 1 << 30

// ErrCorrupt is wrapped by the errors of a file that is not a Polyglot book:
// a size that is not a whole number of entries, or entries out of order.
var ErrCorrupt = errors.New("not a valid Polyglot book")

// Entry is one book entry as stored: Move is the raw Polyglot move (see
// DecodeMove), Weight its relative frequency, Learn unused by the engine.
type Entry struct {
	Key    uint64
	Move   uint16
	Weight uint16
	Learn  uint32
}

// Book is an opening book held in memory. It is read-only, so one Book may
// be used by several goroutines.
type Book struct {
	data []byte // the file's bytes: entries are decoded where they lie
}

// Open reads the book at path. It refuses files that are not regular (a
// directory, a FIFO or a device could block or never end), files over
// MaxSize, and files that are not Polyglot books.
func Open(path string) (*Book, error) {
	data, err := regularfile.Read(path, MaxSize, "a book")
	if err != nil {
		return nil, err
	}
	b, err := Parse(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return b, nil
}

// Parse checks data as a Polyglot book and returns the book, which keeps
// data (the caller must not change it afterwards). An empty book is valid.
func Parse(data []byte) (*Book, error) {
	if extra := len(data) % entrySize; extra != 0 {
		return nil, fmt.Errorf("%w: %d bytes is not a whole number of %d-byte entries (truncated? %d bytes left over)",
			ErrCorrupt, len(data), entrySize, extra)
	}
	b := &Book{data: data}
	// Lookup is a binary search, which finds nothing reliable in an
	// unsorted file: such a file is refused rather than half used.
	for i := 1; i < b.Len(); i++ {
		if prev, k := b.key(i-1), b.key(i); k < prev {
			return nil, fmt.Errorf("%w: entry %d (key %016x) comes after a larger key (%016x); entries must be sorted by key",
				ErrCorrupt, i, k, prev)
		}
	}
	return b, nil
}

// Len returns the number of entries.
func (b *Book) Len() int { return len(b.data) / entrySize }

func (b *Book) key(i int) uint64 { return binary.BigEndian.Uint64(b.data[i*entrySize:]) }

func (b *Book) entry(i int) Entry {
	e := b.data[i*entrySize : (i+1)*entrySize]
	return Entry{
		Key:    binary.BigEndian.Uint64(e),
		Move:   binary.BigEndian.Uint16(e[8:]),
		Weight: binary.BigEndian.Uint16(e[10:]),
		Learn:  binary.BigEndian.Uint32(e[12:]),
	}
}

// Lookup returns the entries of a Polyglot key (see Key), in book order.
func (b *Book) Lookup(key uint64) []Entry {
	first := sort.Search(b.Len(), func(i int) bool { return b.key(i) >= key })
	var out []Entry
	for i := first; i < b.Len() && b.key(i) == key; i++ {
		out = append(out, b.entry(i))
	}
	return out
}

// DecodeMove turns a raw Polyglot move into the legal move of p it names.
// The encoding: bits 0-5 the destination (file, then rank), bits 6-11 the
// origin, bits 12-14 the promotion piece (0 none, 1 knight ... 4 queen).
// Castling is written king takes own rook (e1h1, and in Chess960 the rook's
// actual square), which is how board.Move stores castling too. ok is false
// for a move that is not legal in p or cannot be decoded (a1a1, a
// promotion code over 4, bit 15 set): such entries are skipped.
func DecodeMove(p *board.Position, raw uint16) (m board.Move, ok bool) {
	promo := raw >> 12 & 7
	if raw>>15 != 0 || promo > 4 {
		return board.NoMove, false
	}
	to := board.NewSquare(int(raw&7), int(raw>>3&7))
	from := board.NewSquare(int(raw>>6&7), int(raw>>9&7))
	var ml movegen.MoveList
	movegen.Legal(p, &ml)
	for _, m := range ml.Moves() {
		if m.From() != from || m.To() != to {
			continue
		}
		if m.Kind() == board.Promotion {
			// Polyglot's 1..4 are knight..queen, in board.PieceType's order.
			if promo != 0 && m.PromotionType() == board.Knight+board.PieceType(promo-1) {
				return m, true
			}
		} else if promo == 0 {
			return m, true
		}
	}
	return board.NoMove, false
}

// Choice is a legal book move of a position with its weight (the sum of the
// weights of its entries, should the book list it more than once).
type Choice struct {
	Move   board.Move
	Weight uint32
}

// Moves returns the legal book moves of p, each once, in book order.
// Entries whose move is illegal in p or undecodable are left out.
func (b *Book) Moves(p *board.Position) []Choice {
	var out []Choice
next:
	for _, e := range b.Lookup(Key(p)) {
		m, ok := DecodeMove(p, e.Move)
		if !ok {
			continue
		}
		for i := range out {
			if out[i].Move == m {
				out[i].Weight += uint32(e.Weight)
				continue next
			}
		}
		out = append(out, Choice{Move: m, Weight: uint32(e.Weight)})
	}
	return out
}

// Rand is the random source Pick draws from; *math/rand/v2.Rand is one.
// Tests inject their own to make the pick deterministic.
type Rand interface {
	// Uint64N returns a number in [0, n); n > 0.
	Uint64N(n uint64) uint64
}

// Pick chooses a book move for p at random, each legal move with
// probability weight / total weight. Moves of weight 0 are never chosen,
// unless every move has weight 0; then all are equally likely (a book that
// records no preferences still names its moves). ok is false when the book
// has no legal move for p.
func (b *Book) Pick(p *board.Position, r Rand) (m board.Move, ok bool) {
	choices := b.Moves(p)
	if len(choices) == 0 {
		return board.NoMove, false
	}
	var total uint64
	for _, c := range choices {
		total += uint64(c.Weight)
	}
	if total == 0 {
		// The modulo only guards against a Rand that breaks its contract.
		return choices[r.Uint64N(uint64(len(choices)))%uint64(len(choices))].Move, true
	}
	x := r.Uint64N(total) % total
	for _, c := range choices {
		if x < uint64(c.Weight) {
			return c.Move, true
		}
		x -= uint64(c.Weight)
	}
	return choices[len(choices)-1].Move, true // not reached: x < total, the sum walked
}
