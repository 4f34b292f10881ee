package uci

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twofold-chess/twofold/azero/onnx"
	"github.com/twofold-chess/twofold/board"
	"github.com/twofold-chess/twofold/mind"
	"github.com/twofold-chess/twofold/movegen"
	"github.com/twofold-chess/twofold/search"
)

func TestUCIListsEveryOption(t *testing.T) {
	out := session(t, "uci")
	require.GreaterOrEqual(t, len(out), 4)
	assert.Regexp(t, `^id name Twofold \S+$`, out[0])
	assert.Regexp(t, `^id author \S`, out[1])
	assert.Equal(t, "uciok", out[len(out)-1])

	want := []string{
		"option name Hash type spin default 16 min 1 max 65536",
		"option name Threads type spin default 1 min 1 max 256",
		"option name MultiPV type spin default 1 min 1 max 256",
		"option name Ponder type check default false",
		"option name Move Overhead type spin default 10 min 0 max 5000",
		"option name Clear Hash type button",
		"option name UCI_Chess960 type check default false",
		"option name UCI_ShowWDL type check default false",
		"option name SyzygyPath type string default <empty>",
		"option name SyzygyProbeDepth type spin default 1 min 1 max 100",
		"option name Syzygy50MoveRule type check default true",
		"option name SyzygyProbeLimit type spin default 7 min 0 max 7",
		"option name Skill Level type spin default 20 min 0 max 20",
		"option name UCI_LimitStrength type check default false",
		"option name UCI_Elo type spin default 1500 min 1320 max 2800",
		"option name Difficulty type combo default Max var Easy var Medium var Hard var Max",
		"option name EvalFile type string default <default>",
		"option name Use NNUE type check default true",
		"option name Search type combo default AlphaBeta var AlphaBeta var MCTS",
		"option name NetworkFile type string default <default>",
		"option name OnnxRuntimeLib type string default ",
		"option name CPuct type string default 1.25",
		"option name CPuctBase type string default 19652",
		"option name FPUReduction type string default 0.3",
		"option name PolicyTemperature type string default 1.4",
		"option name MCTSBatchSize type spin default 16 min 1 max 256",
		"option name NNCacheSize type spin default 200000 min 0 max 50000000",
		"option name RamLimitMb type spin default 1024 min 1 max 65536",
		"option name OwnBook type check default false",
		"option name BookFile type string default ",
	}
	if !onnx.Supported {
		// An AlphaBeta-only build (CGO_ENABLED=0): Search offers AlphaBeta
		// alone and the MCTS options are left out.
		mctsOnly := regexp.MustCompile(`^option name (NetworkFile|OnnxRuntimeLib|CPuct|CPuctBase|FPUReduction|PolicyTemperature|MCTSBatchSize|NNCacheSize|RamLimitMb) `)
		want = slices.DeleteFunc(want, mctsOnly.MatchString)
		want[slices.Index(want, "option name Search type combo default AlphaBeta var AlphaBeta var MCTS")] = "option name Search type combo default AlphaBeta var AlphaBeta"
	}
	var got []string
	for _, l := range out {
		if strings.HasPrefix(l, "option ") {
			got = append(got, l)
		}
	}
	assert.Equal(t, want, got, "the options in Stockfish's and Lc0's order")

	// The UCI grammar for each declaration, with defaults inside their range.
	decl := regexp.MustCompile(`^option name (.+?) type (check|spin|combo|button|string)(?: default (\S*))?(?: min (-?\d+) max (-?\d+))?((?: var \S+)*)$`)
	for _, l := range got {
		m := decl.FindStringSubmatch(l)
		require.NotNil(t, m, l)
		name, kind, def := m[1], m[2], m[3]
		switch kind {
		case "button":
			assert.NotContains(t, l, " default ", name)
		case "check":
			assert.Contains(t, []string{"true", "false"}, def, name)
		case "spin":
			require.NotEmpty(t, m[4], "%s: spin without min/max", name)
			lo, _ := strconv.Atoi(m[4])
			hi, _ := strconv.Atoi(m[5])
			d, err := strconv.Atoi(def)
			require.NoError(t, err, name)
			assert.True(t, lo <= d && d <= hi, "%s: default %d outside %d..%d", name, d, lo, hi)
		case "combo":
			assert.Contains(t, strings.Fields(strings.ReplaceAll(m[6], " var ", " ")), def, name)
		}
	}
	// Nothing but id, a blank line, options and uciok.
	for _, l := range out[2 : len(out)-1] {
		assert.True(t, l == "" || strings.HasPrefix(l, "option name "), l)
	}
}

