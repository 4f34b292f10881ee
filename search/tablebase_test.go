package search_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twofold-chess/twofold/board"
	"github.com/twofold-chess/twofold/mind"
	"github.com/twofold-chess/twofold/movegen"
	"github.com/twofold-chess/twofold/search"
	"github.com/twofold-chess/twofold/syzygy"
)

// tablesDir holds every 3- and 4-piece table (package syzygy's test data).
const tablesDir = "../syzygy/testdata/tables"

func openTables(t testing.TB, dir string) *syzygy.Tablebase {
	t.Helper()
	tb, err := syzygy.Open(dir)
	require.NoError(t, err)
	require.NotZero(t, tb.NumWDL())
	t.Cleanup(func() { _ = tb.Close() })
	return tb
}

// tbSearcher is a one-thread searcher probing tb with Stockfish's defaults.
func tbSearcher(tb *syzygy.Tablebase) *search.Searcher {
	return search.New(16, search.Options{Threads: 1, Tablebases: mind.DefaultTablebases(tb)})
}

// wdlOnly is a directory with the WDL files of the committed tables alone.
func wdlOnly(t *testing.T) string {
	dir := t.TempDir()
	files, err := filepath.Glob(filepath.Join(tablesDir, "*.rtbw"))
	require.NoError(t, err)
	for _, f := range files {
		data, err := os.ReadFile(f)
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(dir, filepath.Base(f)), data, 0o644))
	}
	return dir
}

// playOut plays the game from fen with s on both sides, each move a search
// of nodes nodes, and returns the final position.
func playOut(t *testing.T, s *search.Searcher, fen string, nodes uint64, maxPlies int) *board.Position {
	t.Helper()
	p := pos(t, fen)
	for ply := 0; ply < maxPlies && !movegen.GameStatus(p).Over(); ply++ {
		res := s.Search(p, search.Limits{Nodes: nodes}, nil)
		require.True(t, isLegal(p, res.Best), "move %v in %s", res.Best, p.FEN())
		p.Make(res.Best)
	}
	return p
}

// With the tables the search converts won endings at once: every move
// keeps the win within the fifty-move rule, so the game ends in mate,
// however little it searches.
func TestTablebasesConvertWins(t *testing.T) {
	tb := openTables(t, tablesDir)
	for _, c := range []struct{ name, fen string }{
		{"KQvK", "8/8/8/4k3/8/8/8/KQ6 w - - 0 1"},
		{"KRvK", "8/8/8/4k3/8/8/8/KR6 w - - 0 1"},
		{"KRvK, black to move", "8/8/8/3k4/8/8/6R1/7K b - - 0 1"},
	} {
		t.Run(c.name, func(t *testing.T) {
			start := pos(t, c.fen)
			winner := start.Side()
			if strings.Contains(c.name, "black to move") {
				winner = winner.Other()
			}
			res := tbSearcher(tb).Search(start, search.Limits{Depth: 6}, nil)
			want := search.TBCentipawns
			if start.Side() != winner {
				want = -want
			}
			assert.Equal(t, mind.CP(want), res.Score, "the tables' score at the root")

			p := playOut(t, tbSearcher(tb), c.fen, 3000, 200)
			require.Equal(t, movegen.Checkmate, movegen.GameStatus(p), "game ended %s in %s", movegen.GameStatus(p), p.FEN())
			assert.Equal(t, winner.Other(), p.Side(), "the winner mated")
		})
	}
}

// Under the fifty-move rule's pressure only the moves quick enough to
// zero in time keep the win: the root filter leaves the search those.
func TestTablebaseRootPicksDTZOptimalMove(t *testing.T) {
	tb := openTables(t, tablesDir)
	// DTZ 29: Kb2 and Re1+ zero in 29 plies, every other move in 31 or 33;
	// with 70 plies on the counter only the first two win for certain.
	p := pos(t, "8/8/8/4k3/8/8/8/KR6 w - - 70 1")
	ranked, err := tb.ProbeRoot(p.Clone())
	require.NoError(t, err)
	var want []string
	for _, m := range syzygy.Preserving(ranked) {
		want = append(want, m.Move.UCI(false))
	}
	require.ElementsMatch(t, []string{"a1b2", "b1e1"}, want)

	rec := &recorder{}
	s := tbSearcher(tb)
	res := s.Search(p, search.Limits{Depth: 8}, rec.report)
	assert.Contains(t, want, res.Best.UCI(false))
	assert.Equal(t, mind.CP(search.TBCentipawns), res.Score)
	for _, l := range rec.lines() {
		assert.Contains(t, want, l.PV[0].UCI(false), "only the preserving moves are searched")
		assert.GreaterOrEqual(t, l.TBHits, uint64(len(ranked)), "the root probe counts")
	}

	// MultiPV lists the preserving moves only.
	s.SetOptions(search.Options{Threads: 1, MultiPV: 5, Tablebases: mind.DefaultTablebases(tb)})
	rec = &recorder{}
	s.Search(p, search.Limits{Depth: 4}, rec.report)
	pvs := map[int]bool{}
	for _, l := range rec.lines() {
		pvs[l.MultiPV] = true
	}
	assert.Len(t, pvs, 2)

	// searchmoves narrows the choice further, still to the best it allows.
	res = tbSearcher(tb).Search(p, search.Limits{Depth: 4, Moves: []board.Move{mv(t, p, "b1h1"), mv(t, p, "b1b8")}}, nil)
	assert.Equal(t, "b1h1", res.Best.UCI(false), "dtz 31 beats dtz 33")
	assert.Greater(t, res.Score.Value, 0)
	assert.Less(t, res.Score.Value, 200, "a cursed win is a few centipawns")
}

