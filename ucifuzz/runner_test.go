package ucifuzz

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twofold-chess/twofold/movegen"
)

// The runner is tested against fake engines: this test binary, re-executed
// with fakeEnv naming a misbehaviour.
const fakeEnv = "UCIFUZZ_FAKE_ENGINE"

func TestMain(m *testing.M) {
	if mode := os.Getenv(fakeEnv); mode != "" {
		os.Exit(fakeEngine(mode))
	}
	os.Exit(m.Run())
}

// fakeEngine is a minimal UCI engine that plays its first legal move, with
// one misbehaviour selected by mode.
func fakeEngine(mode string) int {
	out := bufio.NewWriter(os.Stdout)
	say := func(format string, args ...any) {
		fmt.Fprintf(out, format+"\n", args...)
		out.Flush()
	}
	tr := NewTracker()
	searching := false
	bestmove := func() {
		p, _ := tr.Position()
		var ml movegen.MoveList
		movegen.Legal(p, &ml)
		switch {
		case mode == "illegal":
			say("bestmove a1a1")
		case ml.Len() == 0:
			say("bestmove 0000")
		default:
			say("bestmove %s", ml.At(0).UCI(p.Chess960()))
		}
		if mode == "double" {
			say("bestmove 0000")
		}
		searching = false
	}
	sc := bufio.NewScanner(os.Stdin)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) == 0 {
			continue
		}
		if f[0] != "go" && f[0] != "isready" && f[0] != "ponderhit" && searching && mode != "nostop" {
			bestmove()
		}
		switch f[0] {
		case "uci":
			say("id name Fake")
			say("option name Hash type spin default 16 min 1 max 64")
			say("uciok")
		case "isready":
			if mode != "hang" {
				say("readyok")
			}
		case "go":
			if searching {
				bestmove()
			}
			switch {
			case mode == "panic":
				fmt.Fprintln(os.Stderr, "panic: runtime error: index out of range [3] with length 3\n\ngoroutine 1 [running]:")
				return 2
			case mode == "exit":
				return 0
			case mode == "internal":
				say("info string internal error on %q: boom", sc.Text())
			}
			spec := ParseGo(tr.pos, f[1:], false)
			if spec.OpenEnded() || mode == "nostop" {
				searching = true
			} else {
				bestmove()
			}
		case "quit":
			return 0
		}
		tr.Apply(sc.Text())
	}
	return 0
}

// fake returns run options that start the fake engine in mode. The
// timeouts are generous enough for a loaded machine, short enough for a
// quick test.
func fake(t *testing.T, mode string) RunOptions {
	exe, err := os.Executable()
	require.NoError(t, err)
	return RunOptions{Engine: exe, Env: []string{fakeEnv + "=" + mode}, ReadyTimeout: 1500 * time.Millisecond,
		StopTimeout: 1500 * time.Millisecond, Slack: 1500 * time.Millisecond, QuitTimeout: 3 * time.Second}
}

func script(lines ...string) Script {
	var s Script
	for _, l := range lines {
		switch l {
		case "#!wait":
			s.Steps = append(s.Steps, Step{Kind: Wait})
		default:
			s.Steps = append(s.Steps, Step{Kind: Send, Line: l})
		}
	}
	return s
}

func classes(r Result) []string {
	var cs []string
	for _, f := range r.Failures {
		cs = append(cs, f.Class)
	}
	return cs
}

var session = script("uci", "isready", "position startpos moves e2e4", "go movetime 10", "#!wait",
	"go infinite", "isready", "stop", "#!wait", "position fen 7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", "go depth 3", "#!wait", "quit")

func TestRunnerPassesAWellBehavedEngine(t *testing.T) {
	r := Run(fake(t, "good"), session)
	assert.Empty(t, r.Failures)
	assert.Equal(t, 3, r.BestMoves)
	assert.Equal(t, 13-3, r.Inputs)
}

func TestRunnerCatchesMisbehaviour(t *testing.T) {
	for mode, want := range map[string]string{
		"illegal":  ClassIllegalMove,
		"hang":     ClassHangReady,
		"panic":    ClassPanic,
		"double":   ClassExtraBest,
		"exit":     ClassCrash,
		"internal": ClassRecovered,
	} {
		t.Run(mode, func(t *testing.T) {
			r := Run(fake(t, mode), session)
			assert.Contains(t, classes(r), want, "%+v", r.Failures)
		})
	}
}

func TestRunnerReportsASearchThatIgnoresStop(t *testing.T) {
	r := Run(fake(t, "nostop"), script("go infinite", "isready", "stop", "#!wait", "quit"))
	require.NotEmpty(t, r.Failures)
	assert.Equal(t, ClassHangStop, r.Failures[0].Class)
}

func TestRunnerReportsABoundedSearchThatDoesNotEnd(t *testing.T) {
	// "nostop" never answers a go; a 10 ms search must be reported as hung.
	r := Run(fake(t, "nostop"), script("go movetime 10", "#!wait", "quit"))
	require.NotEmpty(t, r.Failures)
	assert.Equal(t, ClassHangSearch, r.Failures[0].Class)
	assert.Equal(t, 1, r.Failures[0].Step)
}

func TestRunnerReportsAMissingBestmoveAtExit(t *testing.T) {
	// "nostop" quits with a search still owed.
	r := Run(fake(t, "nostop"), script("go infinite", "quit"))
	assert.Contains(t, classes(r), ClassMissingBest)
}

func TestRunnerFlagsLongOutputLines(t *testing.T) {
	o := fake(t, "good")
	o.MaxLine = 10
	r := Run(o, script("uci", "quit"))
	assert.Contains(t, classes(r), ClassLongLine)
}

func TestReproducerRoundTrips(t *testing.T) {
	path := filepath.Join(t.TempDir(), "hang-search.txt")
	s := Script{Searcher: "MCTS", Steps: []Step{{Kind: Send, Line: "go movetime 10"}, {Kind: Sleep, Dur: 15 * time.Millisecond},
		{Kind: Send, Line: "stop"}, {Kind: Wait}, {Kind: Send, Line: "quit"}}}
	require.NoError(t, SaveReproducer(path, s, Failure{Class: ClassHangSearch, Detail: "x\ny", Step: 2}, 7, 3, "panic: no"))
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	back, err := ReadScript(f)
	require.NoError(t, err)
	assert.Equal(t, "MCTS", back.Searcher)
	assert.Equal(t, s.Steps[:4], back.Steps, "cut after the failing step, ending in a wait")
}