// Each searcher declares its own options; the loop lists every one of them,
// once.
func TestEverySearcherOptionIsListed(t *testing.T) {
	e, _ := newEngine(t)
	own := e.classical.Declare()
	if onnx.Supported {
		own = append(own, e.mcts.settings.Declare()...)
	}
	for _, o := range own {
		n := 0
		for _, l := range e.options {
			if l.Name == o.Name {
				n++
				assert.Equal(t, o.Kind, l.Kind, o.Name)
				assert.Equal(t, o.Default, l.Default, o.Name)
			}
		}
		assert.Equal(t, 1, n, "%s listed once", o.Name)
	}
}

func TestSetOptionNamesAndValues(t *testing.T) {
	// Names and values are case-insensitive; names may contain spaces.
	out := session(t,
		"setoption name move overhead value 50",
		"setoption name MOVE OVERHEAD value 0",
		"setoption name hash value 32",
		"setoption name Clear Hash",
		"setoption name clear hash",
		"setoption name threads value 1",
		"setoption name uci_showwdl value TRUE",
		"setoption name Ponder value true",
		"setoption name difficulty value max",
		"setoption name search value alphabeta",
		"setoption name UCI_Elo value 1900",
		"setoption name use nnue value FALSE",
		"setoption name evalfile value <empty>",
		"setoption name EvalFile value",
		"setoption name EvalFile value <Default>",
		"isready",
	)
	assert.Equal(t, []string{"readyok"}, out)

	bad := []string{
		"setoption name Hash value 0",
		"setoption name Hash value abc",
		"setoption name Hash value",
		"setoption name Threads value 1000",
		"setoption name Move Overhead value -1",
		"setoption name MultiPV value 2.5",
		"setoption name UCI_ShowWDL value yes",
		"setoption name Difficulty value Impossible",
		"setoption name Skill Level value 21",
		"setoption name UCI_Elo value 999",
		"setoption name Search value Random",
		"setoption name Use NNUE value maybe",
		"setoption name EvalFile value /no/such/network.nnue",
		"setoption name CPuct value -1",
		"setoption name CPuctBase value x",
		"setoption name FPUReduction value 9",
		"setoption name MCTSBatchSize value 0",
		"setoption name NNCacheSize value -5",
		"setoption name RamLimitMb value 0",
		"setoption name NoSuchOption value 1",
		"setoption name Move  Overheadx value 5",
		"setoption name",
		"setoption value 5",
		"setoption",
	}
	out = session(t, append(bad, "isready")...)
	require.Len(t, out, len(bad)+1, "%q", out)
	for i, l := range out[:len(bad)] {
		assert.True(t, strings.HasPrefix(l, "info string setoption"), "%s -> %q", bad[i], l)
	}
	assert.Equal(t, "readyok", out[len(bad)])
}

