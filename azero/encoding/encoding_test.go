package encoding

import (
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twofold-chess/twofold/board"
	"github.com/twofold-chess/twofold/movegen"
	"github.com/twofold-chess/twofold/perft"
)

func sq(s string) board.Square {
	x, ok := board.ParseSquare(s)
	if !ok {
		panic(s)
	}
	return x
}

func mustFEN(t testing.TB, fen string) *board.Position {
	t.Helper()
	p, err := movegen.ParseFEN(fen)
	require.NoError(t, err, fen)
	return p
}

func suitePositions(t *testing.T) []*board.Position {
	var out []*board.Position
	for _, name := range []string{"perft126.epd", "frc_perft.epd"} {
		f, err := os.Open("../../testdata/" + name)
		require.NoError(t, err)
		entries, err := perft.ReadSuite(f)
		f.Close()
		require.NoError(t, err)
		for _, e := range entries {
			p := mustFEN(t, e.FEN)
			if name == "frc_perft.epd" {
				p.SetChess960(true)
			}
			out = append(out, p)
		}
	}
	return out
}

// Every legal move of every suite position (and of each child position)
// has its own policy index, and the index leads back to the move.
func TestMoveIndexIsABijectionOnLegalMoves(t *testing.T) {
	checked := 0
	var check func(p *board.Position, depth int)
	check = func(p *board.Position, depth int) {
		var ml movegen.MoveList
		movegen.Legal(p, &ml)
		seen := map[int]board.Move{}
		for _, m := range ml.Moves() {
			idx := MoveIndex(p, m)
			require.True(t, idx >= 0 && idx < PolicySize, "%s %s: index %d", p.FEN(), m.UCI(p.Chess960()), idx)
			if prev, dup := seen[idx]; dup {
				t.Fatalf("%s: %s and %s share index %d", p.FEN(), prev.UCI(true), m.UCI(true), idx)
			}
			seen[idx] = m
			back, ok := MoveFromIndex(p, idx)
			require.True(t, ok)
			require.Equal(t, m, back)
			checked++
			if depth > 0 {
				p.Make(m)
				check(p, depth-1)
				p.Unmake()
			}
		}
	}
	for _, p := range suitePositions(t) {
		check(p, 1)
	}
	t.Logf("%d moves checked", checked)
	assert.Greater(t, checked, 50000)
}

