package syzygy_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/twofold-chess/twofold/board"
	"github.com/twofold-chess/twofold/internal/tbcheck"
	"github.com/twofold-chess/twofold/movegen"
	"github.com/twofold-chess/twofold/syzygy"
)

// fuzzFiles are the table files FuzzTable mutates: without and with pawns,
// symmetric material, WDL and DTZ.
var fuzzFiles = []struct{ table, ext string }{
	{"KQvK", ".rtbw"}, {"KQvK", ".rtbz"}, {"KPvK", ".rtbw"}, {"KPvK", ".rtbz"},
	{"KRvKR", ".rtbz"}, {"KNvKP", ".rtbz"}, {"KRPvK", ".rtbw"}, {"KQvKN", ".rtbw"},
}

// FuzzTable feeds mutated table files to the prober: opening, checking
// and probing them may fail, but must neither crash nor hang.
func FuzzTable(f *testing.F) {
	fens := map[string][]string{}
	for i, ff := range fuzzFiles {
		b, err := os.ReadFile(filepath.Join(tablesDir, ff.table+ff.ext))
		require.NoError(f, err)
		f.Add(uint8(i), b)
		f.Add(uint8(i), b[:len(b)/2])
		if fens[ff.table] == nil {
			fens[ff.table], err = tbcheck.Positions([]string{ff.table}, 24, uint64(i))
			require.NoError(f, err)
		}
	}
	var positions = map[string][]*board.Position{}
	for name, list := range fens {
		for _, fen := range list {
			p, err := movegen.ParseFEN(fen)
			require.NoError(f, err)
			positions[name] = append(positions[name], p)
		}
	}
	f.Fuzz(func(t *testing.T, which uint8, data []byte) {
		ff := fuzzFiles[int(which)%len(fuzzFiles)]
		dir := t.TempDir()
		other := ".rtbz"
		if ff.ext == ".rtbz" {
			other = ".rtbw"
		}
		good, err := os.ReadFile(filepath.Join(tablesDir, ff.table+other))
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(dir, ff.table+other), good, 0o644))
		require.NoError(t, os.WriteFile(filepath.Join(dir, ff.table+ff.ext), data, 0o644))
		tb, _ := syzygy.Open(dir)
		defer tb.Close()
		for _, p := range positions[ff.table] {
			_, _ = tb.ProbeWDL(p)
			_, _ = tb.ProbeDTZ(p)
		}
		_, _ = tb.ProbeRoot(positions[ff.table][0])
		_ = tb.Check()
	})
}
