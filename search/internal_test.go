package search

import (
	"math/rand"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twofold-chess/twofold/board"
	"github.com/twofold-chess/twofold/internal/sysmem"
	"github.com/twofold-chess/twofold/movegen"
)

func TestSEE(t *testing.T) {
	P, N, B, R, Q := seeValue[board.Pawn], seeValue[board.Knight], seeValue[board.Bishop], seeValue[board.Rook], seeValue[board.Queen]
	for _, c := range []struct {
		name, fen, move string
		want            int
	}{
		{"pawn takes knight defended by a pawn", "4k3/8/3p4/4n3/3P4/8/8/4K3 w - - 0 1", "d4e5", N - P},
		{"queen takes pawn defended by a pawn", "4k3/8/3p4/4p3/8/8/8/4QK2 w - - 0 1", "e1e5", P - Q},
		{"knight takes undefended queen", "4k3/8/8/3q4/8/4N3/8/4K3 w - - 0 1", "e3d5", Q},
		{"knight takes knight, defended", "4k3/8/3p4/4n3/8/3N4/8/4K3 w - - 0 1", "d3e5", 0},
		{"rook takes pawn defended by a rook", "3r2k1/8/8/3p4/8/8/8/3R2K1 w - - 0 1", "d1d5", P - R},
		// The rook behind the capturer recaptures through it.
		{"x-ray: doubled rooks win the pawn", "3r2k1/8/8/3p4/8/8/3R4/3R2K1 w - - 0 1", "d2d5", P},
		// The defender's x-ray: doubled black rooks hold the pawn.
		{"x-ray: doubled defenders", "3r2k1/3r4/8/3p4/8/8/8/3R2K1 w - - 0 1", "d1d5", P - R},
		// A queen behind a bishop on the diagonal joins the exchange.
		{"x-ray: queen behind bishop", "4k3/3n4/8/4p3/3B4/2Q5/8/4K3 w - - 0 1", "d4e5", P - B + N},
		{"no x-ray without the queen", "4k3/3n4/8/4p3/3B4/8/8/4K3 w - - 0 1", "d4e5", P - B},
		// The pawn captures first; the bishop behind it then recaptures.
		{"x-ray: bishop behind pawn", "4k3/8/5n2/3p4/4P3/5B2/8/4K3 w - - 0 1", "e4d5", P},
		{"no x-ray without the bishop", "4k3/8/5n2/3p4/4P3/8/8/4K3 w - - 0 1", "e4d5", 0},
		// The king may not take on a square that is still defended.
		{"king cannot recapture a defended piece", "3k4/3p4/8/8/8/8/3R4/3RK3 w - - 0 1", "d2d7", P},
		{"king recaptures an undefended piece", "3k4/3p4/8/8/8/8/8/3RK3 w - - 0 1", "d1d7", P - R},
		{"quiet move to a safe square", "4k3/8/3p4/8/8/8/8/2B1K3 w - - 0 1", "c1e3", 0},
		{"quiet move en prise", "4k3/8/3p4/8/2N5/8/8/4K3 w - - 0 1", "c4e5", -N},
		{"en passant", "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6", P},
		{"promotion, unguarded", "4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7a8q", Q - P},
		{"promotion, guarded", "1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7a8q", -P},
		{"promotion capture, guarded", "rr2k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7a8q", R - P},
		{"castling", "4k3/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1", 0},
		{"black: pawn takes defended bishop", "4k3/8/8/3p4/4B3/5P2/8/4K3 b - - 0 1", "d5e4", B - P},
	} {
		t.Run(c.name, func(t *testing.T) {
			p, err := movegen.ParseFEN(c.fen)
			require.NoError(t, err)
			m, err := movegen.ParseUCI(p, c.move)
			require.NoError(t, err)
			fen := p.FEN()
			assert.Equal(t, c.want, SEE(p, m))
			assert.Equal(t, fen, p.FEN(), "SEE changed the position")
		})
	}
}

func sq(s string) board.Square {
	q, ok := board.ParseSquare(s)
	if !ok {
		panic(s)
	}
	return q
}

