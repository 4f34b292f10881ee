package search

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twofold-chess/twofold/mind"
	"github.com/twofold-chess/twofold/movegen"
	"github.com/twofold-chess/twofold/syzygy"
)

// Tablebase results are scored as Stockfish scores them: wins and losses
// in the band below the mates, bounds by what a deeper search could add,
// cursed wins and blessed losses as draws by a hair under the fifty-move
// rule and as wins and losses without it.
func TestTablebaseValues(t *testing.T) {
	for _, c := range []struct {
		wdl    syzygy.WDL
		rule50 bool
		score  int
		bound  Bound
	}{
		{syzygy.Win, true, TBWin - 3, BoundLower},
		{syzygy.CursedWin, true, 2, BoundExact},
		{syzygy.Draw, true, 0, BoundExact},
		{syzygy.BlessedLoss, true, -2, BoundExact},
		{syzygy.Loss, true, -TBWin + 3, BoundUpper},
		{syzygy.Win, false, TBWin - 3, BoundLower},
		{syzygy.CursedWin, false, TBWin - 3, BoundLower},
		{syzygy.Draw, false, 0, BoundExact},
		{syzygy.BlessedLoss, false, -TBWin + 3, BoundUpper},
		{syzygy.Loss, false, -TBWin + 3, BoundUpper},
	} {
		score, bound := tbValue(c.wdl, c.rule50, 3)
		assert.Equal(t, c.score, score, "%v rule50 %v", c.wdl, c.rule50)
		assert.Equal(t, c.bound, bound, "%v rule50 %v", c.wdl, c.rule50)
		assert.False(t, IsMate(score))
	}
	assert.Greater(t, TBWinBound, MateBound-2*MaxPly, "the band lies just below the mates")
	assert.Greater(t, TBWinBound, TBCentipawns, "above any evaluation reported")
	// The band survives the table's distance bookkeeping.
	for _, s := range []int{TBWin - 5, -TBWin + 5, TBWinBound, -TBWinBound} {
		assert.Equal(t, s, scoreFromTT(scoreToTT(s, 9), 9))
		assert.Equal(t, s-4*sign(s), scoreFromTT(scoreToTT(s, 5), 9), "a ply further from the root")
	}
}

func sign(x int) int {
	if x < 0 {
		return -1
	}
	return 1
}

// A node the tables settle is stored in the transposition table with the
// tables' score and bound, deeper than searched (as Stockfish stores it).
func TestTablebaseCutIsStored(t *testing.T) {
	tb, err := syzygy.Open("../syzygy/testdata/tables")
	require.NoError(t, err)
	defer tb.Close()
	s := New(16, Options{Threads: 1, Tablebases: mind.DefaultTablebases(tb)})
	s.tbCard, s.tbDepth = tb.MaxPieces(), 1
	th := s.threads[0]
	for _, c := range []struct {
		fen   string
		score int
		bound Bound
	}{
		{"8/8/8/4k3/8/8/8/KQ6 b - - 0 1", -TBWin + 1, BoundUpper}, // lost for black: fails low
		{"8/8/8/4k3/8/8/8/KQ6 w - - 0 1", TBWin - 1, BoundLower},  // won for white: fails high
		{"8/8/8/8/3k4/8/2r5/1R2K3 w - - 0 1", 0, BoundExact},      // drawn
	} {
		p, err := movegen.ParseFEN(c.fen)
		require.NoError(t, err)
		th.prepare(p, nil)
		got := th.search(-100, -99, 3, 1, true)
		if c.bound == BoundLower {
			got = th.search(99, 100, 3, 1, true)
		}
		assert.Equal(t, c.score, got, c.fen)
		d, ok := s.tt.probe(p.Key())
		require.True(t, ok, c.fen)
		assert.Equal(t, c.bound, d.bound, c.fen)
		assert.Equal(t, 3+6, int(d.depth), c.fen)
		assert.Equal(t, c.score, scoreFromTT(int(d.score), 1), c.fen)
		assert.Equal(t, uint64(1), th.tbHits.Load(), c.fen)
	}
}
