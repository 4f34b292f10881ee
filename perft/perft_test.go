package perft

import (
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twofold-chess/twofold/board"
)

// suiteBudget bounds the reference counts checked per suite line: the full
// suites to this size run in well under a minute; `engine perft --suite`
// checks the deep counts.
func suiteBudget(t *testing.T) uint64 {
	if testing.Short() {
		return 200_000
	}
	return 12_000_000
}

func runSuiteFile(t *testing.T, path string) {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	entries, err := ReadSuite(f)
	require.NoError(t, err)
	require.NotEmpty(t, entries)
	sum := RunSuite(entries, SuiteOptions{MaxNodes: suiteBudget(t)}, func(r Result) {
		if r.Err != nil {
			t.Errorf("line %d: %v", r.Entry.Line, r.Err)
			return
		}
		if !r.OK() {
			t.Errorf("line %d %s: depth %d: got %d, want %d", r.Entry.Line, r.Entry.FEN, r.Depth, r.Got, r.Want)
		}
	})
	assert.Equal(t, len(entries), sum.Positions)
	assert.Positive(t, sum.Checked)
	assert.Zero(t, sum.Failed)
}

func TestPerft126Suite(t *testing.T) { runSuiteFile(t, "../testdata/perft126.epd") }
func TestCPWSuite(t *testing.T)      { runSuiteFile(t, "../testdata/cpw_perft6.epd") }
func TestChess960Suite(t *testing.T) { runSuiteFile(t, "../testdata/frc_perft.epd") }

func TestDivideSumsToCount(t *testing.T) {
	p, err := board.ParseFEN("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
	require.NoError(t, err)
	div := Divide(p, 3)
	assert.Len(t, div, 48)
	var total uint64
	for _, mc := range div {
		total += mc.Nodes
	}
	assert.Equal(t, uint64(97862), total)
	assert.Equal(t, uint64(97862), Count(p, 3))
}

func TestCountDepthZeroIsOne(t *testing.T) {
	assert.Equal(t, uint64(1), Count(board.StartPosition(), 0))
}

func TestParseEntry(t *testing.T) {
	e, err := ParseEntry("8/8/8/8/8/8/8/K6k w - - 0 1 ;D1 3 ;D2 9")
	require.NoError(t, err)
	assert.Equal(t, "8/8/8/8/8/8/8/K6k w - - 0 1", e.FEN)
	assert.Equal(t, []Expectation{{1, 3}, {2, 9}}, e.Expectations)

	for _, bad := range []string{"", ";D1 3", "8/8/8/8/8/8/8/K6k w - - 0 1", "x ;D1", "x ;Dx 3", "x ;D1 -3", "x ;D0 1"} {
		_, err := ParseEntry(bad)
		assert.Error(t, err, bad)
	}
}
