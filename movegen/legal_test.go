package movegen_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twofold-chess/twofold/board"
	"github.com/twofold-chess/twofold/movegen"
)

// TestLegalCountsSuites checks the number of legal moves (perft depth 1) of
// every suite position, Chess960 included.
func TestLegalCountsSuites(t *testing.T) {
	for _, path := range []string{"../testdata/perft126.epd", "../testdata/cpw_perft6.epd", "../testdata/frc_perft.epd"} {
		for _, l := range readEPD(t, path) {
			if l.d1 < 0 {
				continue
			}
			p := mustFEN(t, l.fen)
			var ml movegen.MoveList
			movegen.Legal(p, &ml)
			assert.Equal(t, l.d1, ml.Len(), l.fen)
			// No duplicates, and Contains agrees with the list.
			seen := map[board.Move]bool{}
			for _, m := range ml.Moves() {
				assert.False(t, seen[m], "duplicate %s in %s", m, l.fen)
				seen[m] = true
				assert.True(t, ml.Contains(m))
			}
		}
	}
}

// TestLegalMovesLeaveNoCheck plays every generated move and checks that the
// mover's king is not attacked afterwards, and that the moved piece belongs
// to the side to move.
func TestLegalMovesLeaveNoCheck(t *testing.T) {
	for _, l := range readEPD(t, "../testdata/perft126.epd") {
		p := mustFEN(t, l.fen)
		us := p.Side()
		for _, m := range legalMoves(p) {
			pc := p.PieceAt(m.From())
			require.NotEqual(t, board.NoPiece, pc, "%s in %s", m, l.fen)
			assert.Equal(t, us, pc.Color(), "%s in %s", m, l.fen)
			p.Make(m)
			assert.False(t, movegen.Attacked(p, p.KingSquare(us), us.Other(), p.Occupied()), "%s leaves the king attacked in %s", m, l.fen)
			p.Unmake()
		}
	}
}

func TestLegalAndNoisyAllocateNothing(t *testing.T) {
	p := mustFEN(t, kiwipete)
	var ml movegen.MoveList
	assert.Zero(t, testing.AllocsPerRun(200, func() { movegen.Legal(p, &ml) }), "Legal")
	assert.Equal(t, 48, ml.Len())
	assert.Zero(t, testing.AllocsPerRun(200, func() { movegen.Noisy(p, &ml) }), "Noisy")
	assert.Equal(t, 8, ml.Len())
	assert.Zero(t, testing.AllocsPerRun(200, func() { _ = movegen.InCheck(p) }), "InCheck")
}

func isNoisy(p *board.Position, m board.Move) bool {
	switch m.Kind() {
	case board.Promotion, board.EnPassant:
		return true
	case board.Castling:
		return false
	}
	return p.PieceAt(m.To()) != board.NoPiece
}

// TestNoisyIsCapturesAndPromotions checks Noisy against a filter of Legal
// on every suite position and on every position one move later.
func TestNoisyIsCapturesAndPromotions(t *testing.T) {
	var kinds [4]int
	check := func(p *board.Position) {
		var want []board.Move
		for _, m := range legalMoves(p) {
			if isNoisy(p, m) {
				want = append(want, m)
				kinds[m.Kind()>>14]++
			}
		}
		var ml movegen.MoveList
		movegen.Noisy(p, &ml)
		if !assert.ElementsMatch(t, uciList(p, want), uciList(p, ml.Moves()), p.FEN()) {
			return
		}
		assert.Len(t, ml.Moves(), len(want), "duplicates in %s", p.FEN())
	}
	for _, l := range readEPD(t, "../testdata/perft126.epd") {
		p := mustFEN(t, l.fen)
		check(p)
		for _, m := range legalMoves(p) {
			p.Make(m)
			check(p)
			p.Unmake()
		}
	}
	assert.Positive(t, kinds[board.Normal>>14], "captures")
	assert.Positive(t, kinds[board.Promotion>>14], "promotions")
	assert.Positive(t, kinds[board.EnPassant>>14], "en passant")
}

