package book

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twofold-chess/twofold/board"
	"github.com/twofold-chess/twofold/movegen"
)

// encode writes entries in the file format; sorting is the caller's business.
func encode(entries ...Entry) []byte {
	data := make([]byte, 0, entrySize*len(entries))
	for _, e := range entries {
		data = binary.BigEndian.AppendUint64(data, e.Key)
		data = binary.BigEndian.AppendUint16(data, e.Move)
		data = binary.BigEndian.AppendUint16(data, e.Weight)
		data = binary.BigEndian.AppendUint32(data, e.Learn)
	}
	return data
}

// raw encodes a move the Polyglot way: "e2e4", with promo 0 (none) to 4 (queen).
func raw(t testing.TB, uci string, promo uint16) uint16 {
	t.Helper()
	from, ok1 := board.ParseSquare(uci[:2])
	to, ok2 := board.ParseSquare(uci[2:4])
	require.True(t, ok1 && ok2, uci)
	return uint16(to.File()) | uint16(to.Rank())<<3 | uint16(from.File())<<6 | uint16(from.Rank())<<9 | promo<<12
}

func TestDecodeMove(t *testing.T) {
	const castling = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R %s KQkq - 0 1"
	for _, tc := range []struct {
		name, fen, move string
		promo           uint16
		want            string // UCI in the position's own notation; "" = skipped
		kind            board.MoveKind
	}{
		{"quiet", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "e2e4", 0, "e2e4", board.Normal},
		{"knight", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "g1f3", 0, "g1f3", board.Normal},
		{"illegal", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "e2e5", 0, "", 0},
		{"a1a1 is no move", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "a1a1", 0, "", 0},
		{"other side's move", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "e7e5", 0, "", 0},
		{"promotion bits on a quiet move", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "e2e4", 4, "", 0},
		{"en passant", "rnbqkb1r/ppp1pppp/5n2/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3", "e5d6", 0, "e5d6", board.EnPassant},
		{"white short castling", "w", "e1h1", 0, "e1g1", board.Castling},
		{"white long castling", "w", "e1a1", 0, "e1c1", board.Castling},
		{"black short castling", "b", "e8h8", 0, "e8g8", board.Castling},
		{"black long castling", "b", "e8a8", 0, "e8c8", board.Castling},
		// The format writes castling only as king takes rook.
		{"e1g1 is not the format's castling", "w", "e1g1", 0, "", 0},
		{"queen", "4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7a8", 4, "a7a8q", board.Promotion},
		{"rook", "4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7a8", 3, "a7a8r", board.Promotion},
		{"bishop", "4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7a8", 2, "a7a8b", board.Promotion},
		{"knight promotion", "4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7a8", 1, "a7a8n", board.Promotion},
		{"black promotes with a capture", "4k3/8/8/8/8/8/1p6/R3K3 b - - 0 1", "b2a1", 1, "b2a1n", board.Promotion},
		{"promotion without a piece", "4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7a8", 0, "", 0},
		{"promotion code 5", "4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7a8", 5, "", 0},
		{"promotion code 7", "4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7a8", 7, "", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := tc.fen
			if len(f) == 1 { // the side to move in the castling position
				f = fmt.Sprintf(castling, f)
			}
			p := fen(t, f)
			m, ok := DecodeMove(p, raw(t, tc.move, tc.promo))
			if tc.want == "" {
				assert.False(t, ok)
				assert.Equal(t, board.NoMove, m)
				return
			}
			require.True(t, ok)
			assert.Equal(t, tc.want, m.UCI(false))
			assert.Equal(t, tc.kind, m.Kind())
		})
	}
}

// Bit 15 is unused by the format: a move with it set is garbage.
func TestDecodeMoveHighBit(t *testing.T) {
	_, ok := DecodeMove(board.StartPosition(), raw(t, "e2e4", 0)|1<<15)
	assert.False(t, ok)
}

// In Chess960 the king takes its rook wherever the rook stands, which is
// the engine's own castling encoding, so g1 here is the castling rook, not
// the king's destination of a standard castling.
func TestDecodeMoveChess960(t *testing.T) {
	p := fen(t, "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1")
	p.SetChess960(true)
	for _, tc := range []struct{ move, kingTo string }{{"e1g1", "g1"}, {"e1b1", "c1"}} {
		m, ok := DecodeMove(p, raw(t, tc.move, 0))
		require.True(t, ok, tc.move)
		assert.Equal(t, board.Castling, m.Kind())
		assert.Equal(t, tc.move, m.UCI(true))
		assert.Equal(t, tc.kingTo, m.CastlingKingTo().String())
	}
}

