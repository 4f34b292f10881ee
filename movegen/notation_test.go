package movegen_test

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twofold-chess/twofold/board"
	"github.com/twofold-chess/twofold/movegen"
)

const (
	castlingFEN  = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
	promotionFEN = "8/4P3/8/8/8/8/k7/4K3 w - - 0 1"
)

func TestParseUCI(t *testing.T) {
	tests := []struct {
		name     string
		fen      string
		chess960 bool // SetChess960 before parsing
		in       string
		want     board.Move
	}{
		{"pawn double push", board.StartFEN, false, "e2e4", board.NewMove(sq("e2"), sq("e4"))},
		{"knight", board.StartFEN, false, "g1f3", board.NewMove(board.G1, sq("f3"))},
		{"capture", kiwipete, false, "e5f7", board.NewMove(sq("e5"), sq("f7"))},
		{"en passant", "4k3/8/8/3Pp3/8/8/8/4K3 w - e6 0 2", false, "d5e6", board.NewEnPassant(sq("d5"), sq("e6"))},
		{"O-O king to g1", castlingFEN, false, "e1g1", board.NewCastling(board.E1, board.H1)},
		{"O-O king takes rook", castlingFEN, false, "e1h1", board.NewCastling(board.E1, board.H1)},
		{"O-O-O king to c1", castlingFEN, false, "e1c1", board.NewCastling(board.E1, board.A1)},
		{"O-O-O king takes rook", castlingFEN, false, "e1a1", board.NewCastling(board.E1, board.A1)},
		{"black O-O", "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", false, "e8g8", board.NewCastling(board.E8, board.H8)},
		{"black O-O-O takes rook", "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", false, "e8a8", board.NewCastling(board.E8, board.A8)},
		{"Chess960 mode on a standard setup, king takes rook", castlingFEN, true, "e1h1", board.NewCastling(board.E1, board.H1)},
		{"Chess960 mode on a standard setup, king to g1", castlingFEN, true, "e1g1", board.NewCastling(board.E1, board.H1)},
		{"Chess960 king takes rook", "4k3/8/8/8/8/8/8/1KR5 w C - 0 1", false, "b1c1", board.NewCastling(board.B1, board.C1)},
		{"Chess960 king to destination", "4k3/8/8/8/8/8/8/1KR5 w C - 0 1", false, "b1g1", board.NewCastling(board.B1, board.C1)},
		{"Chess960 normal king move wins over castling to the same square",
			"4k3/8/8/8/8/8/8/RK6 w A - 0 1", false, "b1c1", board.NewMove(board.B1, board.C1)},
		{"Chess960 castling as king takes rook", "4k3/8/8/8/8/8/8/RK6 w A - 0 1", false, "b1a1", board.NewCastling(board.B1, board.A1)},
		{"Chess960 king on g1", "4k3/8/8/8/8/8/8/6KR w H - 0 1", false, "g1h1", board.NewCastling(board.G1, board.H1)},
		{"promotion q", promotionFEN, false, "e7e8q", board.NewPromotion(sq("e7"), board.E8, board.Queen)},
		{"promotion r", promotionFEN, false, "e7e8r", board.NewPromotion(sq("e7"), board.E8, board.Rook)},
		{"promotion b", promotionFEN, false, "e7e8b", board.NewPromotion(sq("e7"), board.E8, board.Bishop)},
		{"promotion n", promotionFEN, false, "e7e8n", board.NewPromotion(sq("e7"), board.E8, board.Knight)},
		{"black capture-promotion", "4k3/8/8/8/8/8/6p1/4K2R b K - 0 1", false, "g2h1n", board.NewPromotion(sq("g2"), board.H1, board.Knight)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := mustFEN(t, tt.fen)
			if tt.chess960 {
				p.SetChess960(true)
			}
			m, err := movegen.ParseUCI(p, tt.in)
			require.NoError(t, err)
			assert.Equal(t, tt.want, m, "got %s", m.UCI(true))
		})
	}
}