func TestNoisyIncludesQuietUnderPromotions(t *testing.T) {
	p := mustFEN(t, "8/4P3/8/8/8/8/k7/4K3 w - - 0 1")
	assert.Equal(t, []string{"e7e8b", "e7e8n", "e7e8q", "e7e8r"}, noisyUCI(p))
	// In check, Noisy keeps only the noisy evasions.
	q := mustFEN(t, "4k3/8/8/8/8/8/3p4/r3K3 w - - 0 1")
	assert.Equal(t, []string{"e1d2"}, noisyUCI(q))
	assert.Equal(t, []string{"e1d2", "e1e2", "e1f2"}, legalUCI(q))
}

func TestEnPassantSpecialCases(t *testing.T) {
	tests := []struct {
		name    string
		fen     string
		ep      string   // the e.p. capture in UCI
		legal   bool     // whether it is legal
		exactly []string // when set, the full legal move list
	}{
		{"horizontal discovered check, both pawns leave the rank",
			"8/8/8/KPp4r/8/8/8/7k w - c6 0 2", "b5c6", false,
			[]string{"a5a4", "a5a6", "a5b6", "b5b6"}},
		{"horizontal discovered check, black",
			"8/8/8/8/k2Pp2R/8/8/7K b - d3 0 1", "e4d3", false,
			[]string{"a4a3", "a4a5", "a4b3", "a4b4", "a4b5", "e4e3"}},
		{"rank is still blocked by another piece",
			"8/8/8/KPp2n1r/8/8/8/7k w - c6 0 2", "b5c6", true, nil},
		{"capturing the checking pawn",
			"8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1", "e4d3", true,
			[]string{"c5b4", "c5b5", "c5b6", "c5c4", "c5c6", "c5d4", "c5d5", "c5d6", "e4d3"}},
		{"capturing the checking pawn, white",
			"4k3/8/8/3pP3/4K3/8/8/8 w - d6 0 2", "e5d6", true, nil},
		{"pinned pawn captures along the pin diagonal",
			"4k3/6b1/8/4Pp2/8/2K5/8/8 w - f6 0 2", "e5f6", true, nil},
		{"pinned pawn may not leave the pin diagonal",
			"4k3/6b1/8/3pP3/8/2K5/8/8 w - d6 0 2", "e5d6", false, nil},
		{"pawn pinned on a file may not capture",
			"4r1k1/8/8/3pP3/8/8/8/4K3 w - d6 0 2", "e5d6", false, nil},
		{"removing the captured pawn opens a diagonal",
			"4k3/5b2/8/3pP3/8/8/K7/8 w - d6 0 2", "e5d6", false, nil},
		{"capture does not resolve a discovered check",
			"1b2k3/8/8/2pPK3/8/8/8/8 w - c6 0 2", "d5c6", false,
			[]string{"d5d6", "e5e4", "e5e6", "e5f5", "e5f6"}},
		{"two pawns can capture",
			"4k3/8/8/2PpP3/8/8/8/4K3 w - d6 0 2", "c5d6", true, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := mustFEN(t, tt.fen)
			require.NotEqual(t, board.NoSquare, p.EnPassant(), "the FEN must keep its e.p. square")
			from, to := sq(tt.ep[:2]), sq(tt.ep[2:])
			ep := board.NewEnPassant(from, to)
			var ml movegen.MoveList
			movegen.Legal(p, &ml)
			assert.Equal(t, tt.legal, ml.Contains(ep), "legal moves: %v", legalUCI(p))
			movegen.Noisy(p, &ml)
			assert.Equal(t, tt.legal, ml.Contains(ep), "noisy moves: %v", noisyUCI(p))
			if tt.exactly != nil {
				assert.Equal(t, tt.exactly, legalUCI(p))
			}
			if tt.legal {
				m, err := movegen.ParseUCI(p, tt.ep)
				require.NoError(t, err)
				assert.Equal(t, ep, m)
				assert.Equal(t, board.EnPassant, m.Kind())
			}
		})
	}
	// Both pawns can take in the last case.
	p := mustFEN(t, "4k3/8/8/2PpP3/8/8/8/4K3 w - d6 0 2")
	var ml movegen.MoveList
	movegen.Legal(p, &ml)
	assert.True(t, ml.Contains(board.NewEnPassant(sq("e5"), sq("d6"))))
}