func TestTTDataPackRoundTrip(t *testing.T) {
	cases := []ttData{
		{},
		{move: board.NewMove(board.E1, sq("e2")), score: 123, eval: -45, depth: 7, bound: BoundExact, age: 5},
		{move: board.NewPromotion(sq("a7"), board.B8, board.Queen), score: -MateScore + 3, eval: Infinity, depth: 0, bound: BoundUpper, age: 63},
		{move: board.NewCastling(board.E8, board.H8), score: MateScore - 1, eval: -Infinity, depth: MaxPly - 1, bound: BoundLower, age: 1},
		{move: board.NewEnPassant(sq("e5"), sq("d6")), score: -32768, eval: 32767, depth: -1, bound: BoundNone, age: 0},
	}
	rng := rand.New(rand.NewSource(1))
	for i := 0; i < 1000; i++ {
		cases = append(cases, ttData{
			move:  board.Move(rng.Intn(1 << 16)),
			score: int16(rng.Intn(1<<16) - 1<<15),
			eval:  int16(rng.Intn(1<<16) - 1<<15),
			depth: int8(rng.Intn(256) - 128),
			bound: Bound(rng.Intn(4)),
			age:   uint8(rng.Intn(64)),
		})
	}
	for _, d := range cases {
		require.Equal(t, d, unpack(d.pack()), "%+v", d)
	}
	// The age is kept to 6 bits.
	assert.Equal(t, uint8(1), unpack(ttData{age: 65}.pack()).age)
}

func TestTTStoreProbe(t *testing.T) {
	tt := NewTT(1)
	assert.Equal(t, 1<<20/32, len(tt.buckets), "1 MB of 32-byte buckets")
	tt.newSearch()
	const key = 0x123456789ABCDEF0
	_, hit := tt.probe(key)
	assert.False(t, hit)

	m := board.NewMove(board.G1, sq("f3"))
	tt.store(key, m, -250, 30, 9, BoundExact)
	d, hit := tt.probe(key)
	require.True(t, hit)
	assert.Equal(t, ttData{move: m, score: -250, eval: 30, depth: 9, bound: BoundExact, age: tt.age}, d)

	// Another key of the same bucket is a miss, and fits beside it.
	other := uint64(key) ^ 1<<63
	_, hit = tt.probe(other)
	assert.False(t, hit)
	tt.store(other, board.NoMove, 5, 5, 3, BoundLower)
	_, hit = tt.probe(key)
	assert.True(t, hit)
	d, hit = tt.probe(other)
	require.True(t, hit)
	assert.Equal(t, int16(5), d.score)

	// Storing a result without a move keeps the known best move.
	tt.store(key, board.NoMove, 10, 30, 12, BoundExact)
	d, _ = tt.probe(key)
	assert.Equal(t, m, d.move)
	assert.Equal(t, int8(12), d.depth)
	// A shallow bound of the same search does not replace a much deeper entry.
	tt.store(key, board.NoMove, 99, 30, 2, BoundUpper)
	d, _ = tt.probe(key)
	assert.Equal(t, int8(12), d.depth)
	assert.Equal(t, int16(10), d.score)

	// A torn entry (data changed behind the check word) reads as a miss.
	b := tt.bucket(key)
	for i := range b {
		if b[i].check.Load()^b[i].data.Load() == key {
			b[i].data.Store(b[i].data.Load() ^ 1<<20)
		}
	}
	_, hit = tt.probe(key)
	assert.False(t, hit)

	tt.Clear()
	_, hit = tt.probe(other)
	assert.False(t, hit)
	assert.Equal(t, 0, tt.Hashfull())
}

// Clear changes the salt instead of zeroing: every entry stored before it is
// a miss after it, entries stored after it hit, and Hashfull starts over.
func TestTTClearIsASaltChange(t *testing.T) {
	tt := NewTT(1)
	tt.newSearch()
	for round := 0; round < 3; round++ {
		for k := uint64(1); k <= 2000; k++ {
			tt.store(k*0x9E3779B97F4A7C15, board.NoMove, int(k%100), 0, 3, BoundExact)
		}
		assert.Greater(t, tt.Hashfull(), 0)
		tt.Clear()
		tt.newSearch()
		for k := uint64(1); k <= 2000; k++ {
			_, hit := tt.probe(k * 0x9E3779B97F4A7C15)
			require.False(t, hit, "round %d key %d survived Clear", round, k)
		}
		assert.Equal(t, 0, tt.Hashfull())
	}
	tt.store(42, board.NoMove, 7, 0, 3, BoundExact)
	d, hit := tt.probe(42)
	require.True(t, hit)
	assert.Equal(t, int16(7), d.score)
}