func TestUCIOutputRoundTrip(t *testing.T) {
	// Every legal move prints in the position's notation and parses back.
	lines := append(readEPD(t, "../testdata/perft126.epd"), readEPD(t, "../testdata/frc_perft.epd")...)
	for _, l := range lines {
		p := mustFEN(t, l.fen)
		for _, m := range legalMoves(p) {
			s := m.UCI(p.Chess960())
			got, err := movegen.ParseUCI(p, s)
			if assert.NoError(t, err, "%s in %s", s, l.fen) {
				assert.Equal(t, m, got, "%s in %s", s, l.fen)
			}
		}
	}
	p := mustFEN(t, castlingFEN)
	assert.Equal(t, "e1g1", board.NewCastling(board.E1, board.H1).UCI(p.Chess960()))
	p.SetChess960(true)
	assert.Equal(t, "e1h1", board.NewCastling(board.E1, board.H1).UCI(p.Chess960()))
}

func TestParseUCIRejects(t *testing.T) {
	tests := []struct {
		name    string
		fen     string
		in      string
		illegal bool // well-formed but illegal: wraps ErrIllegalMove
	}{
		{"empty", board.StartFEN, "", false},
		{"one square", board.StartFEN, "e2", false},
		{"off the board", board.StartFEN, "e2e9", false},
		{"file i", board.StartFEN, "i2i4", false},
		{"bad promotion letter", promotionFEN, "e7e8x", false},
		{"promotion to king", promotionFEN, "e7e8k", false},
		{"upper-case promotion", promotionFEN, "e7e8Q", false},
		{"upper case squares", board.StartFEN, "E2E4", false},
		{"dash", board.StartFEN, "e2-e4", false},
		{"too long", board.StartFEN, "e2e4qq", false},
		{"SAN", board.StartFEN, "Nf3", false},
		{"null move", board.StartFEN, "0000", false},

		{"pawn three squares", board.StartFEN, "e2e5", true},
		{"onto own piece", board.StartFEN, "d1d2", true},
		{"empty from square", board.StartFEN, "e4e5", true},
		{"opponent's piece", board.StartFEN, "e7e5", true},
		{"same square", board.StartFEN, "a1a1", true},
		{"promotion without piece", promotionFEN, "e7e8", true},
		{"promotion letter on a normal move", board.StartFEN, "e2e4q", true},
		{"castling through check", "4k3/8/8/8/8/8/5r2/R3K2R w KQ - 0 1", "e1g1", true},
		{"castling through check, king takes rook", "4k3/8/8/8/8/8/5r2/R3K2R w KQ - 0 1", "e1h1", true},
		{"castling without the right", "r3k2r/8/8/8/8/8/8/R3K2R w Qkq - 0 1", "e1g1", true},
		{"pinned piece", "4k3/8/8/8/8/8/4N3/r3K2r w - - 0 1", "e2c3", true},
		{"e.p. exposing the king", "8/8/8/KPp4r/8/8/8/7k w - c6 0 2", "b5c6", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := mustFEN(t, tt.fen)
			m, err := movegen.ParseUCI(p, tt.in)
			require.Error(t, err)
			assert.Equal(t, board.NoMove, m)
			assert.Equal(t, tt.illegal, errors.Is(err, movegen.ErrIllegalMove), err.Error())
		})
	}
}