// Options set by setoption reach the search.
func TestOptionsTakeEffect(t *testing.T) {
	// MultiPV, set in lower case.
	out := played(t, "setoption name multipv value 3", "go depth 4")
	multi := map[string]bool{}
	for _, l := range out {
		if m := regexp.MustCompile(` multipv (\d+) `).FindStringSubmatch(l); m != nil {
			multi[m[1]] = true
		}
	}
	assert.Equal(t, map[string]bool{"1": true, "2": true, "3": true}, multi)

	// The strength options cap the depth searched.
	for _, c := range []struct {
		opts     []string
		maxDepth int
	}{
		{[]string{"setoption name Skill Level value 0"}, 1},
		{[]string{"setoption name UCI_LimitStrength value true", "setoption name UCI_Elo value 1320"}, search.EloStrength(1320).Depth},
		{[]string{"setoption name difficulty value EASY"}, 2},
	} {
		opts := c.opts
		out := played(t, append(opts, "go depth 8")...)
		depths := infoDepths(out)
		require.NotEmpty(t, depths, "%q", opts)
		for _, d := range depths {
			assert.LessOrEqual(t, d, c.maxDepth, "%q", opts)
		}
		checkBestmove(t, board.StartPosition(), out[len(out)-1])
	}
	// Difficulty Max with the default skill is full strength again.
	out = played(t, "setoption name Difficulty value Easy", "setoption name Difficulty value Max", "go depth 6")
	depths := infoDepths(out)
	assert.Equal(t, 6, depths[len(depths)-1])

	// Two threads still give one legal bestmove.
	out = played(t, "setoption name Threads value 2", "position startpos moves d2d4 g8f6", "go depth 6")
	require.Len(t, bestmoves(out), 1)
	p := board.StartPosition()
	for _, s := range []string{"d2d4", "g8f6"} {
		m, _ := movegen.ParseUCI(p, s)
		p.Make(m)
	}
	checkBestmove(t, p, bestmoves(out)[0])
}

func infoDepths(lines []string) []int {
	var ds []int
	re := regexp.MustCompile(`^info depth (\d+) seldepth`)
	for _, l := range lines {
		if m := re.FindStringSubmatch(l); m != nil {
			d, _ := strconv.Atoi(m[1])
			ds = append(ds, d)
		}
	}
	return ds
}

func TestEveryGoGetsExactlyOneBestmove(t *testing.T) {
	gos := []string{
		"go depth 2",
		"go nodes 2000",
		"go movetime 30",
		"go wtime 500 btime 500 winc 10 binc 10",
		"go wtime 300 btime 300 movestogo 1",
		"go mate 1",
		"go depth 3 searchmoves g1f3 b1c3",
		"go infinite", // stopped by the next go
		"go",          // no limit: stopped by the next command
		"go depth 5",
		"go ponder wtime 1000 btime 1000", // stopped by the end of input
	}
	var cmds []string
	for _, g := range gos {
		cmds = append(cmds, "position startpos", g)
	}
	out := session(t, cmds...)
	bms := bestmoves(out)
	require.Len(t, bms, len(gos), "%q", bms)
	for _, b := range bms {
		checkBestmove(t, board.StartPosition(), b)
	}
	assert.Regexp(t, `^bestmove (g1f3|b1c3)( |$)`, bms[6], "searchmoves")
	// Nothing follows the last bestmove.
	assert.True(t, strings.HasPrefix(out[len(out)-1], "bestmove"))
}

func TestGoAndStop(t *testing.T) {
	l := startLive(t)
	l.send("position startpos moves e2e4", "go infinite")
	l.waitFor(`^info depth 3 `, 10*time.Second)
	l.quiet(`^bestmove`, 300*time.Millisecond)
	l.send("stop")
	bm, _ := l.waitFor(`^bestmove`, 5*time.Second)
	p := board.StartPosition()
	p.Make(mustMove(t, p, "e2e4"))
	checkBestmove(t, p, bm)
	l.quiet(`^bestmove`, 200*time.Millisecond)
	l.quit()
}

// A "stop" right behind the "go" (as GUIs send when the user clicks fast)
// must still end the search.
func TestStopRightAfterGo(t *testing.T) {
	l := startLive(t)
	for i := 0; i < 20; i++ {
		l.send("go infinite", "stop")
		bm, _ := l.waitFor(`^bestmove`, 5*time.Second)
		checkBestmove(t, board.StartPosition(), bm)
	}
	l.send("isready")
	_, before := l.waitFor(`^readyok$`, 5*time.Second)
	assert.Empty(t, bestmoves(before), "one bestmove per go")
	l.quit()
}

