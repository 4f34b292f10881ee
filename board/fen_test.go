package board_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twofold-chess/twofold/board"
)

func TestFENRoundTrip(t *testing.T) {
	tests := []struct {
		name string
		fen  string
	}{
		{"startpos", board.StartFEN},
		{"kiwipete", kiwipete},
		{"black to move, e.p. capture possible", "rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 3"},
		{"white to move, e.p. capture possible", "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3"},
		{"e.p. on the a-file", "4k3/8/8/pP6/8/8/8/4K3 w - a6 0 40"},
		{"e.p. on the h-file, black", "4k3/8/8/8/6pP/8/8/4K3 b - h3 0 40"},
		{"black to move after 1.e4", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"},
		{"clocks", "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4"},
		{"large clocks", "8/8/8/8/8/8/8/K6k b - - 1234 5678"},
		{"partial castling", "r3k2r/8/8/8/8/8/8/R3K2R w Kq - 10 40"},
		{"only black castling", "r3k2r/8/8/8/8/8/8/R3K2R b kq - 3 17"},
		{"no castling", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"},
		{"cpw position 5", "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8"},
		{"cpw position 6", "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10"},
		{"promotion-ready", "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := mustFEN(t, tt.fen)
			assert.Equal(t, tt.fen, p.FEN())
			assert.False(t, p.Chess960(), "orthodox castling must not be marked Chess960")
		})
	}
}

func TestFENAccessors(t *testing.T) {
	p := mustFEN(t, "rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 7 3")
	assert.Equal(t, board.Black, p.Side())
	assert.Equal(t, board.Square(20), p.EnPassant()) // e3
	assert.Equal(t, 7, p.HalfmoveClock())
	assert.Equal(t, 3, p.FullmoveNumber())
	assert.Equal(t, board.AllCastling, p.Castling())
	assert.Equal(t, board.H1, p.CastlingRook(board.WhiteKingside))
	assert.Equal(t, board.A1, p.CastlingRook(board.WhiteQueenside))
	assert.Equal(t, board.H8, p.CastlingRook(board.BlackKingside))
	assert.Equal(t, board.A8, p.CastlingRook(board.BlackQueenside))
	assert.Equal(t, board.E1, p.KingSquare(board.White))
	assert.Equal(t, board.E8, p.KingSquare(board.Black))
	assert.Equal(t, board.MakePiece(board.Black, board.Pawn), p.PieceAt(27)) // d4
	assert.Equal(t, board.NoPiece, p.PieceAt(12))                            // e2
	assert.Equal(t, 16, p.Occupancy(board.White).Count())
	assert.Equal(t, 32, p.Occupied().Count())
	assert.Equal(t, 16, p.PiecesOfType(board.Pawn).Count())
	assert.Equal(t, 0, p.Ply())
	assert.Equal(t, board.NoMove, p.LastMove())
}

// TestFENNormalisation covers inputs that are accepted but written back
// differently: FEN output is canonical.
func TestFENNormalisation(t *testing.T) {
	tests := []struct {
		name, in, out string
	}{
		{"e.p. square without a possible capture is dropped",
			"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
			"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"},
		{"EPD without clocks", "4k3/8/8/8/8/8/8/4K2R w K -", "4k3/8/8/8/8/8/8/4K2R w K - 0 1"},
		{"extra whitespace", "  4k3/8/8/8/8/8/8/4K2R   w  K  -  3   9 ", "4k3/8/8/8/8/8/8/4K2R w K - 3 9"},
		{"Shredder-FEN on an orthodox setup", "r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"},
		{"castling letters in any order", "r3k2r/8/8/8/8/8/8/R3K2R w qkQK - 0 1", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := mustFEN(t, tt.in)
			assert.Equal(t, tt.out, p.FEN())
			assert.Equal(t, mustFEN(t, tt.out).Key(), p.Key())
		})
	}
}