func TestSAN(t *testing.T) {
	const (
		knights    = "4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1"
		rooks      = "4k3/8/8/R7/8/8/8/R3K3 w - - 0 1"
		queens     = "6k1/8/8/8/8/Q7/8/Q1Q4K w - - 0 1"
		promoCheck = "1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1"
		blackPromo = "4k3/8/8/8/8/8/1p6/R3K3 b - - 0 1"
	)
	tests := []struct {
		name string
		fen  string
		uci  string
		san  string
	}{
		{"pawn push", board.StartFEN, "e2e4", "e4"},
		{"knight", board.StartFEN, "g1f3", "Nf3"},
		{"pawn capture", "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2", "e4d5", "exd5"},
		{"en passant", "4k3/8/8/3Pp3/8/8/8/4K3 w - e6 0 2", "d5e6", "dxe6"},
		{"promotion", promotionFEN, "e7e8q", "e8=Q"},
		{"under-promotion to knight", promotionFEN, "e7e8n", "e8=N"},
		{"under-promotion to rook", promotionFEN, "e7e8r", "e8=R"},
		{"capture-promotion with check", promoCheck, "a7b8q", "axb8=Q+"},
		{"capture under-promotion without check", promoCheck, "a7b8n", "axb8=N"},
		{"promotion blocked from checking", promoCheck, "a7a8q", "a8=Q"},
		{"black promotion with check", blackPromo, "b2b1q", "b1=Q+"},
		{"black capture-promotion with check", blackPromo, "b2a1q", "bxa1=Q+"},
		{"black under-promotion", blackPromo, "b2b1n", "b1=N"},
		{"piece capture with check", "4k3/5p2/8/8/2B5/8/8/4K3 w - - 0 1", "c4f7", "Bxf7+"},
		{"check", "4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "a1a8", "Ra8+"},
		{"mate", "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2", "d8h4", "Qh4#"},
		{"back-rank mate", "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "a1a8", "Ra8#"},
		{"O-O", castlingFEN, "e1g1", "O-O"},
		{"O-O-O", castlingFEN, "e1c1", "O-O-O"},
		{"black O-O-O", "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", "e8c8", "O-O-O"},
		{"O-O with check", "5k2/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1", "O-O+"},
		{"Chess960 O-O", "4k3/8/8/8/8/8/8/1KR5 w C - 0 1", "b1c1", "O-O"},
		{"Chess960 O-O-O", "4k3/8/8/8/8/8/8/RK6 w A - 0 1", "b1a1", "O-O-O"},
		{"king move", board.StartFEN[:len(board.StartFEN)-len("RNBQKBNR w KQkq - 0 1")] + "RNBQK2R w KQkq - 0 1", "e1f1", "Kf1"},
		{"file disambiguation b", knights, "b1d2", "Nbd2"},
		{"file disambiguation f", knights, "f3d2", "Nfd2"},
		{"no disambiguation when only one reaches", knights, "f3d4", "Nd4"},
		{"pinned knight does not need disambiguation", "4k3/8/8/8/8/5N2/8/rN2K3 w - - 0 1", "f3d2", "Nd2"},
		{"rank disambiguation 1", rooks, "a1a3", "R1a3"},
		{"rank disambiguation 5", rooks, "a5a3", "R5a3"},
		{"no disambiguation along the rank", rooks, "a5h5", "Rh5"},
		{"full square with three queens", queens, "a1b2", "Qa1b2"},
		{"rank with three queens", queens, "a3b2", "Q3b2"},
		{"file with three queens", queens, "c1b2", "Qcb2"},
		{"capture with disambiguation", "4k3/8/8/8/8/3p1N2/8/1N2K3 w - - 0 1", "b1d2", "Nbd2"},
		{"rank disambiguated capture", "4k3/8/8/R7/8/p7/8/R3K3 w - - 0 1", "a1a3", "R1xa3"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := mustFEN(t, tt.fen)
			m, err := movegen.ParseUCI(p, tt.uci)
			require.NoError(t, err)
			fen := p.FEN()
			assert.Equal(t, tt.san, movegen.SAN(p, m))
			assert.Equal(t, fen, p.FEN(), "SAN must leave the position unchanged")
			back, err := movegen.ParseSAN(p, tt.san)
			require.NoError(t, err)
			assert.Equal(t, m, back)
		})
	}
}

// TestSANRoundTrip formats every legal move of every suite position (and of
// every position one move later) and parses it back.
func TestSANRoundTrip(t *testing.T) {
	lines := readEPD(t, "../testdata/perft126.epd")
	if !testing.Short() {
		lines = append(lines, readEPD(t, "../testdata/frc_perft.epd")...)
	}
	n := 0
	check := func(p *board.Position) {
		seen := map[string]board.Move{}
		for _, m := range legalMoves(p) {
			san := movegen.SAN(p, m)
			if other, dup := seen[san]; dup {
				t.Errorf("%s and %s both format as %q in %s", other, m, san, p.FEN())
			}
			seen[san] = m
			got, err := movegen.ParseSAN(p, san)
			if assert.NoError(t, err, "%q in %s", san, p.FEN()) {
				assert.Equal(t, m, got, "%q in %s", san, p.FEN())
			}
			n++
		}
	}
	for _, l := range lines {
		p := mustFEN(t, l.fen)
		check(p)
		if testing.Short() {
			continue
		}
		for _, m := range legalMoves(p) {
			p.Make(m)
			check(p)
			p.Unmake()
		}
	}
	assert.Greater(t, n, 1000)
}

func TestParseSANLenient(t *testing.T) {
	tests := []struct {
		name string
		fen  string
		in   string
		want string // UCI
	}{
		{"zeros for O-O", castlingFEN, "0-0", "e1g1"},
		{"zeros for O-O-O", castlingFEN, "0-0-0", "e1c1"},
		{"castling with check sign", "5k2/8/8/8/8/8/8/4K2R w K - 0 1", "O-O+", "e1g1"},
		{"promotion without =", promotionFEN, "e8Q", "e7e8q"},
		{"under-promotion without =", promotionFEN, "e8N", "e7e8n"},
		{"over-disambiguated", board.StartFEN, "Ng1f3", "g1f3"},
		{"with check and annotation", board.StartFEN, "Nf3+!", "g1f3"},
		{"annotations", board.StartFEN, "e4!?", "e2e4"},
		{"mate sign", "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2", "Qh4#", "d8h4"},
		{"missing x", "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2", "ed5", "e4d5"},
		{"extra x", board.StartFEN, "Nxf3", "g1f3"},
		{"surrounding spaces", board.StartFEN, " e4 ", "e2e4"},
		{"e.p. written as capture", "4k3/8/8/3Pp3/8/8/8/4K3 w - e6 0 2", "dxe6", "d5e6"},
		{"file hint on a unique move", board.StartFEN, "Ngf3", "g1f3"},
		{"rank hint on a unique move", board.StartFEN, "N1f3", "g1f3"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := mustFEN(t, tt.fen)
			m, err := movegen.ParseSAN(p, tt.in)
			require.NoError(t, err)
			assert.Equal(t, tt.want, m.UCI(false))
		})
	}
}