// A drawn ending is held: the moves that lose the rook are never played,
// and the score is a draw.
func TestTablebaseHoldsDraw(t *testing.T) {
	tb := openTables(t, tablesDir)
	p := pos(t, "8/8/8/8/3k4/8/2r5/1R2K3 w - - 0 1") // Rc1 and Rb2 lose
	for _, depth := range []int{1, 4, 8} {
		res := tbSearcher(tb).Search(p, search.Limits{Depth: depth}, nil)
		assert.NotContains(t, []string{"b1c1", "b1b2"}, res.Best.UCI(false))
		assert.Equal(t, mind.CP(0), res.Score)
	}
	// The game goes on drawn: neither side ever plays into a loss.
	q := playOut(t, tbSearcher(tb), "8/8/8/8/3k4/8/2r5/1R2K3 w - - 0 1", 1000, 60)
	if st := movegen.GameStatus(q); st.Over() {
		assert.NotEqual(t, movegen.Checkmate, st, q.FEN())
	} else {
		w, err := tb.ProbeWDL(q)
		require.NoError(t, err)
		assert.Equal(t, syzygy.Draw, w, q.FEN())
	}
	// Two bare kings: a draw, whatever the tables.
	res := tbSearcher(tb).Search(pos(t, "8/8/8/4k3/8/8/8/K7 w - - 0 1"), search.Limits{Depth: 6}, nil)
	assert.Equal(t, mind.CP(0), res.Score)
}

// Without DTZ files the root is ranked by WDL, and the search probes on
// below it while the root is won.
func TestTablebaseWDLOnly(t *testing.T) {
	tb := openTables(t, wdlOnly(t))
	require.Zero(t, tb.NumDTZ())
	res := tbSearcher(tb).Search(pos(t, "8/8/3k4/8/8/8/2r5/1R2K3 w - - 0 1"), search.Limits{Depth: 6}, nil)
	assert.Equal(t, mind.CP(0), res.Score, "KRvKR drawn")
	p := playOut(t, tbSearcher(tb), "8/8/8/4k3/8/8/8/KQ6 w - - 0 1", 3000, 120)
	assert.Equal(t, movegen.Checkmate, movegen.GameStatus(p), p.FEN())
}

// Below the root, a capture into the tables is scored in the tablebase
// band, just below the mates, and counted in tbhits.
func TestTablebaseProbesInsideTheTree(t *testing.T) {
	tb := openTables(t, tablesDir)
	// Five pieces, not in the tables; Qxd2+ takes the undefended rook into
	// KQRvK, which is.
	p := pos(t, "8/8/8/3k4/8/8/3r4/K2QR3 w - - 0 1")
	rec := &recorder{}
	res := tbSearcher(tb).Search(p, search.Limits{Depth: 5}, rec.report)
	assert.Equal(t, "d1d2", res.Best.UCI(false))
	lines := rec.lines()
	require.NotEmpty(t, lines)
	last := lines[len(lines)-1]
	assert.Greater(t, last.TBHits, uint64(0))
	v := search.Value(res.Score)
	assert.True(t, res.Score.Mate || (v >= search.TBWinBound && v < search.MateBound), "score %+v", res.Score)

	// The same search without tables probes nothing.
	rec = &recorder{}
	search.New(16, search.Options{Threads: 1}).Search(p, search.Limits{Depth: 5}, rec.report)
	for _, l := range rec.lines() {
		assert.Zero(t, l.TBHits)
	}
	// Nor with a probe limit of 0, nor at a weakened strength (calibrated
	// without tables).
	tbo := mind.DefaultTablebases(tb)
	tbo.ProbeLimit = 0
	hard, ok := search.DifficultyStrength("Hard")
	require.True(t, ok)
	for _, o := range []search.Options{
		{Threads: 1, Tablebases: tbo},
		{Threads: 1, Tablebases: mind.DefaultTablebases(tb), Strength: hard},
	} {
		rec = &recorder{}
		search.New(16, o).Search(p, search.Limits{Depth: 5}, rec.report)
		require.NotEmpty(t, rec.lines())
		for _, l := range rec.lines() {
			assert.Zero(t, l.TBHits)
		}
	}
}

// A corrupt table fails its probes alone; the search plays on without it.
func TestTablebaseCorruptTable(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"KQvK.rtbw", "KQvK.rtbz", "KRvK.rtbw", "KRvK.rtbz"} {
		data, err := os.ReadFile(filepath.Join(tablesDir, name))
		require.NoError(t, err)
		if strings.HasPrefix(name, "KQvK") {
			for i := 64; i < len(data); i += 7 {
				data[i] ^= 0x5a
			}
			data = data[:len(data)/2]
		}
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), data, 0o644))
	}
	var reported []error
	tb, err := syzygy.OpenWith(dir, syzygy.Options{OnTableError: func(err error) { reported = append(reported, err) }})
	require.NoError(t, err)
	defer tb.Close()
	s := tbSearcher(tb)
	p := pos(t, "8/8/8/4k3/8/8/8/KQ6 w - - 0 1")
	res := s.Search(p, search.Limits{Depth: 6}, nil)
	assert.True(t, isLegal(p, res.Best))
	assert.False(t, res.Score.Value == search.TBCentipawns && !res.Score.Mate, "no tablebase score from a corrupt table")
	require.NotEmpty(t, reported)
	assert.Contains(t, reported[0].Error(), "KQvK")
	// The good table still serves.
	res = s.Search(pos(t, "8/8/8/4k3/8/8/8/KR6 w - - 0 1"), search.Limits{Depth: 4}, nil)
	assert.Equal(t, mind.CP(search.TBCentipawns), res.Score)
	assert.True(t, slices.ContainsFunc(reported, func(e error) bool { return strings.Contains(e.Error(), "KQvK") }))
}