func TestFENChess960RoundTrip(t *testing.T) {
	for _, fen := range epdFENs(t, "../testdata/frc_perft.epd") {
		p := mustFEN(t, fen)
		out := p.FEN()
		q := mustFEN(t, out)
		assert.Equal(t, p.Key(), q.Key(), fen)
		assert.Equal(t, out, q.FEN(), fen)
		assert.Equal(t, p.Castling(), q.Castling(), fen)
		for _, cr := range []board.CastlingRights{board.WhiteKingside, board.WhiteQueenside, board.BlackKingside, board.BlackQueenside} {
			assert.Equal(t, p.CastlingRook(cr), q.CastlingRook(cr), fen)
		}
		// The suite's castling fields are Shredder-FEN in canonical order,
		// so the output is the input itself, except that a setup whose
		// rights are all orthodox (king on e, rooks on a and h) is written
		// as KQkq.
		want := fen
		if !p.Chess960() {
			in := strings.Fields(fen)
			for _, ch := range in[2] {
				assert.Contains(t, "-AHah", string(ch), "orthodox rights expected in %s", fen)
			}
			in[2] = strings.NewReplacer("H", "K", "A", "Q", "h", "k", "a", "q").Replace(in[2])
			want = strings.Join(in, " ")
		}
		assert.Equal(t, want, out)
	}
}

func TestXFEN(t *testing.T) {
	tests := []struct {
		name     string
		fen      string
		rooks    map[board.CastlingRights]board.Square
		castling string // the castling field FEN writes
		chess960 bool
	}{
		{
			"KQkq picks the outermost rooks",
			"1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w KQkq - 0 1",
			map[board.CastlingRights]board.Square{
				board.WhiteKingside: board.G1, board.WhiteQueenside: board.B1,
				board.BlackKingside: board.G8, board.BlackQueenside: board.B8,
			},
			"GBgb", true,
		},
		{
			"K with two rooks on the king side picks the outer one",
			"4k3/8/8/8/8/8/8/3K1R1R w K - 0 1",
			map[board.CastlingRights]board.Square{board.WhiteKingside: board.H1},
			"H", true,
		},
		{
			"a file letter picks the inner rook",
			"4k3/8/8/8/8/8/8/3K1R1R w F - 0 1",
			map[board.CastlingRights]board.Square{board.WhiteKingside: board.F1},
			"F", true,
		},
		{
			"Q with two rooks on the queen side picks the outer one (an orthodox right)",
			"r1r1k3/8/8/8/8/8/8/R1R1K3 w Qq - 0 1",
			map[board.CastlingRights]board.Square{board.WhiteQueenside: board.A1, board.BlackQueenside: board.A8},
			"Qq", false,
		},
		{
			"file letters pick inner rooks on the queen side",
			"r1r1k3/8/8/8/8/8/8/R1R1K3 w Cc - 0 1",
			map[board.CastlingRights]board.Square{board.WhiteQueenside: board.C1, board.BlackQueenside: board.C8},
			"Cc", true,
		},
		{
			"mixed X-FEN",
			"rr2k2r/8/8/8/8/8/8/RR2K1RR w KBkq - 0 1",
			map[board.CastlingRights]board.Square{
				board.WhiteKingside: board.H1, board.WhiteQueenside: board.B1,
				board.BlackKingside: board.H8, board.BlackQueenside: board.A8,
			},
			"HBha", true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := mustFEN(t, tt.fen)
			assert.Equal(t, tt.chess960, p.Chess960())
			var want board.CastlingRights
			for cr, sq := range tt.rooks {
				want |= cr
				assert.Equal(t, sq, p.CastlingRook(cr), "rook of right %d", cr)
			}
			assert.Equal(t, want, p.Castling())
			assert.Equal(t, tt.castling, strings.Fields(p.FEN())[2])
			q := mustFEN(t, p.FEN())
			assert.Equal(t, p.Key(), q.Key())
			for cr, sq := range tt.rooks {
				assert.Equal(t, sq, q.CastlingRook(cr))
			}
		})
	}
}