func TestIsReadyWhileSearching(t *testing.T) {
	// As one batch: readyok is written before the bestmove that "stop" releases.
	out := session(t, "go infinite", "isready", "stop")
	ready, best := indexOf(out, "readyok"), indexOf(out, "bestmove")
	require.GreaterOrEqual(t, ready, 0, "%q", out)
	require.GreaterOrEqual(t, best, 0, "%q", out)
	assert.Less(t, ready, best)
	assert.Len(t, bestmoves(out), 1)

	// Live: readyok comes at once while the search goes on.
	l := startLive(t)
	l.send("go infinite")
	l.waitFor(`^info depth 2 `, 10*time.Second)
	l.send("isready")
	_, before := l.waitFor(`^readyok$`, 2*time.Second)
	assert.Empty(t, bestmoves(before))
	l.quiet(`^bestmove`, 200*time.Millisecond)
	l.send("stop")
	l.waitFor(`^bestmove`, 5*time.Second)
	l.quit()
}

func TestPonderAndPonderhit(t *testing.T) {
	l := startLive(t)
	l.send("position startpos moves e2e4 e7e5", "go ponder wtime 2000 btime 2000")
	// Pondering: no bestmove until ponderhit, however long it takes.
	l.quiet(`^bestmove`, 500*time.Millisecond)
	l.send("ponderhit")
	bm, _ := l.waitFor(`^bestmove`, 5*time.Second)
	p := board.StartPosition()
	p.Make(mustMove(t, p, "e2e4"))
	p.Make(mustMove(t, p, "e7e5"))
	checkBestmove(t, p, bm)

	// ponderhit right behind go ponder is not lost.
	for i := 0; i < 10; i++ {
		l.send("go ponder wtime 300 btime 300", "ponderhit")
		l.waitFor(`^bestmove`, 5*time.Second)
	}

	// "stop" ends pondering too (the opponent played another move).
	l.send("go ponder wtime 1000 btime 1000")
	l.quiet(`^bestmove`, 200*time.Millisecond)
	l.send("stop")
	l.waitFor(`^bestmove`, 5*time.Second)

	// Pondering on a position with a mate found at once still waits.
	l.send("position fen 6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", "go ponder wtime 1000 btime 1000")
	l.quiet(`^bestmove`, 500*time.Millisecond)
	l.send("ponderhit")
	bm, _ = l.waitFor(`^bestmove`, 5*time.Second)
	assert.Regexp(t, `^bestmove d1d8( |$)`, bm)
	l.quit()
}

func TestQuitWhileSearching(t *testing.T) {
	l := startLive(t)
	l.send("go infinite")
	l.waitFor(`^info depth 1 `, 10*time.Second)
	l.send("quit")
	l.waitFor(`^bestmove`, 5*time.Second)
	select {
	case err := <-l.done:
		require.NoError(t, err)
		l.done <- err
	case <-time.After(5 * time.Second):
		t.Fatal("quit did not end the session")
	}
}

var infoRe = regexp.MustCompile(`^info depth (\d+) seldepth (\d+) multipv (\d+) score (cp -?\d+|mate -?\d+)( lowerbound| upperbound)?( wdl (\d+) (\d+) (\d+))? nodes (\d+) nps (\d+) hashfull (\d+) tbhits (\d+) time (\d+) pv((?: [a-h][1-8][a-h][1-8][qrbn]?)+)$`)

// currmove reports come only after 3 s, so only on a slow (race) run.
var currmoveRe = regexp.MustCompile(`^info depth \d+ currmove [a-h][1-8][a-h][1-8][qrbn]? currmovenumber \d+$`)