func TestMoveIndexLayout(t *testing.T) {
	for _, c := range []struct {
		name, fen, move string
		plane           int
		from            board.Square
	}{
		{"e2e4 is north, distance 2", board.StartFEN, "e2e4", 1, sq("e2")},
		{"black's e7e5 is the same move in its frame", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1", "e7e5", 1, sq("e2")},
		{"g1f3 knight jump (-1,+2)", board.StartFEN, "g1f3", 63, sq("g1")},
		{"b1c3 knight jump (+1,+2)", board.StartFEN, "b1c3", 56, sq("b1")},
		{"queen promotion is queen-style north", "8/P6k/8/8/8/8/8/K7 w - - 0 1", "a7a8q", 0, sq("a7")},
		{"knight under-promotion straight", "8/P6k/8/8/8/8/8/K7 w - - 0 1", "a7a8n", 64 + 3, sq("a7")},
		{"rook under-promotion capturing east", "1n6/P6k/8/8/8/8/8/K7 w - - 0 1", "a7b8r", 64 + 6 + 2, sq("a7")},
		{"bishop under-promotion capturing west, black", "k7/8/8/8/8/8/6p1/K6N b - - 0 1", "g2h1b", 64 + 6 + 1, sq("g7")},
		{"castling king side is the king taking its rook: east 3", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1g1", 2*7 + 2, sq("e1")},
		{"castling queen side: west 4", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1c1", 6*7 + 3, sq("e1")},
		{"black castles in its own frame", "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", "e8g8", 2*7 + 2, sq("e1")},
		{"south-west slide distance 7", "7B/8/8/8/8/8/8/2K4k w - - 0 1", "h8a1", 5*7 + 6, sq("h8")},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := mustFEN(t, c.fen)
			m, err := movegen.ParseUCI(p, c.move)
			require.NoError(t, err)
			assert.Equal(t, c.plane*64+int(c.from), MoveIndex(p, m))
		})
	}
}

// mirror returns the FEN with colours swapped and the board flipped.
func mirror(fen string) string {
	f := strings.Fields(fen)
	ranks := strings.Split(f[0], "/")
	for i, j := 0, len(ranks)-1; i < j; i, j = i+1, j-1 {
		ranks[i], ranks[j] = ranks[j], ranks[i]
	}
	swap := func(s string) string {
		return strings.Map(func(r rune) rune {
			switch {
			case r >= 'a' && r <= 'z':
				return r - 'a' + 'A'
			case r >= 'A' && r <= 'Z':
				return r - 'A' + 'a'
			}
			return r
		}, s)
	}
	f[0] = swap(strings.Join(ranks, "/"))
	f[1] = map[string]string{"w": "b", "b": "w"}[f[1]]
	if f[2] != "-" {
		c := swap(f[2])
		upper, lower := "", ""
		for _, r := range c {
			if r >= 'A' && r <= 'Z' {
				upper += string(r)
			} else {
				lower += string(r)
			}
		}
		f[2] = upper + lower
	}
	if f[3] != "-" {
		f[3] = string(f[3][0]) + string('1'+'8'-f[3][1])
	}
	return strings.Join(f, " ")
}

func TestMirroredPositionsEncodeIdentically(t *testing.T) {
	a, b := make([]float32, InputSize), make([]float32, InputSize)
	n := 0
	for _, p := range suitePositions(t)[:126] {
		q := mustFEN(t, mirror(p.FEN()))
		Encode(p, a)
		Encode(q, b)
		require.Equal(t, a[:17*64], b[:17*64], "%s vs %s", p.FEN(), q.FEN())
		n++
	}
	assert.Equal(t, 126, n)
}

func TestEncodePlanes(t *testing.T) {
	p := mustFEN(t, "r3k2r/8/8/3pP3/8/8/8/R3K2R w Kq d6 0 30")
	in := make([]float32, InputSize)
	Encode(p, in)
	plane := func(i int) []float32 { return in[i*64 : i*64+64] }
	assert.Equal(t, float32(1), plane(0)[sq("e5")], "own pawn")
	assert.Equal(t, float32(1), plane(6)[sq("d5")], "their pawn")
	assert.Equal(t, float32(1), plane(5)[sq("e1")], "own king")
	assert.Equal(t, float32(1), plane(11)[sq("e8")], "their king")
	assert.Equal(t, float32(1), plane(12)[0], "own king side right")
	assert.Equal(t, float32(0), plane(13)[0], "no own queen side right")
	assert.Equal(t, float32(0), plane(14)[7], "no their king side right")
	assert.Equal(t, float32(1), plane(15)[63], "their queen side right")
	assert.Equal(t, float32(1), plane(16)[sq("d6")], "e.p. target")
	assert.InDelta(t, 0.0, plane(17)[5], 1e-6)
	assert.InDelta(t, 30.0/200, plane(18)[9], 1e-6)

	// The same from Black's side: Black's pieces are "own" and flipped.
	p = mustFEN(t, "4k3/8/8/8/8/8/4P3/4K3 b - - 57 300")
	Encode(p, in)
	assert.Equal(t, float32(1), plane(5)[sq("e1")], "black king seen on e1")
	assert.Equal(t, float32(1), plane(6)[sq("e7")], "white pawn seen on e7")
	assert.InDelta(t, 0.57, plane(17)[0], 1e-6)
	assert.InDelta(t, 1.0, plane(18)[0], 1e-6, "capped")
}
