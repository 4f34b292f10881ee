package azero

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twofold-chess/twofold/board"
	"github.com/twofold-chess/twofold/mind"
	"github.com/twofold-chess/twofold/movegen"
	"github.com/twofold-chess/twofold/syzygy"
	"github.com/twofold-chess/twofold/timeman"
)

func openTables(t *testing.T) *syzygy.Tablebase {
	t.Helper()
	tb, err := syzygy.Open("../syzygy/testdata/tables")
	require.NoError(t, err)
	t.Cleanup(func() { _ = tb.Close() })
	return tb
}

func withTables(tb *syzygy.Tablebase) Options {
	o := opts(1, 8)
	o.Tablebases = mind.DefaultTablebases(tb)
	return o
}

// A capture into the tables gives its node the tables' value instead of
// the network's: the uniform network thinks every position even, the
// tables know Qxd2+ wins, and the node needs no children.
func TestMCTSTakesWDLValues(t *testing.T) {
	tb := openTables(t)
	p := mustFEN(t, "8/8/8/3k4/8/8/3r4/K2QR3 w - - 0 1") // five pieces; Qxd2+ leaves KQRvK
	s := newUniform(withTables(tb))
	var last mind.Info
	res := s.Search(p, timeman.Limits{Nodes: 300}, func(i mind.Info) { last = i })
	require.NoError(t, res.Err)
	assert.Equal(t, "d1d2", res.Best.UCI(false))
	assert.InDelta(t, 1.0, res.Q, 1e-9, "every visit of Qxd2 is a tablebase win")
	assert.Greater(t, last.TBHits, uint64(0))

	tr := s.tree
	var qxd2 *node
	tbNodes, evaluated := 0, 0
	for i := range tr.size() {
		nd := tr.at(int32(i))
		if nd.tablebase() {
			tbNodes++
			assert.Zero(t, nd.count, "a tablebase node has no children")
			assert.Equal(t, provenNone, nd.proven, "and is no proven mate")
		}
		if i > 0 && nd.move.UCI(false) == "d1d2" && nd.count == 0 && nd.state == stateTBWin {
			qxd2 = nd
		}
		if nd.state == stateExpanded {
			evaluated++
		}
	}
	require.NotNil(t, qxd2)
	assert.Greater(t, qxd2.n, int32(100), "visited as the best move, without the network")
	assert.Equal(t, uint64(tbNodes), last.TBHits)
	assert.Less(t, res.Evals, uint64(300-qxd2.n+1), "its visits cost no network run")

	// Without tables the same search knows nothing of it.
	s = newUniform(opts(1, 8))
	res = s.Search(p, timeman.Limits{Nodes: 300}, func(i mind.Info) { last = i })
	assert.Less(t, res.Q, 0.5)
	assert.Zero(t, last.TBHits)
}

// At a root inside the tables only the moves that keep the result are
// searched: under a high fifty-move counter, the quickest to zero.
func TestMCTSRootFilteredByDTZ(t *testing.T) {
	tb := openTables(t)
	p := mustFEN(t, "8/8/8/4k3/8/8/8/KR6 w - - 70 1") // only Kb2 and Re1+ win for certain
	s := newUniform(withTables(tb))
	s.SetOptions(func() Options { o := withTables(tb); o.MultiPV = 5; return o }())
	seen := map[string]bool{}
	res := s.Search(p, timeman.Limits{Nodes: 200}, func(i mind.Info) { seen[i.PV[0].UCI(false)] = true })
	require.NoError(t, res.Err)
	assert.Contains(t, []string{"a1b2", "b1e1"}, res.Best.UCI(false))
	for m := range seen {
		assert.Contains(t, []string{"a1b2", "b1e1"}, m, "only the preserving moves are reported")
	}

	// A drawn KRvKR: the moves that lose the rook are never chosen.
	p = mustFEN(t, "8/8/8/8/3k4/8/2r5/1R2K3 w - - 0 1")
	for range 3 {
		res = newUniform(withTables(tb)).Search(p, timeman.Limits{Nodes: 100}, nil)
		assert.NotContains(t, []string{"b1c1", "b1b2"}, res.Best.UCI(false))
	}

	// searchmoves narrows the choice further.
	p = mustFEN(t, "8/8/8/4k3/8/8/8/KR6 w - - 70 1")
	rh1, _ := movegen.ParseUCI(p, "b1h1")
	rb8, _ := movegen.ParseUCI(p, "b1b8")
	res = newUniform(withTables(tb)).Search(p, timeman.Limits{Nodes: 100, Moves: []board.Move{rh1, rb8}}, nil)
	assert.Equal(t, "b1h1", res.Best.UCI(false), "dtz 31 beats dtz 33")
}

// Changing the tables drops the tree, whose values came from the others.
func TestMCTSTablesChangeDropsTree(t *testing.T) {
	tb := openTables(t)
	s := newUniform(opts(1, 8))
	p := mustFEN(t, "8/8/8/3k4/8/8/3r4/K2QR3 w - - 0 1")
	s.Search(p, timeman.Limits{Nodes: 50}, nil)
	require.NotNil(t, s.tree)
	s.SetShared(mind.Shared{Threads: 1, MultiPV: 1, Tablebases: mind.DefaultTablebases(tb)})
	assert.Nil(t, s.tree)
}

// At a root inside the tables the score reported is the tables' (as the
// alpha-beta mind reports it), not the network's guess: the uniform
// network thinks every position even.
func TestMCTSReportsTablebaseScoreAtRoot(t *testing.T) {
	tb := openTables(t)
	for _, tc := range []struct {
		name, fen string
		cp        int
	}{
		{"won", "8/8/8/4k3/8/8/8/KR6 w - - 0 1", syzygy.WinCentipawns},
		{"lost", "8/8/8/4k3/8/8/8/KR6 b - - 0 1", -syzygy.WinCentipawns},
		{"drawn", "8/8/8/8/3k4/8/2r5/1R2K3 w - - 0 1", 0},
		{"cursed", "8/8/8/4k3/8/8/8/KR6 w - - 90 1", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var infos []mind.Info
			res := newUniform(withTables(tb)).Search(mustFEN(t, tc.fen), timeman.Limits{Nodes: 100}, func(i mind.Info) { infos = append(infos, i) })
			require.NoError(t, res.Err)
			require.NotEmpty(t, infos)
			last := infos[len(infos)-1]
			if tc.name == "cursed" {
				// A win the fifty-move counter may spoil: a few centipawns.
				assert.False(t, last.Score.Mate)
				assert.True(t, last.Score.Value >= 3 && last.Score.Value <= 200, "cp %d", last.Score.Value)
				return
			}
			assert.Equal(t, mind.CP(tc.cp), last.Score)
			assert.Equal(t, mind.CP(tc.cp), res.Score)
		})
	}

	// Outside the tables the network's value is reported as before.
	res := newUniform(withTables(tb)).Search(mustFEN(t, "8/8/8/3k4/8/8/3r4/K2QR3 w - - 0 1"), timeman.Limits{Nodes: 100}, nil)
	assert.Equal(t, mind.CP(QToCentipawns(res.Q)), res.Score)
}