func TestInfoLines(t *testing.T) {
	fen := "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10"
	out := played(t, "position fen "+fen, "go depth 6")
	p, err := movegen.ParseFEN(fen)
	require.NoError(t, err)
	depth := 0
	var lastNodes uint64
	for _, l := range out {
		if !strings.HasPrefix(l, "info") || currmoveRe.MatchString(l) {
			continue
		}
		m := infoRe.FindStringSubmatch(l)
		require.NotNil(t, m, "malformed info line %q", l)
		d, _ := strconv.Atoi(m[1])
		sel, _ := strconv.Atoi(m[2])
		hashfull, _ := strconv.Atoi(m[12])
		nodes, _ := strconv.ParseUint(m[10], 10, 64)
		assert.Equal(t, depth+1, d, "depths in order: %q", l)
		depth = d
		assert.GreaterOrEqual(t, sel, 1, l)
		assert.Equal(t, "1", m[3], l)
		assert.Empty(t, m[6], "no wdl unless asked: %q", l)
		assert.True(t, hashfull >= 0 && hashfull <= 1000, l)
		assert.GreaterOrEqual(t, nodes, lastNodes, l)
		lastNodes = nodes
		// The pv is a legal line from the position.
		q := p.Clone()
		for _, s := range strings.Fields(m[15]) {
			mv, err := movegen.ParseUCI(q, s)
			require.NoError(t, err, "pv %q", m[15])
			q.Make(mv)
		}
	}
	assert.Equal(t, 6, depth)
	checkBestmove(t, p, out[len(out)-1])
	// The bestmove is the first move of the last pv.
	last := infoRe.FindStringSubmatch(out[len(out)-2])
	require.NotNil(t, last)
	assert.Equal(t, strings.Fields(last[15])[0], bestmoveRe.FindStringSubmatch(out[len(out)-1])[1])

	// A mate is announced as "score mate N".
	out = played(t, "position fen 6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", "go depth 3")
	assert.Contains(t, out[len(out)-2], " score mate 1 ")
	assert.Regexp(t, `^bestmove d1d8( |$)`, out[len(out)-1])
	out = played(t, "position fen k7/8/1K6/8/8/8/8/7R b - - 0 1", "go depth 4")
	assert.Contains(t, out[len(out)-2], " score mate -1 ")
}

func TestShowWDL(t *testing.T) {
	out := played(t, "setoption name UCI_ShowWDL value true", "position startpos moves e2e4", "go depth 5")
	n := 0
	for _, l := range out {
		if !strings.HasPrefix(l, "info depth") {
			continue
		}
		m := infoRe.FindStringSubmatch(l)
		require.NotNil(t, m, l)
		require.NotEmpty(t, m[6], "no wdl in %q", l)
		w, _ := strconv.Atoi(m[7])
		d, _ := strconv.Atoi(m[8])
		lo, _ := strconv.Atoi(m[9])
		assert.Equal(t, 1000, w+d+lo, l)
		n++
	}
	assert.Equal(t, 5, n)

	out = played(t, "setoption name UCI_ShowWDL value true", "position fen 6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", "go depth 2")
	assert.Contains(t, out[len(out)-2], " score mate 1 wdl 1000 0 0 ")
	out = played(t, "setoption name UCI_ShowWDL value true", "setoption name UCI_ShowWDL value false", "go depth 2")
	assert.NotContains(t, strings.Join(out, "\n"), " wdl ")
}

func TestWDLModel(t *testing.T) {
	prevW := -1
	for score := -1500; score <= 1500; score += 25 {
		w, d, l := wdl(mind.CP(score))
		require.Equal(t, 1000, w+d+l, score)
		require.True(t, w >= 0 && d >= 0 && l >= 0, "score %d: %d %d %d", score, w, d, l)
		// Symmetric, and the win share grows with the score.
		w2, d2, l2 := wdl(mind.CP(-score))
		assert.Equal(t, [3]int{w, d, l}, [3]int{l2, d2, w2}, score)
		assert.GreaterOrEqual(t, w, prevW, score)
		prevW = w
	}
	w, d, l := wdl(mind.CP(0))
	assert.Equal(t, w, l)
	assert.Greater(t, d, 500)
	assert.Equal(t, [3]int{1000, 0, 0}, func() [3]int { w, d, l := wdl(mind.MateIn(1)); return [3]int{w, d, l} }())
	assert.Equal(t, [3]int{0, 0, 1000}, func() [3]int { w, d, l := wdl(mind.MateIn(-1)); return [3]int{w, d, l} }())
}

