package movegen_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twofold-chess/twofold/board"
	"github.com/twofold-chess/twofold/movegen"
)

var suites = []string{"../testdata/perft126.epd", "../testdata/cpw_perft6.epd", "../testdata/frc_perft.epd"}

// filterMoves returns the moves of list for which keep holds, in order.
func filterMoves(list []board.Move, keep func(board.Move) bool) []board.Move {
	var out []board.Move
	for _, m := range list {
		if keep(m) {
			out = append(out, m)
		}
	}
	return out
}

// TestNoisyAndQuietPartitionLegal checks that Noisy and Quiet split Legal:
// Noisy is Legal's noisy moves and Quiet the rest, each in Legal's order,
// so that their counts add up to the suite's depth-1 count, on every suite
// position and every position one move later; and that AppendQuiet adds
// Quiet's moves after a truncated list.
func TestNoisyAndQuietPartitionLegal(t *testing.T) {
	var legal, noisy, quiet movegen.MoveList
	var positions, nNoisy, nQuiet, castles int
	check := func(p *board.Position, d1 int) bool {
		positions++
		movegen.Legal(p, &legal)
		movegen.Noisy(p, &noisy)
		movegen.Quiet(p, &quiet)
		isQuiet := func(m board.Move) bool { return !isNoisy(p, m) }
		wantNoisy := filterMoves(legal.Moves(), func(m board.Move) bool { return isNoisy(p, m) })
		wantQuiet := filterMoves(legal.Moves(), isQuiet)
		nNoisy += noisy.Len()
		nQuiet += quiet.Len()
		castles += len(filterMoves(quiet.Moves(), func(m board.Move) bool { return m.Kind() == board.Castling }))
		// AppendQuiet after the first half of Noisy's moves.
		keep := noisy.Len() / 2
		appended := noisy
		appended.Truncate(keep)
		movegen.AppendQuiet(p, &appended)
		wantAppended := append(append([]board.Move(nil), noisy.Moves()[:keep]...), quiet.Moves()...)
		if !assert.Equal(t, wantAppended, append([]board.Move(nil), appended.Moves()...), "AppendQuiet in %s", p.FEN()) {
			return false
		}
		return assert.Equal(t, d1, noisy.Len()+quiet.Len(), p.FEN()) &&
			assert.Equal(t, wantNoisy, append([]board.Move(nil), noisy.Moves()...), "noisy in %s", p.FEN()) &&
			assert.Equal(t, wantQuiet, append([]board.Move(nil), quiet.Moves()...), "quiet in %s", p.FEN())
	}
	for _, path := range suites {
		for _, l := range readEPD(t, path) {
			p := mustFEN(t, l.fen)
			d1 := l.d1
			if d1 < 0 {
				d1 = len(legalMoves(p))
			}
			if !check(p, d1) {
				return
			}
			for _, m := range legalMoves(p) {
				p.Make(m)
				ok := check(p, len(legalMoves(p)))
				p.Unmake()
				if !ok {
					return
				}
			}
		}
	}
	assert.Greater(t, positions, 3000)
	assert.Positive(t, nNoisy)
	assert.Positive(t, nQuiet)
	assert.Positive(t, castles)
}

// epPositions add en passant to the suites' positions, legal and not.
var epPositions = []string{
	"4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2",
	"4k3/8/8/2PpP3/8/8/8/4K3 w - d6 0 2",
	"8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1",
	"8/8/8/KPp4r/8/8/8/7k w - c6 0 2",
	"4k3/6b1/8/3pP3/8/2K5/8/8 w - d6 0 2",
	"1b2k3/8/8/2pPK3/8/8/8/8 w - c6 0 2",
}

