package book

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twofold-chess/twofold/board"
	"github.com/twofold-chess/twofold/movegen"
)

// play returns the position after the moves (UCI) from the start position.
func play(t testing.TB, moves string) *board.Position {
	t.Helper()
	p := board.StartPosition()
	for _, s := range strings.Fields(moves) {
		m, err := movegen.ParseUCI(p, s)
		require.NoError(t, err)
		p.Make(m)
	}
	return p
}

func fen(t testing.TB, f string) *board.Position {
	t.Helper()
	p, err := movegen.ParseFEN(f)
	require.NoError(t, err)
	return p
}

// The test keys published with the format specification ("Test data" in
// book_format.html), each reached both by playing the moves and from the FEN.
func TestKeySpecVectors(t *testing.T) {
	for _, tc := range []struct {
		moves, fen string
		key        uint64
	}{
		{"", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 0x463b96181691fc9c},
		{"e2e4", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", 0x823c9b50fd114196},
		{"e2e4 d7d5", "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2", 0x0756b94461c50fb0},
		{"e2e4 d7d5 e4e5", "rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2", 0x662fafb965db29d4},
		{"e2e4 d7d5 e4e5 f7f5", "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", 0x22a48b5a8e47ff78},
		{"e2e4 d7d5 e4e5 f7f5 e1e2", "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPPKPPP/RNBQ1BNR b kq - 0 3", 0x652a607ca3f242c1},
		{"e2e4 d7d5 e4e5 f7f5 e1e2 e8f7", "rnbq1bnr/ppp1pkpp/8/3pPp2/8/8/PPPPKPPP/RNBQ1BNR w - - 0 4", 0x00fdd303c946bdd9},
		{"a2a4 b7b5 h2h4 b5b4 c2c4", "rnbqkbnr/p1pppppp/8/8/PpP4P/8/1P1PPPP1/RNBQKBNR b KQkq c3 0 3", 0x3c8123ea7b067637},
		{"a2a4 b7b5 h2h4 b5b4 c2c4 b4c3 a1a3", "rnbqkbnr/p1pppppp/8/8/P6P/R1p5/1P1PPPP1/1NBQKBNR b Kkq - 0 4", 0x5c3f9b829b279560},
	} {
		t.Run(fmt.Sprintf("%q", tc.moves), func(t *testing.T) {
			assert.Equal(t, fmt.Sprintf("%016x", tc.key), fmt.Sprintf("%016x", Key(play(t, tc.moves))))
			assert.Equal(t, fmt.Sprintf("%016x", tc.key), fmt.Sprintf("%016x", Key(fen(t, tc.fen))))
		})
	}
}

// En passant is hashed only when a pawn of the side to move could take
// (the spec's keys above cover a target square without such a pawn), and
// whether that capture is legal does not matter.
func TestKeyEnPassantRule(t *testing.T) {
	withEP := fen(t, "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1")
	withoutEP := fen(t, "4k3/8/8/3pP3/8/8/8/4K3 w - - 0 1")
	assert.Equal(t, Key(withoutEP)^random64[enPassantOffset+3], Key(withEP))

	// The e5 pawn stands between the a1 king and the h8 bishop: exd6 would
	// expose the king, yet the key counts the en-passant file.
	pinned := fen(t, "4k2b/8/8/3pP3/8/8/8/K7 w - d6 0 1")
	unpinned := fen(t, "4k2b/8/8/3pP3/8/8/8/K7 w - - 0 1")
	var ml movegen.MoveList
	movegen.Legal(pinned, &ml)
	for _, m := range ml.Moves() {
		require.NotEqual(t, board.EnPassant, m.Kind(), "the test position must pin the capturing pawn")
	}
	assert.Equal(t, Key(unpinned)^random64[enPassantOffset+3], Key(pinned))
}