func TestNoLegalMoveGivesNullBestmove(t *testing.T) {
	for _, pos := range []string{
		"position startpos moves f2f3 e7e5 g2g4 d8h4", // checkmated
		"position fen k7/8/1Q6/8/8/8/8/2K5 b - - 0 1", // stalemated
	} {
		out := session(t, pos, "go depth 3")
		assert.Equal(t, []string{"bestmove 0000"}, out, pos)
		out = session(t, pos, "go wtime 1000 btime 1000")
		assert.Equal(t, []string{"bestmove 0000"}, out, pos)
		out = session(t, pos, "go infinite", "isready", "stop")
		assert.Equal(t, []string{"readyok", "bestmove 0000"}, out, pos)
	}
}

func TestBadGoParameters(t *testing.T) {
	for _, g := range []string{
		"go wtime abc",
		"go depth",
		"go depth x movetime 50",
		"go movetime -5 depth 2",
		"go nodes 1e6 depth 2",
		"go frobnicate depth 2",
		"go searchmoves e2e5 depth 2",
		"go searchmoves e7e5",
	} {
		out := session(t, "position startpos", g)
		require.GreaterOrEqual(t, len(out), 2, "%s: %q", g, out)
		if g != "go movetime -5 depth 2" {
			assert.True(t, strings.HasPrefix(out[0], "info string go:"), "%s -> %q", g, out[0])
		}
		assert.Len(t, bestmoves(out), 1, "%s: %q", g, out)
		checkBestmove(t, board.StartPosition(), out[len(out)-1])
	}
}

func TestParseGo(t *testing.T) {
	p := board.StartPosition()
	lim, err := parseGo(p, strings.Fields("wtime 60000 btime 50000 winc 1000 binc 500 movestogo 20"))
	require.NoError(t, err)
	assert.Equal(t, 60*time.Second, lim.Time[board.White])
	assert.Equal(t, 50*time.Second, lim.Time[board.Black])
	assert.Equal(t, time.Second, lim.Inc[board.White])
	assert.Equal(t, 500*time.Millisecond, lim.Inc[board.Black])
	assert.Equal(t, 20, lim.MovesToGo)

	lim, err = parseGo(p, strings.Fields("depth 7 nodes 12345 mate 3 movetime 250 ponder"))
	require.NoError(t, err)
	assert.Equal(t, search.Limits{Depth: 7, Nodes: 12345, Mate: 3, MoveTime: 250 * time.Millisecond, Ponder: true}, lim)

	lim, err = parseGo(p, strings.Fields("searchmoves e2e4 g1f3 infinite"))
	require.NoError(t, err)
	assert.True(t, lim.Infinite)
	assert.Equal(t, []board.Move{mustMove(t, p, "e2e4"), mustMove(t, p, "g1f3")}, lim.Moves)

	lim, err = parseGo(p, nil)
	require.NoError(t, err)
	assert.Equal(t, search.Limits{}, lim)

	// A clock at or below zero means move now (the smallest clock); malformed
	// parts are reported and skipped.
	lim, err = parseGo(p, strings.Fields("wtime -100 depth 0"))
	require.NoError(t, err)
	assert.Equal(t, time.Nanosecond, lim.Time[board.White])
	assert.Equal(t, 1, lim.Depth)
	lim, err = parseGo(p, strings.Fields("wtime abc depth 4 bogus searchmoves e2e5 e2e4"))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "wtime")
	assert.Contains(t, err.Error(), "bogus")
	assert.Contains(t, err.Error(), "searchmoves")
	assert.Equal(t, 4, lim.Depth)
	assert.Equal(t, []board.Move{mustMove(t, p, "e2e4")}, lim.Moves)
	_, err = parseGo(p, strings.Fields("depth"))
	require.Error(t, err)
}