func TestSetChess960(t *testing.T) {
	p := board.StartPosition()
	assert.False(t, p.Chess960())
	p.SetChess960(true)
	assert.True(t, p.Chess960())
	assert.Equal(t, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1", p.FEN())
	p.SetChess960(false)
	assert.Equal(t, board.StartFEN, p.FEN())

	// A setup that is not orthodox stays Chess960.
	q := mustFEN(t, "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w KQkq - 0 1")
	q.SetChess960(false)
	assert.True(t, q.Chess960())
}

func TestParseFENRejects(t *testing.T) {
	const k = "4k3/8/8/8/8/8/8/4K3"
	tests := []struct {
		name  string
		fen   string
		field string
	}{
		{"empty", "", "fields"},
		{"1 field", k, "fields"},
		{"2 fields", k + " w", "fields"},
		{"3 fields", k + " w -", "fields"},
		{"5 fields", k + " w - - 0", "fields"},
		{"7 fields", k + " w - - 0 1 x", "fields"},

		{"7 ranks", "4k3/8/8/8/8/8/4K3 w - - 0 1", "placement"},
		{"9 ranks", "4k3/8/8/8/8/8/8/8/4K3 w - - 0 1", "placement"},
		{"rank of 7 empty squares", "4k3/8/8/8/7/8/8/4K3 w - - 0 1", "placement"},
		{"rank of 7 squares with pieces", "4k3/8/8/8/8/8/8/4K2 w - - 0 1", "placement"},
		{"rank of 9 squares", "4k3/8/8/8/8/8/8/4K4 w - - 0 1", "placement"},
		{"rank of 9 pieces", "4k3/8/8/8/8/8/8/RNBQKBNRR w - - 0 1", "placement"},
		{"digits then piece past the edge", "4k3/8/8/8/8/8/8/8K w - - 0 1", "placement"},
		{"bad piece letter", "4k3/8/8/8/8/8/8/4K2X w - - 0 1", "placement"},
		{"digit 9", "4k3/9/8/8/8/8/8/4K3 w - - 0 1", "placement"},
		{"digit 0", "4k3/08/8/8/8/8/8/4K3 w - - 0 1", "placement"},
		{"two digits in a row", "4k3/44/8/8/8/8/8/4K3 w - - 0 1", "placement"},
		{"two digits in a row around a piece", "4k3/8/8/8/8/8/8/1K33 w - - 0 1", "placement"},
		{"no white king", "4k3/8/8/8/8/8/8/8 w - - 0 1", "placement"},
		{"no black king", "8/8/8/8/8/8/8/4K3 w - - 0 1", "placement"},
		{"two white kings", "4k3/8/8/8/8/8/8/K3K3 w - - 0 1", "placement"},
		{"two black kings", "k3k3/8/8/8/8/8/8/4K3 w - - 0 1", "placement"},
		{"white pawn on rank 1", "4k3/8/8/8/8/8/8/P3K3 w - - 0 1", "placement"},
		{"black pawn on rank 1", "4k3/8/8/8/8/8/8/p3K3 w - - 0 1", "placement"},
		{"white pawn on rank 8", "P3k3/8/8/8/8/8/8/4K3 w - - 0 1", "placement"},
		{"black pawn on rank 8", "p3k3/8/8/8/8/8/8/4K3 w - - 0 1", "placement"},
		{"nine white pawns", "4k3/8/8/8/8/P7/PPPPPPPP/4K3 w - - 0 1", "placement"},
		{"nine black pawns", "4k3/pppppppp/p7/8/8/8/8/4K3 w - - 0 1", "placement"},
		{"seventeen white pieces", "4k3/8/8/8/NNNNNNNN/NNNNNNNN/N7/4K3 w - - 0 1", "placement"},

		{"side x", k + " x - - 0 1", "side"},
		{"side W", k + " W - - 0 1", "side"},
		{"side white", k + " white - - 0 1", "side"},

		{"K without h-side rook", "4k3/8/8/8/8/8/8/R3K3 w K - 0 1", "castling"},
		{"Q without a-side rook", "4k3/8/8/8/8/8/8/4K2R w Q - 0 1", "castling"},
		{"k without black rook", "4k3/8/8/8/8/8/8/4K2R w Kk - 0 1", "castling"},
		{"rook of the other colour", "4k2R/8/8/8/8/8/8/4K3 w k - 0 1", "castling"},
		{"file letter without rook", "4k3/8/8/8/8/8/8/R3K2R w G - 0 1", "castling"},
		{"file letter of the king", "4k3/8/8/8/8/8/8/R3K2R w E - 0 1", "castling"},
		{"white king off its back rank", "4k3/8/8/8/8/8/4K3/R6R w K - 0 1", "castling"},
		{"white king off its back rank, Q", "4k3/8/8/8/8/8/4K3/R6R w Q - 0 1", "castling"},
		{"black king off its back rank", "r6r/4k3/8/8/8/8/8/4K3 w k - 0 1", "castling"},
		{"duplicated right", "4k3/8/8/8/8/8/8/R3K2R w KK - 0 1", "castling"},
		{"duplicated right, X-FEN and Shredder", "4k3/8/8/8/8/8/8/R3K2R w KH - 0 1", "castling"},
		{"duplicated right, two rooks one side", "4k3/8/8/8/8/8/8/3K1R1R w FH - 0 1", "castling"},
		{"five rights", "r3k2r/8/8/8/8/8/8/R3K2R w KQkqK - 0 1", "castling"},
		{"bad character X", "4k3/8/8/8/8/8/8/R3K2R w X - 0 1", "castling"},
		{"bad character digit", "4k3/8/8/8/8/8/8/R3K2R w K1 - 0 1", "castling"},
		{"bad character dash", "4k3/8/8/8/8/8/8/R3K2R w K- - 0 1", "castling"},

		{"e.p. not a square", "4k3/8/8/3Pp3/8/8/8/4K3 w - e9 0 1", "en passant"},
		{"e.p. garbage", "4k3/8/8/3Pp3/8/8/8/4K3 w - x 0 1", "en passant"},
		{"e.p. on rank 3 with white to move", "4k3/8/8/8/3pP3/8/8/4K3 w - e3 0 1", "en passant"},
		{"e.p. on rank 6 with black to move", "4k3/8/8/3Pp3/8/8/8/4K3 b - e6 0 1", "en passant"},
		{"e.p. on rank 5", "4k3/8/8/3Pp3/8/8/8/4K3 w - e5 0 1", "en passant"},
		{"e.p. without the pushed pawn", "4k3/8/8/3P4/8/8/8/4K3 w - e6 0 1", "en passant"},
		{"e.p. with a pawn of the wrong colour", "4k3/8/8/3PP3/8/8/8/4K3 w - e6 0 1", "en passant"},
		{"e.p. with a knight instead of the pawn", "4k3/8/8/3Pn3/8/8/8/4K3 w - e6 0 1", "en passant"},
		{"e.p. target square occupied", "4k3/8/4n3/3Pp3/8/8/8/4K3 w - e6 0 1", "en passant"},
		{"e.p. origin square occupied", "4k3/4n3/8/3Pp3/8/8/8/4K3 w - e6 0 1", "en passant"},
		{"e.p. for black without the pushed pawn", "4k3/8/8/8/3p4/8/8/4K3 b - e3 0 1", "en passant"},
		{"e.p. for black, origin occupied", "4k3/8/8/8/3pP3/8/4N3/4K3 b - e3 0 1", "en passant"},

		{"halfmove -1", k + " w - - -1 1", "halfmove clock"},
		{"halfmove x", k + " w - - x 1", "halfmove clock"},
		{"halfmove +3", k + " w - - +3 1", "halfmove clock"},
		{"halfmove 1.5", k + " w - - 1.5 1", "halfmove clock"},
		{"fullmove 0", k + " w - - 0 0", "fullmove number"},
		{"fullmove x", k + " w - - 0 x", "fullmove number"},
		{"fullmove -2", k + " w - - 0 -2", "fullmove number"},
		{"fullmove +1", k + " w - - 0 +1", "fullmove number"},
		{"fullmove overflow", k + " w - - 0 99999999999999999999", "fullmove number"},
		{"fullmove near int64 max", k + " w - - 0 9223372036854775807", "fullmove number"},
		{"fullmove over the bound", k + " w - - 0 1000000001", "fullmove number"},
		{"halfmove near int64 max", k + " w - - 9223372036854775807 1", "halfmove clock"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := board.ParseFEN(tt.fen)
			require.Error(t, err)
			assert.Nil(t, p)
			var fe *board.FENError
			require.True(t, errors.As(err, &fe), "want a *board.FENError, got %T", err)
			assert.Equal(t, tt.field, fe.Field, fe.Error())
			assert.Equal(t, tt.fen, fe.FEN)
			assert.NotEmpty(t, fe.Reason)
			assert.Contains(t, err.Error(), tt.field)
		})
	}
}