func TestCheckEvasions(t *testing.T) {
	tests := []struct {
		name  string
		fen   string
		moves []string
	}{
		{"double check: only the king moves, even though Qxd3 takes a checker",
			"4r2k/8/8/8/8/3n4/8/3QK3 w - - 0 1", []string{"e1d2", "e1f1"}},
		{"double check by bishop and knight, Rxb4 is not allowed",
			"4k3/8/8/8/1b6/5n2/8/1R2K3 w - - 0 1", []string{"e1d1", "e1e2", "e1f1", "e1f2"}},
		{"single slider check: block, or step aside",
			"4k3/4r3/8/8/8/8/2N5/B3K3 w - - 0 1", []string{"a1e5", "c2e3", "e1d1", "e1d2", "e1f1", "e1f2"}},
		{"king may not retreat along the checking ray",
			"4k3/8/8/8/8/8/8/r3K3 w - - 0 1", []string{"e1d2", "e1e2", "e1f2"}},
		{"knight check: capture the knight or move the king",
			"4k3/8/8/8/8/R2n4/8/4K3 w - - 0 1", []string{"a3d3", "e1d1", "e1d2", "e1e2", "e1f1"}},
		{"pawn check: capture with the king",
			"4k3/8/8/8/8/8/3p4/4K3 w - - 0 1", []string{"e1d1", "e1d2", "e1e2", "e1f1", "e1f2"}},
		{"pinned pawn may neither push nor capture the checker",
			"4r2k/8/8/8/8/3n4/4P3/4K3 w - - 0 1", []string{"e1d1", "e1d2", "e1f1"}},
		{"block by a double pawn push; promotions do not help",
			"2r1k3/1P6/8/8/r6K/8/6P1/8 w - - 0 1", []string{"g2g4", "h4g3", "h4g5", "h4h3", "h4h5"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := mustFEN(t, tt.fen)
			require.True(t, movegen.InCheck(p))
			assert.Equal(t, tt.moves, legalUCI(p))
		})
	}
}

func TestPins(t *testing.T) {
	tests := []struct {
		name  string
		fen   string
		moves []string
	}{
		{"pawn pinned on a file pushes but does not capture",
			"4r2k/8/8/8/8/3b4/4P3/4K3 w - - 0 1", []string{"e1d1", "e1d2", "e1f1", "e1f2", "e2e3", "e2e4"}},
		{"pawn pinned on a diagonal captures the pinner but does not push",
			"4k3/8/8/8/8/5b2/4P3/3K4 w - - 0 1", []string{"d1c1", "d1c2", "d1d2", "d1e1", "e2f3"}},
		{"pinned knight cannot move",
			"4r1k1/8/8/8/8/8/4N3/4K3 w - - 0 1", []string{"e1d1", "e1d2", "e1f1", "e1f2"}},
		{"queen pinned on a diagonal moves along it",
			"4k3/8/8/b7/8/8/3Q4/4K3 w - - 0 1", []string{"d2a5", "d2b4", "d2c3", "e1d1", "e1e2", "e1f1", "e1f2"}},
		{"rook pinned on a diagonal cannot move",
			"4k3/8/8/b7/8/8/3R4/4K3 w - - 0 1", []string{"e1d1", "e1e2", "e1f1", "e1f2"}},
		{"two pieces between: neither is pinned",
			"4r2k/8/8/8/8/4N3/4N3/4K3 w - - 0 1", nil},
		{"pinned pawn promotes only by capturing the pinner",
			"3r1b2/4P2k/8/8/8/K7/8/8 w - - 0 1",
			[]string{"a3a2", "a3a4", "a3b2", "a3b3", "a3b4", "e7f8b", "e7f8n", "e7f8q", "e7f8r"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := mustFEN(t, tt.fen)
			require.False(t, movegen.InCheck(p))
			if tt.moves != nil {
				assert.Equal(t, tt.moves, legalUCI(p))
			}
		})
	}
	// Two pieces between king and rook: both knights move freely.
	p := mustFEN(t, "4r2k/8/8/8/8/4N3/4N3/4K3 w - - 0 1")
	moves := legalUCI(p)
	assert.Contains(t, moves, "e2c3")
	assert.Contains(t, moves, "e3g4")
}

