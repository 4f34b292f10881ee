package uci

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twofold-chess/twofold/azero/onnx"
	"github.com/twofold-chess/twofold/internal/sysmem"
	"github.com/twofold-chess/twofold/search"
)

// Regression tests for the input that used to crash, hang or flood the
// engine (the UCI fuzzer's findings); each keeps one class fixed.

// Lines of a megabyte are read whole; longer ones are skipped with a
// message; neither ends the session (bufio.Scanner's "token too long" did).
func TestHugeLines(t *testing.T) {
	l := startLive(t)
	l.send("position startpos moves " + strings.Repeat("e2e4 e7e5 ", 1<<17)) // 1.25 MiB
	line, _ := l.waitFor(`^info string position:`, 10*time.Second)
	assert.Less(t, len(line), maxMessage+100, "the message is capped")
	l.send(strings.Repeat("x", maxLine+10), "isready")
	l.waitFor(`^info string line of \d+ bytes skipped`, 10*time.Second)
	l.waitFor(`^readyok$`, 5*time.Second)
	l.send("position startpos moves e2e4", "go depth 2")
	l.waitFor(`^bestmove [a-h][1-8][a-h][1-8]`, 10*time.Second)
}

// A megabyte of bad searchmoves gives one short message, not 22 MB.
func TestMessagesEchoLittleInput(t *testing.T) {
	out := session(t, "go depth 1 searchmoves "+strings.Repeat("z9z9 ", 200_000), "isready")
	for _, l := range out {
		assert.Less(t, len(l), maxMessage+100, "%.80s...", l)
	}
	assert.Contains(t, out, "readyok")
	assert.Len(t, bestmoves(out), 1)
	assert.Equal(t, "abc", clip("abc", 10))
	assert.Equal(t, "ab... (2 more bytes)", clip("abcd", 2))
	assert.Equal(t, "a... (2 more bytes)", clip("aé", 2), "cut on a rune boundary")
}

// A clock at or below zero means "move now", not "no limit".
func TestNonPositiveClockMovesNow(t *testing.T) {
	for _, g := range []string{"go wtime 0 btime 0", "go wtime -5 btime -5", "go wtime 0 winc 0", "go wtime -9223372036854775808"} {
		t.Run(g, func(t *testing.T) {
			l := startLive(t)
			l.send("position startpos", g)
			l.waitFor(`^bestmove [a-h][1-8][a-h][1-8]`, 5*time.Second)
		})
	}
}

// Absurd numbers saturate instead of wrapping.
func TestGoNumbersSaturate(t *testing.T) {
	p := New(nil).pos
	for _, c := range []struct {
		args string
		want func(t *testing.T, lim search.Limits)
	}{
		{"movetime 18446744073710", func(t *testing.T, lim search.Limits) { assert.Equal(t, time.Duration(1<<63-1), lim.MoveTime) }},
		{"movetime 9223372036855", func(t *testing.T, lim search.Limits) { assert.Equal(t, time.Duration(1<<63-1), lim.MoveTime) }},
		{"movetime 99999999999999999999999", func(t *testing.T, lim search.Limits) { assert.Equal(t, time.Duration(1<<63-1), lim.MoveTime) }},
		{"wtime 9223372036854775807 winc 9223372036854775807", func(t *testing.T, lim search.Limits) {
			assert.Equal(t, time.Duration(1<<63-1), lim.Time[0])
			assert.Equal(t, time.Duration(1<<63-1), lim.Inc[0])
		}},
		{"depth 9223372036854775807 mate 9223372036854775807 movestogo 9223372036854775807", func(t *testing.T, lim search.Limits) {
			assert.Positive(t, lim.Depth)
			assert.Positive(t, lim.Mate)
			assert.Positive(t, lim.MovesToGo)
		}},
		{"wtime 0 btime -1", func(t *testing.T, lim search.Limits) {
			assert.Equal(t, time.Nanosecond, lim.Time[0])
			assert.Equal(t, time.Nanosecond, lim.Time[1])
		}},
	} {
		t.Run(c.args, func(t *testing.T) {
			lim, err := parseGo(p, strings.Fields(c.args))
			require.NoError(t, err)
			c.want(t, lim)
		})
	}
	// And a search with such limits still ends on stop.
	l := startLive(t)
	l.send("go movetime 9223372036855")
	time.Sleep(50 * time.Millisecond)
	l.send("stop")
	l.waitFor(`^bestmove [a-h][1-8][a-h][1-8]`, 5*time.Second)
	l.send("go wtime 9223372036854775807 btime 9223372036854775807 winc 9223372036854775807")
	time.Sleep(50 * time.Millisecond)
	l.send("stop")
	l.waitFor(`^bestmove [a-h][1-8][a-h][1-8]`, 5*time.Second)
}

