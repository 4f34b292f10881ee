package perft

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/twofold-chess/twofold/board"
	"github.com/twofold-chess/twofold/movegen"
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

// BenchmarkPerftListing is BenchmarkPerft with the last ply counted by
// listing the moves (movegen.Legal) instead of movegen.CountLegal: the
// speed of the move generator itself, as the search uses it.
func BenchmarkPerftListing(b *testing.B) {
	for _, bp := range benchPositions {
		b.Run(bp.name, func(b *testing.B) {
			p, err := board.ParseFEN(bp.fen)
			require.NoError(b, err)
			lists := make([]movegen.MoveList, bp.depth)
			b.ReportAllocs()
			for b.Loop() {
				require.Equal(b, bp.nodes, countListing(p, bp.depth, lists))
			}
			b.ReportMetric(float64(bp.nodes)*float64(b.N)/b.Elapsed().Seconds()/1e6, "Mnps")
		})
	}
}

func countListing(p *board.Position, depth int, lists []movegen.MoveList) uint64 {
	ml := &lists[0]
	movegen.Legal(p, ml)
	if depth == 1 {
		return uint64(ml.Len())
	}
	var nodes uint64
	for _, m := range ml.Moves() {
		p.Make(m)
		nodes += countListing(p, depth-1, lists[1:])
		p.Unmake()
	}
	return nodes
}
