package uci

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twofold-chess/twofold/azero/onnx"
	"github.com/twofold-chess/twofold/azero/onnx/onnxtest"
)

func TestMCTSGoNodes(t *testing.T) {
	onnxtest.Open(t)
	l := startLive(t)
	defer l.quit()
	l.send("setoption name Search value MCTS")
	l.waitFor(`^info string MCTS with network <default>`, 5*time.Second)
	l.send("setoption name UCI_ShowWDL value true", "position startpos moves e2e4", "go nodes 400")
	line, before := l.waitFor(`^bestmove `, 10*time.Second)
	assert.Regexp(t, `^bestmove [a-h][1-8][a-h][1-8]`, line)
	require.NotEmpty(t, before)
	assert.Regexp(t, `^info depth \d+ seldepth \d+ multipv 1 score cp -?\d+ wdl \d+ \d+ \d+ nodes 400 nps \d+ tbhits 0 time \d+ pv( [a-h][1-8][a-h][1-8][qrbn]?)+$`, before[len(before)-1])
}

func TestMCTSFindsMateInOneAndSaysSo(t *testing.T) {
	onnxtest.Open(t)
	out := session(t,
		"setoption name Search value MCTS",
		"position fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1",
		"go movetime 5000",
	)
	assert.Equal(t, "bestmove a1a8", out[len(out)-1])
	assert.Contains(t, out[len(out)-2], "score mate 1")
}

func TestMCTSUnavailableFallsBackToAlphaBeta(t *testing.T) {
	if !onnx.Supported {
		t.Skip(onnx.ErrNotInBuild) // TestBuildWithoutMCTSSaysSo
	}
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.onnx")
	require.NoError(t, os.WriteFile(bad, []byte("garbage"), 0o644))
	// A missing library only matters before the runtime is loaded once in
	// this process; a bad network file is always caught.
	cases := [][]string{{"setoption name NetworkFile value " + bad, "setoption name Search value MCTS"}}
	if _, err := onnx.Open("", ""); err != nil {
		cases = append(cases, []string{"setoption name OnnxRuntimeLib value /nonexistent/libonnxruntime.so.1", "setoption name Search value MCTS"})
	} else {
		cases = append(cases, []string{"setoption name Search value MCTS", "setoption name NetworkFile value " + filepath.Join(dir, "absent.onnx")})
	}
	for _, c := range cases {
		out := session(t, append(c, "go depth 3")...)
		var errs []string
		for _, l := range out {
			if strings.HasPrefix(l, "info string setoption") {
				errs = append(errs, l)
			}
		}
		require.Len(t, errs, 1, "%q", out)
		assert.Contains(t, errs[0], "searching with AlphaBeta")
		// The classical searcher answers (it reports "hashfull").
		assert.Contains(t, strings.Join(out, "\n"), "hashfull")
		assert.Regexp(t, regexp.MustCompile(`bestmove \S+`), out[len(out)-1])
		// The search itself says so too, where a GUI shows it (see
		// noteMCTSFallback), before the first line of thinking.
		assert.Regexp(t, `^info string Search is MCTS but AlphaBeta is playing: .+`, afterSetoption(out), "%q", out)
	}
}

// afterSetoption returns the line after the last setoption answer: in the
// sessions above, the first line "go" printed.
func afterSetoption(out []string) string {
	first := ""
	for i, l := range out {
		if strings.HasPrefix(l, "info string setoption") && i+1 < len(out) {
			first = out[i+1]
		}
	}
	return first
}

// A failed MCTS is retried when NetworkFile or OnnxRuntimeLib changes, and
// the note at each "go" stops once MCTS plays or AlphaBeta is chosen.
func TestMCTSFallbackNoteUntilFixed(t *testing.T) {
	onnxtest.Open(t)
	absent := filepath.Join(t.TempDir(), "absent.onnx")
	out := session(t,
		"setoption name NetworkFile value "+absent,
		"setoption name Search value MCTS",
		"go depth 2",
		"setoption name NetworkFile value <default>",
		"go nodes 50",
		"setoption name Search value AlphaBeta",
		"go depth 2",
	)
	text := strings.Join(out, "\n")
	assert.Equal(t, 1, strings.Count(text, "AlphaBeta is playing"), "%q", out)
	assert.Contains(t, text, "info string MCTS with network <default>")
	assert.Equal(t, 3, strings.Count(text, "bestmove "))
}

