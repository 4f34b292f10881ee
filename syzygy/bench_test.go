package syzygy_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/twofold-chess/twofold/board"
	"github.com/twofold-chess/twofold/internal/tbcheck"
	"github.com/twofold-chess/twofold/movegen"
)

// benchPositions returns random positions spread over every committed table.
func benchPositions(b *testing.B) []*board.Position {
	tb := openTables(b)
	fens, err := tbcheck.Positions(tb.Tables(), 1000, 11)
	require.NoError(b, err)
	var ps []*board.Position
	for _, fen := range fens {
		p, err := movegen.ParseFEN(fen)
		require.NoError(b, err)
		ps = append(ps, p)
	}
	return ps
}

// BenchmarkProbeWDL measures WDL probes as a search makes them (captures
// resolved, tables loaded), reported as probes per second.
func BenchmarkProbeWDL(b *testing.B) {
	ps := benchPositions(b)
	tb := openTables(b)
	for _, p := range ps {
		_, _ = tb.ProbeWDL(p)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := tb.ProbeWDL(ps[i%len(ps)]); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "probes/s")
}

// BenchmarkProbeDTZ measures DTZ probes, as made at the root.
func BenchmarkProbeDTZ(b *testing.B) {
	ps := benchPositions(b)
	tb := openTables(b)
	for _, p := range ps {
		_, _ = tb.ProbeDTZ(p)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := tb.ProbeDTZ(ps[i%len(ps)]); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "probes/s")
}

// BenchmarkProbeRoot measures a full root probe (every legal move).
func BenchmarkProbeRoot(b *testing.B) {
	ps := benchPositions(b)
	tb := openTables(b)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := tb.ProbeRoot(ps[i%len(ps)]); err != nil {
			b.Fatal(err)
		}
	}
}
