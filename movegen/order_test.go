package movegen_test

import (
	"hash/fnv"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/twofold-chess/twofold/board"
	"github.com/twofold-chess/twofold/movegen"
)

// The search breaks move-ordering ties by generation order, so the order of
// Legal and Noisy is part of the engine's behaviour (the bench signature
// depends on it). This digest of both lists, over every suite position and
// every position one and two moves later, pins the order down: a faster generator
// must produce the same moves in the same order.
const generationOrderDigest = 0x59641d3c4313ff4f

func TestGenerationOrderIsStable(t *testing.T) {
	h := fnv.New64a()
	var ml movegen.MoveList
	write := func(p *board.Position) {
		for _, gen := range []func(*board.Position, *movegen.MoveList){movegen.Legal, movegen.Noisy} {
			gen(p, &ml)
			for _, m := range ml.Moves() {
				_, _ = h.Write([]byte{byte(m), byte(m >> 8)})
			}
			_, _ = h.Write([]byte{0xFF, 0xFF}) // end of list
		}
	}
	for _, path := range []string{"../testdata/perft126.epd", "../testdata/cpw_perft6.epd", "../testdata/frc_perft.epd"} {
		for _, l := range readEPD(t, path) {
			p := mustFEN(t, l.fen)
			write(p)
			for _, m := range legalMoves(p) {
				p.Make(m)
				write(p)
				for _, m2 := range legalMoves(p) {
					p.Make(m2)
					write(p)
					p.Unmake()
				}
				p.Unmake()
			}
		}
	}
	assert.Equal(t, uint64(generationOrderDigest), h.Sum64())
}
