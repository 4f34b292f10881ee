package uci

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twofold-chess/twofold/azero"
)

// tablesDir holds every 3- and 4-piece table (package syzygy's test data).
const tablesDir = "../syzygy/testdata/tables"

var tbhitsRe = regexp.MustCompile(` tbhits (\d+) `)

// lastTBHits is the tbhits of the last info line before the first bestmove.
func lastTBHits(t *testing.T, out []string) int {
	t.Helper()
	n := -1
	for _, l := range out {
		if strings.HasPrefix(l, "bestmove") {
			break
		}
		if m := tbhitsRe.FindStringSubmatch(l); m != nil && strings.HasPrefix(l, "info depth") {
			n, _ = strconv.Atoi(m[1])
		}
	}
	require.GreaterOrEqual(t, n, 0, "no info line with tbhits in %q", out)
	return n
}

// A GUI sets SyzygyPath: the engine says what it found, and the search
// reports tbhits and the tables' score.
func TestSyzygyPathAndTBHits(t *testing.T) {
	out := played(t, "setoption name SyzygyPath value "+tablesDir,
		"position fen 8/8/8/4k3/8/8/8/KR6 w - - 0 1", "go depth 6")
	assert.Equal(t, "info string Found 35 WDL and 35 DTZ tablebase files (up to 4-man) in "+tablesDir, out[0])
	assert.Greater(t, lastTBHits(t, out), 0)
	assert.Contains(t, out[len(out)-2], " score cp 20000 ", "a won root scores cp 20000")

	// A five-piece position probes the four-piece tables below the root.
	out = played(t, "setoption name SyzygyPath value "+tablesDir,
		"position fen 8/8/3k4/3r4/8/3KR3/3P4/8 w - - 0 1", "go depth 8")
	assert.Greater(t, lastTBHits(t, out), 0)

	// SyzygyProbeLimit 0 and the empty path turn the probes off.
	for _, off := range []string{"setoption name SyzygyProbeLimit value 0", "setoption name SyzygyPath value <empty>", "setoption name SyzygyPath value"} {
		out = played(t, "setoption name SyzygyPath value "+tablesDir, off,
			"position fen 8/8/3k4/3r4/8/3KR3/3P4/8 w - - 0 1", "go depth 8")
		assert.Equal(t, 0, lastTBHits(t, out), off)
	}
	// Without a path every line still says tbhits 0.
	out = played(t, "position fen 8/8/3k4/3r4/8/3KR3/3P4/8 w - - 0 1", "go depth 3")
	assert.Equal(t, 0, lastTBHits(t, out))
}

// The other options reach the search: SyzygyProbeDepth holds the probes
// of the largest tables back to the depth it names, Syzygy50MoveRule false
// counts a cursed win as a win.
func TestSyzygyOptionsReachTheSearch(t *testing.T) {
	e, out := newEngine(t)
	e.Execute("setoption name SyzygyPath value " + tablesDir)
	e.Execute("setoption name SyzygyProbeDepth value 7")
	e.Execute("setoption name Syzygy50MoveRule value false")
	e.Execute("setoption name SyzygyProbeLimit value 3")
	tb := e.shared.Tablebases
	require.NotNil(t, tb.Tables)
	assert.Equal(t, 7, tb.ProbeDepth)
	assert.False(t, tb.Rule50)
	assert.Equal(t, 3, tb.ProbeLimit)
	assert.Equal(t, 3, tb.Cardinality())
	out()

	// The cursed win of the root: 80 plies on the counter, DTZ 29.
	e.Execute("setoption name SyzygyProbeLimit value 7")
	e.Execute("position fen 8/8/8/4k3/8/8/8/KR6 w - - 80 1")
	e.Execute("go depth 4")
	e.searching.Wait()
	lines := out()
	assert.Contains(t, lines[len(lines)-2], " score cp 20000 ", "a win without the rule")
	e.Execute("setoption name Syzygy50MoveRule value true")
	e.Execute("go depth 4")
	e.searching.Wait()
	lines = out()
	assert.Regexp(t, ` score cp ([3-9]|[1-9]\d) `, lines[len(lines)-2], "a cursed win is a few centipawns under the rule")
}

// A bad path or a corrupt table is an info string, and the search plays on.
func TestSyzygyBadPathAndCorruptTable(t *testing.T) {
	out := played(t, "setoption name SyzygyPath value /nonexistent/twofold-tb",
		"position fen 8/8/8/4k3/8/8/8/KQ6 w - - 0 1", "go depth 4")
	require.GreaterOrEqual(t, len(out), 2)
	assert.Regexp(t, `^info string SyzygyPath: .*/nonexistent/twofold-tb`, out[0])
	assert.Equal(t, "info string setoption: SyzygyPath: no tablebase files (.rtbw) found in /nonexistent/twofold-tb; tablebases off", out[1])
	assert.Regexp(t, `^bestmove [a-h][1-8][a-h][1-8]`, bestmoves(out)[0])

	dir := t.TempDir()
	for _, name := range []string{"KQvK.rtbw", "KQvK.rtbz", "KRvK.rtbw", "KRvK.rtbz"} {
		data, err := os.ReadFile(filepath.Join(tablesDir, name))
		require.NoError(t, err)
		if strings.HasPrefix(name, "KQvK") {
			data = data[:len(data)/3] // truncated
		}
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), data, 0o644))
	}
	path := dir + string(filepath.ListSeparator) + "/nonexistent/twofold-tb"
	out = played(t, "setoption name SyzygyPath value "+path,
		"position fen 8/8/8/4k3/8/8/8/KQ6 w - - 0 1", "go depth 5",
		"position fen 8/8/8/4k3/8/8/8/KR6 w - - 0 1", "go depth 5")
	assert.Regexp(t, `^info string SyzygyPath: .*/nonexistent/twofold-tb`, out[0])
	assert.Equal(t, "info string Found 2 WDL and 2 DTZ tablebase files (up to 3-man) in "+path, out[1])
	joined := strings.Join(out, "\n")
	assert.Regexp(t, `info string syzygy: table .*KQvK\.rtb[wz]: .*; searching on without it`, joined)
	require.Len(t, bestmoves(out), 2)
	assert.Contains(t, out[len(out)-2], " score cp 20000 ", "KRvK still served")
}

// MCTS probes the same tables, given at the next go.
func TestSyzygyWithMCTS(t *testing.T) {
	out := playedWith(t, withBackend(&azero.Uniform{}),
		"setoption name Search value MCTS",
		"setoption name SyzygyPath value "+tablesDir,
		"position fen 8/8/8/3k4/8/8/3r4/K2QR3 w - - 0 1", "go nodes 200")
	assert.Greater(t, lastTBHits(t, out), 0)
	assert.Equal(t, "bestmove d1d2", strings.Fields(bestmoves(out)[0])[0]+" "+strings.Fields(bestmoves(out)[0])[1])
}