// A table the machine cannot hold is refused and the old one kept (Go
// cannot recover from a failed allocation).
func TestTTResizeRefusesWhatDoesNotFit(t *testing.T) {
	if _, ok := sysmem.Available(); !ok {
		t.Skip("this system does not report available memory")
	}
	tt := NewTT(1)
	tt.store(42, board.NoMove, 7, 0, 3, BoundExact)
	err := tt.Resize(1 << 30) // a petabyte
	require.Error(t, err)
	assert.Contains(t, err.Error(), "keeping 1 MB")
	assert.Len(t, tt.buckets, 1<<20/32)
	_, hit := tt.probe(42)
	assert.True(t, hit, "the old table and its entries stay")
	require.NoError(t, tt.Resize(2))
	assert.Len(t, tt.buckets, 2<<20/32)
}

func TestTTHashfull(t *testing.T) {
	tt := NewTT(1)
	tt.newSearch()
	assert.Equal(t, 0, tt.Hashfull())
	// Fill the first 250 buckets (500 entries of the first 1000).
	for i := uint64(0); i < 250; i++ {
		tt.store(i|1<<40, board.NoMove, 0, 0, 1, BoundExact)
		tt.store(i|2<<40, board.NoMove, 0, 0, 1, BoundExact)
	}
	assert.Equal(t, 500, tt.Hashfull())
	// Entries of an earlier search do not count.
	tt.newSearch()
	assert.Equal(t, 0, tt.Hashfull())
}

func TestMateScoresThroughTT(t *testing.T) {
	for _, c := range []struct{ score, ply, stored int }{
		{MateScore - 5, 3, MateScore - 2}, // mate in 5 plies from the root is mate in 2 from here
		{-MateScore + 6, 4, -MateScore + 2},
		{MateBound, 2, MateBound + 2},
		{-MateBound, 2, -MateBound - 2},
		{250, 7, 250},
		{-TBWinBound + 1, 9, -TBWinBound + 1}, // the best ordinary score below the tablebase band
		{-TBWin, 9, -TBWin - 9},               // a tablebase loss counts its plies like a mate
		{TBWinBound, 4, TBWinBound + 4},
		{0, 30, 0},
	} {
		assert.Equal(t, c.stored, scoreToTT(c.score, c.ply), "%+v", c)
		assert.Equal(t, c.score, scoreFromTT(c.stored, c.ply), "%+v", c)
	}
	// A mate stored at one ply reads as the right distance at another.
	stored := scoreToTT(MateScore-7, 5) // mate in 2 plies from the node at ply 5
	assert.Equal(t, MateScore-3, scoreFromTT(stored, 1))
	stored = scoreToTT(-MateScore+8, 6)
	assert.Equal(t, -MateScore+3, scoreFromTT(stored, 1))
	// Mate scores fit the table's 16 bits.
	for _, s := range []int{MateScore, -MateScore, Infinity, -Infinity} {
		assert.Equal(t, s, int(int16(scoreToTT(s, 0))))
	}
}

func TestLMRTable(t *testing.T) {
	for d := 1; d < MaxPly; d++ {
		for m := 1; m < movegen.MaxMoves; m++ {
			r := lmrTable[d][m]
			require.GreaterOrEqual(t, r, 0)
			if m > 1 {
				require.GreaterOrEqual(t, r, lmrTable[d][m-1])
			}
			if d > 1 {
				require.GreaterOrEqual(t, r, lmrTable[d-1][m])
			}
		}
	}
}

// seeNonNegative is SEE(p, m) >= 0 exactly, its shortcut included, on every
// legal move of the perft suite's positions and those one move later.
func TestSEENonNegativeAgreesWithSEE(t *testing.T) {
	shortcuts := 0
	for _, p := range suitePositions(t) {
		var ml movegen.MoveList
		movegen.Legal(p, &ml)
		for _, m := range ml.Moves() {
			if m.Kind() == board.Normal && p.CapturedPiece(m) != board.NoPiece &&
				seeValue[p.CapturedPiece(m).Type()] >= seeValue[p.PieceAt(m.From()).Type()] {
				shortcuts++
			}
			require.Equal(t, SEE(p, m) >= 0, seeNonNegative(p, m), "%s %s", p.FEN(), m.UCI(p.Chess960()))
		}
	}
	require.Greater(t, shortcuts, 500, "the shortcut is exercised")
}