// TestIsLegalEveryMoveValue asks IsLegal about every 16-bit move value in
// every suite position (and a few with en passant): it must accept exactly
// the moves Legal lists, as many as the suite's depth-1 count.
func TestIsLegalEveryMoveValue(t *testing.T) {
	lines := []epdLine{}
	for _, path := range suites {
		lines = append(lines, readEPD(t, path)...)
	}
	for _, fen := range epPositions {
		lines = append(lines, epdLine{fen: fen, d1: -1})
	}
	var ml movegen.MoveList
	var kinds [4]int // accepted, by kind
	for _, l := range lines {
		p := mustFEN(t, l.fen)
		movegen.Legal(p, &ml)
		var listed [1 << 16]bool
		for _, m := range ml.Moves() {
			listed[m] = true
		}
		accepted := 0
		for v := range 1 << 16 {
			m := board.Move(v)
			got := movegen.IsLegal(p, m)
			if got != listed[m] {
				require.Failf(t, "IsLegal disagrees with Legal", "%s (%#04x): IsLegal %v in %s", m.UCI(p.Chess960()), v, got, l.fen)
			}
			if got {
				accepted++
				kinds[m.Kind()>>14]++
			}
		}
		if l.d1 >= 0 {
			assert.Equal(t, l.d1, accepted, l.fen)
		}
		assert.Equal(t, ml.Len(), accepted, l.fen)
	}
	for k, n := range kinds {
		assert.Positive(t, n, "kind %d", k)
	}
}

// TestIsLegalMovesOfAnotherPosition asks IsLegal, in positions two plies
// after a suite position (the first four replies to every move), about the
// moves of the suite position (what a killer slot or a colliding table
// entry holds), each also with every other kind and promotion piece.
func TestIsLegalMovesOfAnotherPosition(t *testing.T) {
	var accepted, rejected [4]int // by kind
	var ml movegen.MoveList
	for _, path := range suites {
		for _, l := range readEPD(t, path) {
			p := mustFEN(t, l.fen)
			before := legalMoves(p)
			for _, played := range before {
				p.Make(played)
				replies := legalMoves(p)
				for _, reply := range replies[:min(len(replies), 4)] {
					p.Make(reply)
					movegen.Legal(p, &ml)
					for _, m := range before {
						for variant := range 16 {
							c := m&0x0FFF | board.Move(variant)<<12
							got := movegen.IsLegal(p, c)
							if got != ml.Contains(c) {
								require.Failf(t, "IsLegal disagrees with Legal", "%s (%#04x): IsLegal %v in %s", c.UCI(p.Chess960()), uint16(c), got, p.FEN())
							}
							if got {
								accepted[c.Kind()>>14]++
							} else {
								rejected[c.Kind()>>14]++
							}
						}
					}
					p.Unmake()
				}
				p.Unmake()
			}
		}
	}
	// En passant is legal only right after the double push, so no move of
	// two plies before is (TestIsLegalEveryMoveValue accepts those).
	for _, k := range []board.MoveKind{board.Normal, board.Promotion, board.Castling} {
		assert.Positive(t, accepted[k>>14], "kind %d accepted", k>>14)
	}
	for k := range 4 {
		assert.Positive(t, rejected[k], "kind %d rejected", k)
	}
}