func TestCastling(t *testing.T) {
	tests := []struct {
		name string
		fen  string
		want []board.Move // castling moves expected, in any order
	}{
		{"both sides free", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
			[]board.Move{board.NewCastling(board.E1, board.H1), board.NewCastling(board.E1, board.A1)}},
		{"black both sides free", "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1",
			[]board.Move{board.NewCastling(board.E8, board.H8), board.NewCastling(board.E8, board.A8)}},
		{"no rights", "r3k2r/8/8/8/8/8/8/R3K2R w kq - 0 1", nil},
		{"king passes an attacked square (f1)", "4k3/8/8/8/8/8/5r2/R3K2R w KQ - 0 1",
			[]board.Move{board.NewCastling(board.E1, board.A1)}},
		{"king lands on an attacked square (g1)", "4k3/8/8/8/8/8/7b/R3K2R w KQ - 0 1",
			[]board.Move{board.NewCastling(board.E1, board.A1)}},
		{"king lands on an attacked square (c1)", "4k3/8/8/8/8/b7/8/R3K2R w KQ - 0 1",
			[]board.Move{board.NewCastling(board.E1, board.H1)}},
		{"king passes an attacked square (d1)", "4k3/8/8/8/8/8/3r4/R3K2R w KQ - 0 1",
			[]board.Move{board.NewCastling(board.E1, board.H1)}},
		{"attacked b1 does not stop O-O-O", "4k3/8/8/8/8/8/b7/R3K2R w KQ - 0 1",
			[]board.Move{board.NewCastling(board.E1, board.H1), board.NewCastling(board.E1, board.A1)}},
		{"attacked rook does not stop castling", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
			[]board.Move{board.NewCastling(board.E1, board.H1), board.NewCastling(board.E1, board.A1)}},
		{"not out of check", "4k3/4r3/8/8/8/8/8/R3K2R w KQ - 0 1", nil},
		{"blocked by a piece on b1", "4k3/8/8/8/8/8/8/RN2K2R w KQ - 0 1",
			[]board.Move{board.NewCastling(board.E1, board.H1)}},
		{"blocked by an enemy piece on g1", "4k3/8/8/8/8/8/8/R3K1nR w KQ - 0 1",
			[]board.Move{board.NewCastling(board.E1, board.A1)}},
		{"black passes d8 attacked", "r3k2r/8/8/8/8/8/8/3RK3 b kq - 0 1",
			[]board.Move{board.NewCastling(board.E8, board.H8)}},

		// Chess960.
		{"960: rook shields the king's path from a queen on a1", "4k3/8/8/8/8/8/8/qR2K3 w B - 0 1", nil},
		{"960: same without the queen", "4k3/8/8/8/8/8/8/1R2K3 w B - 0 1",
			[]board.Move{board.NewCastling(board.E1, board.B1)}},
		{"960: king already on c1, rook b1 shields it from a rook on a1", "4k3/8/8/8/8/8/8/rRK5 w B - 0 1", nil},
		{"960: king already on c1, nothing behind the rook", "4k3/8/8/8/8/8/8/1RK5 w B - 0 1",
			[]board.Move{board.NewCastling(board.C1, board.B1)}},
		{"960: king already on g1", "4k3/8/8/8/8/8/8/6KR w H - 0 1",
			[]board.Move{board.NewCastling(board.G1, board.H1)}},
		{"960: king on g1, the rook's destination f1 may be attacked", "4kr2/8/8/8/8/8/8/6KR w H - 0 1",
			[]board.Move{board.NewCastling(board.G1, board.H1)}},
		{"960: king b1 rook c1, rook h1 behind the king's path", "4k3/8/8/8/8/8/8/1KR4r w C - 0 1", nil},
		{"960: king b1 rook c1 free", "4k3/8/8/8/8/8/8/1KR5 w C - 0 1",
			[]board.Move{board.NewCastling(board.B1, board.C1)}},
		{"960: king and rook swap squares", "4k3/8/8/8/8/8/8/5KR1 w G - 0 1",
			[]board.Move{board.NewCastling(board.F1, board.G1)}},
		{"960: rook's destination blocked", "4k3/8/8/8/8/8/8/1K1N2R1 w G - 0 1", nil},
		{"960: rook's destination d1 occupied by another piece", "4k3/8/8/8/8/8/8/RK1B4 w A - 0 1", nil},
		{"960: king b1 rook a1 long castling", "4k3/8/8/8/8/8/8/RK6 w A - 0 1",
			[]board.Move{board.NewCastling(board.B1, board.A1)}},
		{"960: black long castling", "1r4kr/8/8/8/8/8/8/4K3 b bh - 0 1",
			[]board.Move{board.NewCastling(board.G8, board.B8), board.NewCastling(board.G8, board.H8)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := mustFEN(t, tt.fen)
			var got []board.Move
			for _, m := range legalMoves(p) {
				if m.Kind() == board.Castling {
					got = append(got, m)
				}
			}
			assert.ElementsMatch(t, tt.want, got)
			// Each castling move must land the king and rook where expected
			// and leave the king safe.
			for _, m := range got {
				p.Make(m)
				us := p.Side().Other()
				assert.Equal(t, board.MakePiece(us, board.King), p.PieceAt(m.CastlingKingTo()))
				assert.Equal(t, board.MakePiece(us, board.Rook), p.PieceAt(m.CastlingRookTo()))
				assert.False(t, movegen.Attacked(p, m.CastlingKingTo(), p.Side(), p.Occupied()))
				p.Unmake()
			}
		})
	}
}