func TestParseCorrupt(t *testing.T) {
	start := Key(board.StartPosition())
	good := encode(Entry{Key: 1, Move: 1, Weight: 1}, Entry{Key: start, Move: raw(t, "e2e4", 0), Weight: 1})

	_, err := Parse(good[:len(good)-1])
	require.ErrorIs(t, err, ErrCorrupt)
	assert.Contains(t, err.Error(), "not a whole number of 16-byte entries")

	_, err = Parse(good[:7])
	require.ErrorIs(t, err, ErrCorrupt)

	unsorted := encode(Entry{Key: start}, Entry{Key: 1})
	_, err = Parse(unsorted)
	require.ErrorIs(t, err, ErrCorrupt)
	assert.Contains(t, err.Error(), "sorted")

	b, err := Parse(nil)
	require.NoError(t, err)
	assert.Equal(t, 0, b.Len())
	_, ok := b.Pick(board.StartPosition(), rand.New(rand.NewPCG(1, 2)))
	assert.False(t, ok)
}

func TestOpenRefuses(t *testing.T) {
	dir := t.TempDir()

	_, err := Open(filepath.Join(dir, "missing.bin"))
	require.ErrorIs(t, err, os.ErrNotExist)

	_, err = Open(dir)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "not a regular file")

	if _, statErr := os.Stat(os.DevNull); statErr == nil {
		_, err = Open(os.DevNull) // a device: it could also be endless, like /dev/zero
		require.Error(t, err)
		assert.Contains(t, err.Error(), "not a regular file")
	}

	// A sparse file just over the cap: refused from its size, without reading.
	big := filepath.Join(dir, "big.bin")
	f, err := os.Create(big)
	require.NoError(t, err)
	require.NoError(t, f.Truncate(MaxSize+entrySize))
	require.NoError(t, f.Close())
	_, err = Open(big)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "larger than")

	truncated := filepath.Join(dir, "truncated.bin")
	require.NoError(t, os.WriteFile(truncated, make([]byte, 20), 0o644))
	_, err = Open(truncated)
	require.ErrorIs(t, err, ErrCorrupt)
	assert.Contains(t, err.Error(), truncated)
}

func TestLookup(t *testing.T) {
	b, err := Parse(encode(
		Entry{Key: 1, Move: 10}, Entry{Key: 5, Move: 50, Weight: 7, Learn: 9}, Entry{Key: 5, Move: 51}, Entry{Key: 9, Move: 90},
	))
	require.NoError(t, err)
	assert.Equal(t, 4, b.Len())
	assert.Equal(t, []Entry{{Key: 5, Move: 50, Weight: 7, Learn: 9}, {Key: 5, Move: 51}}, b.Lookup(5))
	assert.Equal(t, []Entry{{Key: 1, Move: 10}}, b.Lookup(1))
	assert.Equal(t, []Entry{{Key: 9, Move: 90}}, b.Lookup(9))
	assert.Empty(t, b.Lookup(0))
	assert.Empty(t, b.Lookup(6))
	assert.Empty(t, b.Lookup(^uint64(0)))
}

// stubRand returns the queued numbers in turn and records the bounds asked.
type stubRand struct {
	next  []uint64
	asked []uint64
}

func (r *stubRand) Uint64N(n uint64) uint64 {
	r.asked = append(r.asked, n)
	x := r.next[0]
	r.next = r.next[1:]
	return x
}

func startBook(t *testing.T, entries ...Entry) *Book {
	t.Helper()
	b, err := Parse(encode(entries...))
	require.NoError(t, err)
	return b
}

func TestPickWeighted(t *testing.T) {
	k := Key(board.StartPosition())
	b := startBook(t,
		Entry{Key: k, Move: raw(t, "e2e4", 0), Weight: 1},
		Entry{Key: k, Move: raw(t, "d2d4", 0), Weight: 0},
		Entry{Key: k, Move: raw(t, "e2e5", 0), Weight: 100}, // illegal: skipped, its weight too
		Entry{Key: k, Move: 0xFFFF, Weight: 100},            // garbage: skipped
		Entry{Key: k, Move: raw(t, "g1f3", 0), Weight: 3},
	)
	want := []string{"e2e4", "g1f3", "g1f3", "g1f3"} // x = 0..3 over weights 1, 0, 3
	for x, w := range want {
		r := &stubRand{next: []uint64{uint64(x)}}
		m, ok := b.Pick(board.StartPosition(), r)
		require.True(t, ok)
		assert.Equal(t, w, m.String(), "x=%d", x)
		assert.Equal(t, []uint64{4}, r.asked, "the total of the legal moves' weights")
	}

	assert.Equal(t, []Choice{
		{Move: board.NewMove(board.NewSquare(4, 1), board.NewSquare(4, 3)), Weight: 1},
		{Move: board.NewMove(board.NewSquare(3, 1), board.NewSquare(3, 3)), Weight: 0},
		{Move: board.NewMove(board.NewSquare(6, 0), board.NewSquare(5, 2)), Weight: 3},
	}, b.Moves(board.StartPosition()))
}