func TestEvalCommand(t *testing.T) {
	out := session(t, "position startpos moves e2e4", "eval")
	require.NotEmpty(t, out)
	// The hand-crafted breakdown and total, then the embedded network's
	// score and name (nnue_test.go has the rest).
	require.GreaterOrEqual(t, len(out), 3)
	assert.True(t, strings.HasPrefix(out[len(out)-3], "Final evaluation"), "%q", out)
	assert.True(t, strings.HasPrefix(out[len(out)-2], "NNUE evaluation: "), "%q", out)
	assert.True(t, strings.HasPrefix(out[len(out)-1], "Network: <default>, "), "%q", out)
	assert.Greater(t, len(out), 3, "a breakdown, not just the total")
}

func TestBenchCommand(t *testing.T) {
	out := session(t, "bench 2", "isready")
	require.GreaterOrEqual(t, len(out), 3)
	assert.Contains(t, out, "readyok", "answered while bench runs")
	assert.Regexp(t, `^\d+ nodes \d+ nps$`, out[len(out)-1], "the end of input waits for bench")
	assert.Contains(t, strings.Join(out, "\n"), "Nodes searched")

	for _, bad := range []string{"bench 0", "bench x", "bench 500"} {
		out := session(t, bad)
		assert.Len(t, out, 1, bad)
		assert.True(t, strings.HasPrefix(out[0], "info string bench:"), "%s -> %q", bad, out)
	}
}

func TestDisplayAndNewGame(t *testing.T) {
	out := played(t, "position startpos moves e2e4 f7f6 d1h5", "d")
	assert.Equal(t, "rnbqkbnr/ppppp1pp/5p2/7Q/4P3/8/PPPP1PPP/RNB1KBNR b KQkq - 1 2", fenOf(t, out))
	assert.Contains(t, out, "Checkers: h5")
	assert.Contains(t, strings.Join(out, "\n"), " | Q | 5")

	out = played(t, "position startpos moves e2e4", "ucinewgame", "d")
	assert.Equal(t, board.StartFEN, fenOf(t, out))

	// The search runs on the position set last.
	out = played(t, "position fen 6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", "position startpos moves e2e4", "go depth 2")
	p := board.StartPosition()
	p.Make(mustMove(t, p, "e2e4"))
	checkBestmove(t, p, out[len(out)-1])

	// debug and register are accepted silently.
	assert.Equal(t, []string{"readyok"}, session(t, "debug on", "register later", "isready"))
}

// Chess960: the bestmove of a castling position is written king-takes-rook.
func TestChess960Bestmove(t *testing.T) {
	fen := "position fen 1r2k3/8/8/8/8/8/8/R3K2R w KQ - 0 1"
	out := played(t, "setoption name UCI_Chess960 value true", fen, "go depth 3 searchmoves e1h1 e1a1")
	assert.Regexp(t, `^bestmove e1(h1|a1)( |$)`, out[len(out)-1])
	out = played(t, fen, "go depth 3 searchmoves e1g1 e1c1")
	assert.Regexp(t, `^bestmove e1(g1|c1)( |$)`, out[len(out)-1])
}

func mustMove(t *testing.T, p *board.Position, s string) board.Move {
	t.Helper()
	m, err := movegen.ParseUCI(p, s)
	require.NoError(t, err)
	return m
}

// A search stopped at once (stop right behind go, or the end of input) still
// finishes its first iteration: the mate in 1 is played, not the first
// legal move.
func TestStoppedAtOnceStillSearchesDepthOne(t *testing.T) {
	const pos = "position fen 6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1"
	for _, cmds := range [][]string{
		{pos, "go infinite", "stop"},
		{pos, "go depth 20"},
		{pos, "go ponder wtime 1000 btime 1000", "stop"},
		{pos, "go wtime 1000 btime 1000", "quit"},
	} {
		out := session(t, cmds...)
		require.NotEmpty(t, out)
		assert.Regexp(t, `^bestmove d1d8( |$)`, out[len(out)-1], "%q", cmds)
		assert.Len(t, bestmoves(out), 1)
	}
}