func BenchmarkLegal(b *testing.B) {
	p := mustFEN(b, kiwipete)
	var ml movegen.MoveList
	b.ReportAllocs()
	for b.Loop() {
		movegen.Legal(p, &ml)
	}
}

func BenchmarkNoisy(b *testing.B) {
	p := mustFEN(b, kiwipete)
	var ml movegen.MoveList
	b.ReportAllocs()
	for b.Loop() {
		movegen.Noisy(p, &ml)
	}
}

// BenchmarkMakeUnmake makes and takes back every legal move of Kiwipete
// per iteration (48 pairs).
func BenchmarkMakeUnmake(b *testing.B) {
	p := mustFEN(b, kiwipete)
	moves := legalMoves(p)
	b.ReportAllocs()
	for b.Loop() {
		for _, m := range moves {
			p.Make(m)
			p.Unmake()
		}
	}
}

// GivesCheck (and a CheckInfo's) must agree with making the move and asking InCheck, for every
// legal move of every suite position and of every position one move later
// (direct and discovered checks, castling, e.p., promotions).
func TestGivesCheckAgreesWithMakingTheMove(t *testing.T) {
	checks := 0
	verify := func(p *board.Position) {
		ci := movegen.NewCheckInfo(p)
		for _, m := range legalMoves(p) {
			p.Make(m)
			want := movegen.InCheck(p)
			p.Unmake()
			if want {
				checks++
			}
			require.Equal(t, want, movegen.GivesCheck(p, m), "%s %s", p.FEN(), m)
			require.Equal(t, want, ci.GivesCheck(p, m), "CheckInfo: %s %s", p.FEN(), m)
		}
	}
	for _, path := range []string{"../testdata/perft126.epd", "../testdata/cpw_perft6.epd", "../testdata/frc_perft.epd"} {
		for _, l := range readEPD(t, path) {
			p := mustFEN(t, l.fen)
			verify(p)
			for _, m := range legalMoves(p) {
				p.Make(m)
				verify(p)
				p.Unmake()
			}
		}
	}
	require.Greater(t, checks, 1000)
}

// positionMoves are a position and its legal moves.
type positionMoves struct {
	p *board.Position
	m []board.Move
}

// checkBenchPositions are the first positions of the perft suite with their moves.
func checkBenchPositions(b *testing.B) []positionMoves {
	var all []positionMoves
	for _, l := range readEPD(b, "../testdata/perft126.epd")[:40] {
		p := mustFEN(b, l.fen)
		all = append(all, positionMoves{p, legalMoves(p)})
	}
	return all
}

// BenchmarkGivesCheck asks GivesCheck of every legal move of the suite's
// first positions per iteration.
func BenchmarkGivesCheck(b *testing.B) {
	all := checkBenchPositions(b)
	b.ReportAllocs()
	for b.Loop() {
		for _, x := range all {
			for _, m := range x.m {
				movegen.GivesCheck(x.p, m)
			}
		}
	}
}

// BenchmarkCheckInfo is BenchmarkGivesCheck through a CheckInfo built once
// a position.
func BenchmarkCheckInfo(b *testing.B) {
	all := checkBenchPositions(b)
	b.ReportAllocs()
	for b.Loop() {
		for _, x := range all {
			ci := movegen.NewCheckInfo(x.p)
			for _, m := range x.m {
				ci.GivesCheck(x.p, m)
			}
		}
	}
}
