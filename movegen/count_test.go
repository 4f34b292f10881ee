package movegen_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/twofold-chess/twofold/board"
	"github.com/twofold-chess/twofold/movegen"
)

// CountLegal must agree with the length of Legal on every suite position
// and every position one and two moves later (checks, pins, e.p. and
// castling of both kinds, promotions).
func TestCountLegalAgreesWithLegal(t *testing.T) {
	var ml movegen.MoveList
	positions := 0
	check := func(p *board.Position) {
		movegen.Legal(p, &ml)
		require.Equal(t, ml.Len(), movegen.CountLegal(p), p.FEN())
		positions++
	}
	for _, path := range []string{"../testdata/perft126.epd", "../testdata/cpw_perft6.epd", "../testdata/frc_perft.epd"} {
		for _, l := range readEPD(t, path) {
			p := mustFEN(t, l.fen)
			check(p)
			for _, m := range legalMoves(p) {
				p.Make(m)
				check(p)
				for _, m2 := range legalMoves(p) {
					p.Make(m2)
					check(p)
					p.Unmake()
				}
				p.Unmake()
			}
		}
	}
	require.Greater(t, positions, 50_000)
}

func TestCountLegalAllocatesNothing(t *testing.T) {
	p := mustFEN(t, kiwipete)
	n := 0
	require.Zero(t, testing.AllocsPerRun(200, func() { n = movegen.CountLegal(p) }))
	require.Equal(t, 48, n)
}

func BenchmarkCountLegal(b *testing.B) {
	p := mustFEN(b, kiwipete)
	b.ReportAllocs()
	for b.Loop() {
		movegen.CountLegal(p)
	}
}
