package eval

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twofold-chess/twofold/board"
)

func TestScorePacking(t *testing.T) {
	for _, c := range [][2]int{{0, 0}, {1, -1}, {-1, 1}, {-300, 450}, {1200, -900}, {-32000, 32000}} {
		s := S(c[0], c[1])
		assert.Equal(t, c[0], s.MG(), c)
		assert.Equal(t, c[1], s.EG(), c)
	}
	// Packed arithmetic is linear, which the evaluation relies on.
	assert.Equal(t, S(-30, 90), S(-10, 30)*3)
	assert.Equal(t, S(5, -5), S(10, -20)+S(-5, 15))
}

// mirror flips the board vertically and swaps the colours.
func mirror(t *testing.T, fen string) string {
	t.Helper()
	f := strings.Fields(fen)
	ranks := strings.Split(f[0], "/")
	for i, j := 0, len(ranks)-1; i < j; i, j = i+1, j-1 {
		ranks[i], ranks[j] = ranks[j], ranks[i]
	}
	swap := func(s string) string {
		b := []byte(s)
		for i, c := range b {
			switch {
			case c >= 'a' && c <= 'z':
				b[i] = c - 'a' + 'A'
			case c >= 'A' && c <= 'Z':
				b[i] = c - 'A' + 'a'
			}
		}
		return string(b)
	}
	side := map[string]string{"w": "b", "b": "w"}[f[1]]
	castling := f[2]
	if castling != "-" {
		castling = swap(castling)
	}
	ep := f[3]
	if ep != "-" {
		ep = string([]byte{ep[0], byte('9' - ep[1] + '0')})
	}
	return strings.Join([]string{swap(strings.Join(ranks, "/")), side, castling, ep, f[4], f[5]}, " ")
}

// The evaluation is colour-blind: a position and its mirror image score the
// same for the side to move.
func TestEvaluationIsSymmetric(t *testing.T) {
	for _, fen := range []string{
		board.StartFEN,
		"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
		"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
		"r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
		"8/5k2/8/2B5/8/8/1b2K3/8 b - - 0 1",
		"4k3/8/8/8/8/8/8/3NK3 w - - 0 1",
	} {
		p, err := board.ParseFEN(fen)
		require.NoError(t, err)
		m, err := board.ParseFEN(mirror(t, fen))
		require.NoError(t, err, mirror(t, fen))
		assert.Equal(t, Evaluate(p), Evaluate(m), fen)
	}
}

func TestMaterialAdvantageIsPositive(t *testing.T) {
	for fen, sign := range map[string]int{
		"4k3/8/8/8/8/8/8/3QK3 w - - 0 1":                           1,
		"4k3/8/8/8/8/8/8/3QK3 b - - 0 1":                           -1,
		"3qk3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - 0 1":             -1,
		"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKB1R w KQkq - 0 1": -1,
	} {
		p, err := board.ParseFEN(fen)
		require.NoError(t, err)
		assert.Equal(t, sign, sgn(Evaluate(p)), fen)
	}
}

func sgn(x int) int {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}

// Without pawns, a minor piece more is no win: the endgame scale cuts it.
func TestPawnlessMinorAdvantageIsScaledDown(t *testing.T) {
	p, err := board.ParseFEN("4k3/8/8/8/8/8/8/3NK3 w - - 0 1")
	require.NoError(t, err)
	assert.Less(t, Evaluate(p), 100)
}

func TestTraceMatchesWeightedSum(t *testing.T) {
	p, err := board.ParseFEN("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
	require.NoError(t, err)
	var tr Trace
	got := TraceOf(p, &weights, &tr)
	var mg, eg int
	for i, c := range tr.Coeffs {
		mg += int(c) * weights[i].MG()
		eg += int(c) * weights[i].EG()
	}
	want := (mg*tr.Phase + eg*(maxPhase-tr.Phase)*tr.Scale/64) / maxPhase
	assert.Equal(t, want, got)
	assert.Equal(t, Evaluate(p), got) // White to move
}

func TestBreakdownEndsWithTheEvaluation(t *testing.T) {
	p, err := board.ParseFEN("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
	require.NoError(t, err)
	out := Breakdown(p)
	assert.Contains(t, out, "material")
	assert.Contains(t, out, "tempo")
	assert.Contains(t, out, "Final evaluation:")
}

func TestWeightsSourceRoundTrips(t *testing.T) {
	src, err := WeightsSource(&weights, "test")
	require.NoError(t, err)
	assert.Contains(t, string(src), "var defaultWeights = Weights{")
	assert.Equal(t, NumParams, strings.Count(string(src), "S("))
}

func BenchmarkEvaluate(b *testing.B) {
	p, _ := board.ParseFEN("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
	for i := 0; i < b.N; i++ {
		Evaluate(p)
	}
}