// An AlphaBeta-only build (CGO_ENABLED=0 go test ./uci) declares Search
// with AlphaBeta alone and no MCTS options, and answers Search MCTS with
// the reason, at setoption and at each go.
func TestBuildWithoutMCTSSaysSo(t *testing.T) {
	if onnx.Supported {
		t.Skip("this build has MCTS")
	}
	out := session(t, "uci", "setoption name Search value MCTS", "go depth 2")
	text := strings.Join(out, "\n")
	assert.Contains(t, out, "option name Search type combo default AlphaBeta var AlphaBeta")
	assert.NotContains(t, text, "var MCTS")
	assert.NotContains(t, text, "option name NetworkFile")
	assert.Contains(t, out, "info string setoption: Search MCTS unavailable: MCTS is not in this build: built without cgo/ONNX Runtime; searching with AlphaBeta")
	assert.Contains(t, out, "info string Search is MCTS but AlphaBeta is playing: MCTS is not in this build: built without cgo/ONNX Runtime")
	assert.Regexp(t, `^bestmove [a-h][1-8][a-h][1-8]`, out[len(out)-1])
}

func TestMCTSStopPonderAndClock(t *testing.T) {
	onnxtest.Open(t)
	l := startLive(t)
	defer l.quit()
	l.send("setoption name Search value MCTS", "setoption name Threads value 2", "position startpos", "go infinite")
	time.Sleep(300 * time.Millisecond)
	l.send("stop")
	l.waitFor(`^bestmove `, 3*time.Second)

	l.send("position startpos moves e2e4 e7e5", "go ponder wtime 2000 btime 2000")
	l.quiet(`^bestmove`, 500*time.Millisecond)
	l.send("ponderhit")
	l.waitFor(`^bestmove `, 3*time.Second)

	start := time.Now()
	l.send("position startpos", "go wtime 1000 btime 1000 winc 0 binc 0")
	l.waitFor(`^bestmove `, 2*time.Second)
	assert.Less(t, time.Since(start), 900*time.Millisecond)
}

func TestMCTSNonFiniteOptionsAreRefusedAndSearchStillWorks(t *testing.T) {
	onnxtest.Open(t)
	var bad []string
	for _, name := range []string{"CPuct", "CPuctBase", "FPUReduction", "PolicyTemperature"} {
		for _, v := range []string{"NaN", "inf", "-inf"} {
			bad = append(bad, "setoption name "+name+" value "+v)
		}
	}
	out := played(t, append(append([]string{"setoption name Search value MCTS"}, bad...), "position startpos", "go nodes 300")...)
	refused := 0
	for _, l := range out {
		if strings.HasPrefix(l, "info string setoption") && strings.Contains(l, "wants a number") {
			refused++
		}
	}
	assert.Equal(t, len(bad), refused, "%q", out)
	assert.Regexp(t, `^bestmove [a-h][1-8][a-h][1-8]`, out[len(out)-1])
}

// RamLimitMb reaches the searcher: with 1 MiB of tree a search with a
// huge node limit ends at the budget, and "go infinite" still waits for
// stop.
func TestMCTSRamLimit(t *testing.T) {
	onnxtest.Open(t)
	l := startLive(t)
	defer l.quit()
	l.send("setoption name Search value MCTS", "setoption name RamLimitMb value 1", "position startpos", "go nodes 100000000")
	l.waitFor(`^bestmove [a-h][1-8][a-h][1-8]`, 60*time.Second)
	l.send("go infinite")
	l.quiet(`^bestmove`, 2*time.Second)
	l.send("stop")
	l.waitFor(`^bestmove [a-h][1-8][a-h][1-8]`, 3*time.Second)
}