func TestIsLegalCases(t *testing.T) {
	tests := []struct {
		name string
		fen  string
		move board.Move
		want bool
	}{
		{"no move", board.StartFEN, board.NoMove, false},
		{"null move", board.StartFEN, board.NullMove, false},
		{"double push", board.StartFEN, board.NewMove(sq("e2"), sq("e4")), true},
		{"double push over a piece", "4k3/8/8/8/8/4n3/4P3/4K3 w - - 0 1", board.NewMove(sq("e2"), sq("e4")), false},
		{"push onto a piece", "4k3/8/8/8/8/4n3/4P3/4K3 w - - 0 1", board.NewMove(sq("e2"), sq("e3")), false},
		{"pawn capture to an empty square", board.StartFEN, board.NewMove(sq("e2"), sq("d3")), false},
		{"the other side's piece", board.StartFEN, board.NewMove(sq("e7"), sq("e5")), false},
		{"normal move with a promotion piece", board.StartFEN, board.NewMove(sq("g1"), sq("f3")) | 3<<12, false},
		{"push to the last rank without promoting", "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", board.NewMove(sq("b7"), sq("b8")), false},
		{"promotion", "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", board.NewPromotion(sq("b7"), sq("b8"), board.Knight), true},
		{"promotion short of the last rank", "4k3/8/1P6/8/8/8/8/4K3 w - - 0 1", board.NewPromotion(sq("b6"), sq("b7"), board.Queen), false},
		{"knight promotes", "4k3/1N6/8/8/8/8/8/4K3 w - - 0 1", board.NewPromotion(sq("b7"), sq("b8"), board.Queen), false},
		{"slider through a piece", board.StartFEN, board.NewMove(sq("a1"), sq("a3")), false},
		{"pinned rook leaves the pin line", "4k3/4r3/8/8/8/8/4R3/4K3 w - - 0 1", board.NewMove(sq("e2"), sq("d2")), false},
		{"pinned rook along the pin line", "4k3/4r3/8/8/8/8/4R3/4K3 w - - 0 1", board.NewMove(sq("e2"), sq("e7")), true},
		{"king steps back along the checking ray", "4k3/8/8/8/8/8/8/r3K3 w - - 0 1", board.NewMove(sq("e1"), sq("f1")), false},
		{"king steps off the checking ray", "4k3/8/8/8/8/8/8/r3K3 w - - 0 1", board.NewMove(sq("e1"), sq("e2")), true},
		{"move ignoring a check", "4k3/8/8/8/8/8/7P/r3K3 w - - 0 1", board.NewMove(sq("h2"), sq("h3")), false},
		{"block a check", "4k3/8/8/8/8/8/2N5/r3K3 w - - 0 1", board.NewMove(sq("c2"), sq("b1")), false},
		{"capture the checker", "4k3/8/8/8/8/1N6/8/r3K3 w - - 0 1", board.NewMove(sq("b3"), sq("a1")), true},
		{"double check: capture a checker", "4r2k/8/8/8/8/3n4/8/3QK3 w - - 0 1", board.NewMove(sq("d1"), sq("d3")), false},
		{"castling", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", board.NewCastling(sq("e1"), sq("h1")), true},
		{"castling as a king move", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", board.NewMove(sq("e1"), sq("g1")), false},
		{"castling without the right", "r3k2r/8/8/8/8/8/8/R3K2R w Qkq - 0 1", board.NewCastling(sq("e1"), sq("h1")), false},
		{"castling out of check", "r3k2r/8/8/8/8/8/4q3/R3K2R w KQkq - 0 1", board.NewCastling(sq("e1"), sq("a1")), false},
		{"castling through an attacked square", "r3k2r/8/8/8/8/8/5q2/R3K2R w KQkq - 0 1", board.NewCastling(sq("e1"), sq("h1")), false},
		{"castling through a piece", "r3k2r/8/8/8/8/8/8/RN2K2R w KQkq - 0 1", board.NewCastling(sq("e1"), sq("a1")), false},
		{"castling with a rook square that holds none", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", board.NewCastling(sq("e1"), sq("g1")), false},
		{"en passant", "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2", board.NewEnPassant(sq("e5"), sq("d6")), true},
		{"en passant without the square", "4k3/8/8/3pP3/8/8/8/4K3 w - - 0 2", board.NewEnPassant(sq("e5"), sq("d6")), false},
		{"en passant written as a normal capture", "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2", board.NewMove(sq("e5"), sq("d6")), false},
		{"en passant exposing the king", "8/8/8/KPp4r/8/8/8/7k w - c6 0 2", board.NewEnPassant(sq("b5"), sq("c6")), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := mustFEN(t, tt.fen)
			assert.Equal(t, tt.want, movegen.IsLegal(p, tt.move))
			var ml movegen.MoveList
			movegen.Legal(p, &ml)
			assert.Equal(t, tt.want, ml.Contains(tt.move), "the case must agree with Legal")
		})
	}
}

func TestQuietAndIsLegalAllocateNothing(t *testing.T) {
	p := mustFEN(t, kiwipete)
	var ml movegen.MoveList
	assert.Zero(t, testing.AllocsPerRun(200, func() { movegen.Quiet(p, &ml) }), "Quiet")
	assert.Equal(t, 40, ml.Len())
	assert.Zero(t, testing.AllocsPerRun(200, func() { movegen.Noisy(p, &ml); movegen.AppendQuiet(p, &ml) }), "AppendQuiet")
	assert.Equal(t, 48, ml.Len())
	m := ml.At(0)
	assert.Zero(t, testing.AllocsPerRun(200, func() { _ = movegen.IsLegal(p, m) }), "IsLegal")
}

func BenchmarkQuiet(b *testing.B) {
	p := mustFEN(b, kiwipete)
	var ml movegen.MoveList
	b.ReportAllocs()
	for b.Loop() {
		movegen.Quiet(p, &ml)
	}
}