// With every weight 0 the moves are equally likely; a move listed twice
// counts once, with the sum of its weights.
func TestPickZeroWeightsAndDuplicates(t *testing.T) {
	k := Key(board.StartPosition())
	zero := startBook(t,
		Entry{Key: k, Move: raw(t, "e2e4", 0)},
		Entry{Key: k, Move: raw(t, "d2d4", 0)},
		Entry{Key: k, Move: raw(t, "c2c4", 0)},
	)
	for x, w := range []string{"e2e4", "d2d4", "c2c4"} {
		r := &stubRand{next: []uint64{uint64(x)}}
		m, ok := zero.Pick(board.StartPosition(), r)
		require.True(t, ok)
		assert.Equal(t, w, m.String())
		assert.Equal(t, []uint64{3}, r.asked)
	}

	dup := startBook(t,
		Entry{Key: k, Move: raw(t, "e2e4", 0), Weight: 2},
		Entry{Key: k, Move: raw(t, "d2d4", 0), Weight: 1},
		Entry{Key: k, Move: raw(t, "e2e4", 0), Weight: 65535},
	)
	moves := dup.Moves(board.StartPosition())
	require.Len(t, moves, 2)
	assert.Equal(t, uint32(65537), moves[0].Weight, "no 16-bit overflow")
}

// A real random source: frequencies follow the weights, weight 0 never comes.
func TestPickDistribution(t *testing.T) {
	k := Key(board.StartPosition())
	b := startBook(t,
		Entry{Key: k, Move: raw(t, "e2e4", 0), Weight: 3},
		Entry{Key: k, Move: raw(t, "d2d4", 0), Weight: 1},
		Entry{Key: k, Move: raw(t, "b1c3", 0), Weight: 0},
	)
	r := rand.New(rand.NewPCG(1, 2))
	counts := map[string]int{}
	const n = 20000
	for range n {
		m, ok := b.Pick(board.StartPosition(), r)
		require.True(t, ok)
		counts[m.String()]++
	}
	assert.Zero(t, counts["b1c3"])
	assert.InDelta(t, 0.75, float64(counts["e2e4"])/n, 0.02)
	assert.InDelta(t, 0.25, float64(counts["d2d4"])/n, 0.02)
}

// A book whose entries for the position are all unusable gives no move.
func TestPickNothingLegal(t *testing.T) {
	k := Key(board.StartPosition())
	b := startBook(t, Entry{Key: k, Move: raw(t, "e2e5", 0), Weight: 5}, Entry{Key: k, Move: 0, Weight: 5})
	_, ok := b.Pick(board.StartPosition(), &stubRand{})
	assert.False(t, ok)
	assert.Empty(t, b.Moves(board.StartPosition()))
}

// FuzzOpen: no byte string makes Open, Parse, Lookup, Moves or Pick panic,
// and every move that comes back is legal. Each input is also tried with
// every key rewritten to the start position's, so its moves (garbage
// included) are decoded and picked from.
func FuzzOpen(f *testing.F) {
	if data, err := os.ReadFile(filepath.Join("testdata", "book.bin")); err == nil {
		f.Add(data)
		f.Add(data[:len(data)-5])
	}
	f.Add([]byte{})
	f.Add(encode(Entry{Key: 2, Move: 0xFFFF, Weight: 0xFFFF}, Entry{Key: 1}))
	f.Add(encode(Entry{Key: 0x463b96181691fc9c, Move: 0x7FFF, Weight: 1}))
	dir := f.TempDir()
	positions := []*board.Position{
		board.StartPosition(),
		fenOrPanic("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1"),
		fenOrPanic("4k3/P7/8/8/8/8/8/4K3 w - - 0 1"),
	}
	// Plain checks, not testify: its helpers cost more than the body and
	// slowed fuzzing a hundredfold.
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(dir, "fuzz.bin")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		if b, err := Open(path); err == nil {
			probe(t, b, positions)
		}
		for _, p := range positions {
			k := Key(p)
			rewritten := append([]byte(nil), data[:len(data)/entrySize*entrySize]...)
			for i := 0; i < len(rewritten); i += entrySize {
				binary.BigEndian.PutUint64(rewritten[i:], k)
			}
			b, err := Parse(rewritten)
			if err != nil {
				t.Fatalf("whole entries with one key are a valid book: %v", err)
			}
			probe(t, b, []*board.Position{p})
		}
	})
}

func probe(t *testing.T, b *Book, positions []*board.Position) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, p := range positions {
		var ml movegen.MoveList
		movegen.Legal(p, &ml)
		for _, c := range b.Moves(p) {
			if !ml.Contains(c.Move) {
				t.Errorf("book move %s is not legal", c.Move)
			}
		}
		if m, ok := b.Pick(p, r); ok && !ml.Contains(m) {
			t.Errorf("picked move %s is not legal", m)
		}
	}
}

func fenOrPanic(f string) *board.Position {
	p, err := movegen.ParseFEN(f)
	if err != nil {
		panic(err)
	}
	return p
}