// TestParseFENAcceptsEdgeCases guards against rejecting valid input while
// tightening the checks above.
func TestParseFENAcceptsEdgeCases(t *testing.T) {
	for _, fen := range []string{
		"4k3/8/8/8/8/8/8/4K3 w - - 0 1",
		"4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - 0 1",           // eight pawns each
		"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1", // sixteen pieces each
		"4k3/8/8/3Pp3/8/8/8/4K3 w - e6 0 1",                     // e.p. is validated but kept
		"4k3/8/8/8/8/8/8/4K3 w - - 0 1\n",
	} {
		_, err := board.ParseFEN(fen)
		assert.NoError(t, err, fen)
	}
}

func FuzzParseFEN(f *testing.F) {
	for _, seed := range []string{
		board.StartFEN,
		kiwipete,
		"rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
		"1rbnqbkr/ppppp1p1/1n3p2/7p/1P1P4/1R6/P1P1PPPP/N1BNQBKR w Hhb - 1 4",
		"1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w KQkq - 0 1",
		"8/8/8/8/8/8/8/K6k b - -",
		"4k3/44/8/8/8/8/8/4K3 w - - 0 1",
		"4k3/8/8/8/8/8/8/R3K2R w KK e9 +1 0",
		"",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, fen string) {
		p, err := board.ParseFEN(fen)
		if err != nil {
			var fe *board.FENError
			if !errors.As(err, &fe) {
				t.Fatalf("error is %T, not *board.FENError: %v", err, err)
			}
			if p != nil {
				t.Fatalf("ParseFEN(%q) returned a position with an error", fen)
			}
			return
		}
		out := p.FEN()
		q, err := board.ParseFEN(out)
		if err != nil {
			t.Fatalf("ParseFEN(%q) accepted, but its FEN %q is rejected: %v", fen, out, err)
		}
		if q.Key() != p.Key() {
			t.Fatalf("ParseFEN(%q): key %x, but its FEN %q parses to key %x", fen, p.Key(), out, q.Key())
		}
		if q.FEN() != out {
			t.Fatalf("FEN not canonical: %q -> %q -> %q", fen, out, q.FEN())
		}
	})
}

// The clocks sit at the bound after any number of moves, and what FEN writes
// then still parses (a fullmove of 9223372036854775807 used to wrap negative
// after one Black move and the FEN printed by "d" was rejected).
func TestFENCountersStayBounded(t *testing.T) {
	const top = "1000000000"
	p, err := board.ParseFEN("4k3/8/8/8/8/8/8/4K2R b K - " + top + " " + top)
	require.NoError(t, err)
	for _, m := range []board.Move{board.NewMove(board.E8, board.D8), board.NewMove(board.E1, board.F1)} {
		p.Make(m)
		q, err := board.ParseFEN(p.FEN())
		require.NoError(t, err, p.FEN())
		assert.Equal(t, p.Key(), q.Key())
		assert.Positive(t, p.FullmoveNumber())
	}
	assert.True(t, strings.HasSuffix(p.FEN(), " "+top+" "+top), p.FEN())
}