func TestParseSANRejects(t *testing.T) {
	const knights = "4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1"
	tests := []struct {
		name    string
		fen     string
		in      string
		illegal bool // wraps ErrIllegalMove
	}{
		{"ambiguous knight", knights, "Nd2", false},
		{"ambiguous knight with wrong hint", knights, "Nad2", true},
		{"ambiguous rook", "4k3/8/8/R7/8/8/8/R3K3 w - - 0 1", "Ra3", false},
		{"ambiguous queen with file hint only", "6k1/8/8/8/8/Q7/8/Q1Q4K w - - 0 1", "Qab2", false},
		{"ambiguous pawn captures", "4k3/8/8/3p4/2P1P3/8/8/4K3 w - - 0 1", "d5", false},
		{"illegal knight move", board.StartFEN, "Nf4", true},
		{"illegal pawn move", board.StartFEN, "e5", true},
		{"no piece there", board.StartFEN, "Qh5", true},
		{"castling not allowed", board.StartFEN, "O-O", true},
		{"long castling not allowed", board.StartFEN, "O-O-O", true},
		{"promotion piece missing", promotionFEN, "e8", true},
		{"promotion on a normal move", board.StartFEN, "e4=Q", true},
		{"pinned piece", "4k3/8/8/8/8/8/4N3/r3K2r w - - 0 1", "Nc3", true},
		{"empty", board.StartFEN, "", false},
		{"garbage", board.StartFEN, "hello", false},
		{"bad square", board.StartFEN, "Nf9", false},
		{"promotion of a piece", promotionFEN, "Ke2=Q", false},
		{"promotion to king", promotionFEN, "e8=K", false},
		{"too many hints", board.StartFEN, "Ng1g1f3", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := mustFEN(t, tt.fen)
			m, err := movegen.ParseSAN(p, tt.in)
			require.Error(t, err, "got %s", m)
			assert.Equal(t, board.NoMove, m)
			assert.Equal(t, tt.illegal, errors.Is(err, movegen.ErrIllegalMove), err.Error())
		})
	}
}