// A hash table the machine cannot hold is refused with a message, the old
// one kept, and the engine plays on (65536 MB used to end it with "fatal
// error: out of memory" on a 23 GB machine).
func TestHashTooBigIsRefused(t *testing.T) {
	free, ok := sysmem.Available()
	if !ok || free > 60<<30 {
		t.Skip("needs a machine that reports less than 60 GB available")
	}
	out := session(t, "setoption name Hash value 65536", "isready", "go depth 3")
	assert.Regexp(t, `^info string setoption: Hash: 65536 MB do not fit in the \d+ MB of memory available; keeping 16 MB$`, out[0])
	assert.Equal(t, "readyok", out[1])
	assert.Regexp(t, `^bestmove `, out[len(out)-1])
}

// Clearing a large table is instant, so isready after ucinewgame is
// answered at once (zeroing it took 1.2 s idle and 15 s under load).
func TestNewGameAfterLargeHashAnswersPromptly(t *testing.T) {
	if free, ok := sysmem.Available(); !ok || free < 3<<30 {
		t.Skip("needs 3 GB of free memory")
	}
	l := startLive(t)
	l.send("setoption name Hash value 1024", "isready")
	l.waitFor(`^readyok$`, 10*time.Second)
	for i := 0; i < 3; i++ {
		l.send("ucinewgame", "setoption name Clear Hash", "isready")
		l.waitFor(`^readyok$`, time.Second)
	}
}

// go perft and bench run beside the input loop: isready is answered while
// they run and stop ends them.
func TestLongCommandsAnswerIsreadyAndStop(t *testing.T) {
	for _, c := range []struct{ cmd, stopped string }{
		{"go perft 20", `^info string go perft: stopped after \d+ nodes$`},
		{"bench 60", `^info string bench: stopped$`},
	} {
		t.Run(c.cmd, func(t *testing.T) {
			l := startLive(t)
			l.send(c.cmd)
			time.Sleep(100 * time.Millisecond)
			l.send("isready")
			l.waitFor(`^readyok$`, 2*time.Second)
			l.send("stop")
			l.waitFor(c.stopped, 5*time.Second)
			l.send("go depth 1")
			l.waitFor(`^bestmove `, 5*time.Second)
		})
	}
	// A short perft still prints its complete report.
	out := session(t, "go perft 2")
	assert.Equal(t, "Nodes searched: 400", out[len(out)-1])
}

// A fullmove number near the int64 bound is refused instead of wrapping
// negative after a move.
func TestHugeFENCountersRefused(t *testing.T) {
	out := session(t, "position fen 4k3/8/8/8/8/8/8/4K2R b K - 0 9223372036854775807 moves e8d8", "d")
	assert.Regexp(t, `^info string position: .*fullmove number.*; position unchanged$`, out[0])
	assert.Equal(t, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", fenOf(t, out))
}

// More search threads than cores: each gets an OS thread, so the input
// loop is not queued behind them and stop is still prompt (Threads 256 on
// 2 cores took 2.5 s to answer stop).
func TestManyThreadsStillStopPromptly(t *testing.T) {
	before := runtime.GOMAXPROCS(0)
	t.Cleanup(func() { runtime.GOMAXPROCS(before) })
	l := startLive(t)
	l.send("setoption name Threads value 64", "isready")
	l.waitFor(`^readyok$`, 5*time.Second)
	assert.GreaterOrEqual(t, runtime.GOMAXPROCS(0), 65)
	for i := 0; i < 3; i++ {
		l.send("go infinite")
		time.Sleep(30 * time.Millisecond)
		l.send("stop")
		l.waitFor(`^bestmove `, 2*time.Second)
	}
}

// Under an address-space limit (a child test process run by prlimit), a
// Hash or NNCacheSize the limit cannot hold is refused with a message and
// the engine plays on, where Go used to die with "out of memory".
func TestMemoryOptionsRespectAddressSpaceLimit(t *testing.T) {
	if os.Getenv("UCI_MEMLIMIT_CHILD") == "1" {
		var out bytes.Buffer
		cmds := "setoption name Hash value 8192\nsetoption name NNCacheSize value 50000000\ngo depth 3\n"
		if err := New(&out).Run(strings.NewReader(cmds)); err != nil {
			fmt.Println(err)
			os.Exit(1)
		}
		fmt.Print(out.String())
		os.Exit(0)
	}
	prlimit, err := exec.LookPath("prlimit")
	if err != nil || runtime.GOOS != "linux" {
		t.Skip("needs Linux and prlimit")
	}
	cmd := exec.Command(prlimit, fmt.Sprintf("--as=%d", 4<<30), "--", os.Args[0], "-test.run=^TestMemoryOptionsRespectAddressSpaceLimit$")
	cmd.Env = append(os.Environ(), "UCI_MEMLIMIT_CHILD=1")
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	assert.Regexp(t, `(?m)^info string setoption: Hash: 8192 MB do not fit`, string(out))
	if onnx.Supported {
		assert.Regexp(t, `(?m)^info string setoption: NNCacheSize: 50000000 entries need about \d+ MB`, string(out))
	}
	assert.Regexp(t, `(?m)^bestmove `, string(out))
}
