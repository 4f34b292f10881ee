package perft

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/twofold-chess/twofold/board"
)

// The classic speed positions: the start position and Kiwipete (many
// captures, castling both ways, pins and promotions nearby).
var benchPositions = []struct {
	name  string
	fen   string
	depth int
	nodes uint64
}{
	{"Startpos", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 5, 4865609},
	{"Kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 4, 4085603},
}

// BenchmarkPerft reports leaves per second (Mnps) for each position.
func BenchmarkPerft(b *testing.B) {
	for _, bp := range benchPositions {
		b.Run(bp.name, func(b *testing.B) {
			p, err := board.ParseFEN(bp.fen)
			require.NoError(b, err)
			b.ReportAllocs()
			for b.Loop() {
				require.Equal(b, bp.nodes, Count(p, bp.depth))
			}
			b.ReportMetric(float64(bp.nodes)*float64(b.N)/b.Elapsed().Seconds()/1e6, "Mnps")
		})
	}
}
