package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twofold-chess/twofold/azero/onnx/onnxtest"
	"github.com/twofold-chess/twofold/bench"
	"github.com/twofold-chess/twofold/board"
	"github.com/twofold-chess/twofold/movegen"
	"github.com/twofold-chess/twofold/nnue"
)

// The end-to-end tests run the real binary, built once per test run.
var (
	buildOnce sync.Once
	buildDir  string
	buildPath string
	buildErr  error
)

func TestMain(m *testing.M) {
	code := m.Run()
	if buildDir != "" {
		os.RemoveAll(buildDir)
	}
	os.Exit(code)
}

// binary builds the engine (without -race, whatever the test run uses) and
// returns its path.
func binary(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		buildDir, buildErr = os.MkdirTemp("", "twofold-e2e-")
		if buildErr != nil {
			return
		}
		buildPath = filepath.Join(buildDir, "engine")
		out, err := exec.Command("go", "build", "-o", buildPath, ".").CombinedOutput()
		if err != nil {
			buildErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	require.NoError(t, buildErr)
	return buildPath
}

// proc is the engine binary speaking UCI over real pipes.
type proc struct {
	t      *testing.T
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	lines  chan string
	stderr lockedBuffer
	exited chan error
}

// lockedBuffer is a bytes.Buffer safe to read while the process writes it.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func startEngine(t *testing.T) *proc {
	t.Helper()
	p := &proc{t: t, cmd: exec.Command(binary(t)), lines: make(chan string, 1<<16), exited: make(chan error, 1)}
	var err error
	p.stdin, err = p.cmd.StdinPipe()
	require.NoError(t, err)
	stdout, err := p.cmd.StdoutPipe()
	require.NoError(t, err)
	p.cmd.Stderr = &p.stderr
	require.NoError(t, p.cmd.Start())
	// Read all output before Wait: Wait closes the pipe.
	readDone := make(chan struct{})
	go func() {
		defer close(readDone)
		defer close(p.lines)
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 64*1024), 1024*1024)
		for sc.Scan() {
			p.lines <- sc.Text()
		}
	}()
	go func() {
		<-readDone
		p.exited <- p.cmd.Wait()
	}()
	t.Cleanup(func() {
		p.stdin.Close()
		select {
		case <-p.exited:
		case <-time.After(10 * time.Second):
			p.cmd.Process.Kill()
			<-p.exited
			t.Errorf("engine did not exit after its input closed")
		}
	})
	return p
}

func (p *proc) send(lines ...string) {
	p.t.Helper()
	_, err := io.WriteString(p.stdin, strings.Join(lines, "\n")+"\n")
	require.NoError(p.t, err)
}

// waitFor reads lines until one matches re, returning it and the lines before it.
func (p *proc) waitFor(re string, timeout time.Duration) (string, []string) {
	p.t.Helper()
	rx := regexp.MustCompile(re)
	var before []string
	deadline := time.After(timeout)
	for {
		select {
		case l, ok := <-p.lines:
			if !ok {
				p.t.Fatalf("engine output ended while waiting for %q (stderr %q); read %q", re, p.stderr.String(), tail(before))
			}
			if rx.MatchString(l) {
				return l, before
			}
			before = append(before, l)
		case <-deadline:
			p.t.Fatalf("no line matching %q within %v; read %q", re, timeout, tail(before))
		}
	}
}

func tail(lines []string) []string {
	if len(lines) > 20 {
		return lines[len(lines)-20:]
	}
	return lines
}

var bestmoveLine = regexp.MustCompile(`^bestmove (\S+)(?: ponder \S+)?$`)

// A whole game of the engine against itself over pipes: every bestmove is
// legal, and the game ends in a real game-over state (or at the ply cap).
func TestSelfPlayGame(t *testing.T) {
	maxPlies, moveTime := 300, 20
	if testing.Short() {
		maxPlies, moveTime = 120, 5
	}
	selfPlay(t, maxPlies, fmt.Sprintf("go movetime %d", moveTime), "setoption name Hash value 8")
}

// The same with the MCTS searcher and the embedded network: 32 playouts a
// move, and now and then a clock.
func TestMCTSSelfPlayGame(t *testing.T) {
	onnxtest.Open(t)
	maxPlies := 400
	if testing.Short() {
		maxPlies = 100
	}
	selfPlay(t, maxPlies, "go nodes 32", "setoption name Search value MCTS", "setoption name Threads value 2")
}

func selfPlay(t *testing.T, maxPlies int, goMove string, setup ...string) {
	e := startEngine(t)
	e.send("uci")
	e.waitFor(`^uciok$`, 10*time.Second)
	e.send(append(setup, "isready")...)
	e.waitFor(`^readyok$`, 10*time.Second)
	e.send("ucinewgame")

	pos := board.StartPosition()
	var moves []string
	status := movegen.Ongoing
	for len(moves) < maxPlies {
		cmd := "position startpos"
		if len(moves) > 0 {
			cmd += " moves " + strings.Join(moves, " ")
		}
		goCmd := goMove
		if len(moves)%7 == 3 { // now and then with clocks instead
			goCmd = "go wtime 1000 btime 1000 winc 10 binc 10"
		}
		e.send(cmd, goCmd)
		line, _ := e.waitFor(`^bestmove `, 20*time.Second)
		m := bestmoveLine.FindStringSubmatch(line)
		require.NotNil(t, m, "malformed %q", line)
		require.NotEqual(t, "0000", m[1], "bestmove 0000 in %s, which has legal moves", pos.FEN())
		mv, err := movegen.ParseUCI(pos, m[1])
		require.NoError(t, err, "illegal bestmove %q in %s after %v", m[1], pos.FEN(), moves)
		pos.Make(mv)
		moves = append(moves, m[1])
		if status = movegen.GameStatus(pos); status.Over() {
			break
		}
	}
	t.Logf("%d plies, %s: %s", len(moves), status, pos.FEN())
	if status.Over() {
		var ml movegen.MoveList
		movegen.Legal(pos, &ml)
		switch status {
		case movegen.Checkmate:
			assert.True(t, movegen.InCheck(pos))
			assert.Zero(t, ml.Len())
		case movegen.Stalemate:
			assert.False(t, movegen.InCheck(pos))
			assert.Zero(t, ml.Len())
		case movegen.FiftyMoveDraw:
			assert.GreaterOrEqual(t, pos.HalfmoveClock(), 100)
		case movegen.ThreefoldDraw:
			assert.GreaterOrEqual(t, pos.Repetitions(), 2)
		case movegen.InsufficientMaterialDraw:
			assert.True(t, pos.InsufficientMaterial())
		default:
			t.Errorf("unknown game-over status %v", status)
		}
		// With no legal move the engine answers bestmove 0000.
		if ml.Len() == 0 {
			e.send("position startpos moves "+strings.Join(moves, " "), "go movetime 10")
			line, _ := e.waitFor(`^bestmove `, 10*time.Second)
			assert.Equal(t, "bestmove 0000", line)
		}
	} else {
		assert.Equal(t, maxPlies, len(moves))
	}
	e.send("quit")
	select {
	case err := <-e.exited:
		require.NoError(t, err)
		e.exited <- err
	case <-time.After(5 * time.Second):
		t.Fatal("engine did not quit")
	}
	assert.Empty(t, e.stderr.String())
}

// Garbage on stdin is answered with info strings and never ends or crashes
// the engine; quit then exits with status 0.
func TestBadInputSession(t *testing.T) {
	e := startEngine(t)
	e.send(
		"",
		"   ",
		"hello world",
		"uci uci uci",
		"\x00\x01\xff\xfe binary junk",
		strings.Repeat("x", 200_000),
		"position",
		"position fen",
		"position fen garbage",
		"position fen 8/8/8/8/8/8/8/8 w - - 0 1",
		"position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0",
		"position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
		"position startpos moves e2e5",
		"position startpos moves e2e4 e2e4",
		"position startpos moves "+strings.Repeat("g1f3 g8f6 f3g1 f6g8 ", 200),
		"position startpos moves zz99",
		"setoption",
		"setoption name",
		"setoption name Foo value bar",
		"setoption name Hash value -1",
		"setoption name Threads value many",
		"setoption name UCI_Elo value 99999",
		"go perft",
		"go perft -3",
		"go searchmoves a1a1",
		"go depth -4",
		"stop",
		"go wtime abc btime",
		"stop",
		"ponderhit",
		"stop",
		"bench nonsense",
		"register me",
		"debug maybe",
		"isready",
	)
	_, before := e.waitFor(`^readyok$`, 30*time.Second)
	for _, l := range before {
		assert.Regexp(t, `^(info |bestmove |id |option |uciok$|$|[a-h][1-8][a-h][1-8][qrbn]?: \d+$|Nodes searched: \d+$)`, l)
	}
	assert.NotEmpty(t, before)
	// Three searches were started (and stopped): three bestmoves, all
	// written before readyok since "bench" waits for the search first.
	bms := 0
	for _, l := range before {
		if strings.HasPrefix(l, "bestmove ") {
			bms++
			_, err := movegen.ParseUCI(board.StartPosition(), bestmoveLine.FindStringSubmatch(l)[1])
			// The position after the long shuffling line is the start position again.
			assert.NoError(t, err, l)
		}
	}
	assert.Equal(t, 3, bms)

	// Still alive and still answering.
	select {
	case err := <-e.exited:
		t.Fatalf("engine exited early: %v; stderr %q", err, e.stderr.String())
	default:
	}
	e.send("position startpos moves e2e4", "go depth 3")
	line, _ := e.waitFor(`^bestmove `, 20*time.Second)
	p := board.StartPosition()
	p.Make(mustParse(t, p, "e2e4"))
	_, err := movegen.ParseUCI(p, bestmoveLine.FindStringSubmatch(line)[1])
	assert.NoError(t, err, line)

	e.send("quit")
	select {
	case err := <-e.exited:
		require.NoError(t, err, "exit status; stderr %q", e.stderr.String())
		e.exited <- err
	case <-time.After(5 * time.Second):
		t.Fatal("engine did not quit within 5 s")
	}
	assert.NotContains(t, e.stderr.String(), "panic")
}

func mustParse(t *testing.T, p *board.Position, s string) board.Move {
	t.Helper()
	m, err := movegen.ParseUCI(p, s)
	require.NoError(t, err)
	return m
}

// End of input ends the engine cleanly, even in the middle of a search.
func TestEOFEndsEngine(t *testing.T) {
	cmd := exec.Command(binary(t))
	cmd.Stdin = strings.NewReader("uci\nposition startpos\ngo infinite\n")
	var out bytes.Buffer
	cmd.Stdout = &out
	done := make(chan error, 1)
	require.NoError(t, cmd.Start())
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		require.NoError(t, err)
	case <-time.After(10 * time.Second):
		cmd.Process.Kill()
		<-done
		t.Fatal("engine did not exit at the end of its input")
	}
	lines := strings.Split(strings.TrimRight(out.String(), "\n"), "\n")
	assert.Regexp(t, `^bestmove [a-h][1-8][a-h][1-8]`, lines[len(lines)-1])
}

func TestBenchSubcommand(t *testing.T) {
	cmd := exec.Command(binary(t), "bench", "3")
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	require.NoError(t, cmd.Run(), errOut.String())
	lines := strings.Split(strings.TrimRight(out.String(), "\n"), "\n")
	last := lines[len(lines)-1]
	m := regexp.MustCompile(`^(\d+) nodes \d+ nps$`).FindStringSubmatch(last)
	require.NotNil(t, m, "last line %q", last)
	// The same signature as the package computes in-process, with the
	// embedded network named first.
	rep, err := bench.Run(context.Background(), io.Discard, 3, nnue.Default())
	require.NoError(t, err)
	assert.Equal(t, fmt.Sprint(rep.Nodes), m[1])
	assert.Equal(t, "Network: "+nnue.Default().String()+", kernel "+nnue.Default().Kernel(), lines[0])
	assert.Empty(t, errOut.String())
}

// The bench flags, in-process.
func TestBenchFlags(t *testing.T) {
	code, out, _ := engine(t, "", "bench", "--depth", "1")
	assert.Equal(t, 0, code)
	assert.Regexp(t, `(?m)^\d+ nodes \d+ nps\n$`, out)
	code, out2, _ := engine(t, "", "bench", "1")
	assert.Equal(t, 0, code)
	nodes := regexp.MustCompile(`(?m)^(\d+) nodes`)
	assert.Equal(t, nodes.FindStringSubmatch(out)[1], nodes.FindStringSubmatch(out2)[1], "positional depth = --depth")

	code, out, _ = engine(t, "", "bench", "--help")
	assert.Equal(t, 0, code)
	assert.Contains(t, out, "--depth")
	for _, args := range [][]string{
		{"bench", "--depth", "0"},
		{"bench", "--depth", "61"},
		{"bench", "x"},
		{"bench", "1", "2"},
		{"bench", "--frobnicate"},
		{"bench", "12abc"},
		{"bench", "--threads", "4"}, // the speed bench's flags: the signature would ignore them
		{"bench", "--hash", "64"},
		{"bench", "--positions", "3"},
		{"bench", "--batch", "8"}, // the mcts bench's
		{"bench", "--movetime", "100", "--depth", "3"},
		{"bench", "--movetime", "100", "5"},
		{"bench", "--movetime", "100", "--batch", "8"},
		{"bench", "--movetime", "0"},
		{"bench", "--movetime", "3600001"},
		{"bench", "--movetime", "18446744073709"}, // wraps a Duration around
		{"bench", "--movetime", "100", "--positions", "0"},
		{"bench", "--movetime", "100", "--positions", "51"},
		{"bench", "--movetime", "100", "--hash", "0"},
		{"bench", "--movetime", "100", "--hash", "70000"},
		{"bench", "--movetime", "100", "--threads", "257"},
		{"bench", "--search", "mcts", "--hash", "64"},
		{"bench", "--search", "mcts", "--movetime", "18446744073709"},
		{"bench", "--search", "mcts", "--depth", "3"},
		{"bench", "--search", "mcts", "5"},
	} {
		code, _, errOut := engine(t, "", args...)
		assert.Equal(t, 2, code, args)
		assert.NotEmpty(t, errOut, args)
	}
	// --movetime makes it the speed bench: the threads, table and positions asked for.
	code, out, errOut := engine(t, "", "bench", "--movetime", "30", "--threads", "2", "--hash", "8", "--positions", "2", "--network", "none")
	require.Equal(t, 0, code, errOut)
	assert.True(t, strings.HasPrefix(out, "Network: none (hand-crafted); threads 2, hash 8 MB, movetime 30 ms\n"), out)
	assert.Contains(t, out, "Position  2/2: ")
	assert.NotContains(t, out, "Position  3/")
	assert.Regexp(t, `(?m)^Mean depth      : \d+\.\d\d\n\d+ nodes \d+ nps\n$`, out)
	_, _, errOut = engine(t, "", "bench", "--threads", "2")
	assert.Contains(t, errOut, "--threads needs --movetime")

	code, _, errOut = engine(t, "", "bench", "--search", "foo", "--threads", "2")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, `--search wants alphabeta or mcts, got "foo"`, "the searcher is checked before its flags")
}

// --network gives the alpha-beta bench an NNUE network: it is named first,
// the search changes (another node count) and stays deterministic; "none"
// is the hand-crafted evaluation; a file that cannot be loaded ends the
// command with the reason.
func TestBenchNetworkFlag(t *testing.T) {
	net, err := nnue.Random(64, 1, nnue.SCReLU, 1)
	require.NoError(t, err)
	var buf bytes.Buffer
	require.NoError(t, net.Write(&buf))
	dir := t.TempDir()
	path := filepath.Join(dir, "net.nnue")
	require.NoError(t, os.WriteFile(path, buf.Bytes(), 0o644))
	corrupt := filepath.Join(dir, "corrupt.nnue")
	data := bytes.Clone(buf.Bytes())
	data[len(data)/2] ^= 1
	require.NoError(t, os.WriteFile(corrupt, data, 0o644))

	nodes := regexp.MustCompile(`(?m)^(\d+) nodes \d+ nps\n$`)
	code, hce, _ := engine(t, "", "bench", "--depth", "2", "--network", "none")
	require.Equal(t, 0, code)
	require.Regexp(t, nodes, hce)
	assert.NotContains(t, hce, "Network:")
	rep, err := bench.Run(context.Background(), io.Discard, 2, nil)
	require.NoError(t, err)
	assert.Equal(t, fmt.Sprint(rep.Nodes), nodes.FindStringSubmatch(hce)[1], "none: the hand-crafted search")
	for _, args := range [][]string{
		{"bench", "--depth", "2", "--network", path},
		{"bench", "--network", path, "--search", "alphabeta", "2"},
	} {
		code, out, errOut := engine(t, "", args...)
		require.Equal(t, 0, code, "%q: %s", args, errOut)
		assert.True(t, strings.HasPrefix(out, "Network: "+net.String()+", kernel "+net.Kernel()+"\n"), "%q: %q", args, out)
		require.Regexp(t, nodes, out)
		assert.NotEqual(t, nodes.FindStringSubmatch(hce)[1], nodes.FindStringSubmatch(out)[1], "the network changes the search")
		assert.Empty(t, errOut)
	}
	// The same signature as the package computes in-process.
	_, out, _ := engine(t, "", "bench", "--depth", "2", "--network", path)
	rep, err = bench.Run(context.Background(), io.Discard, 2, net)
	require.NoError(t, err)
	assert.Equal(t, fmt.Sprint(rep.Nodes), nodes.FindStringSubmatch(out)[1])

	_, help, _ := engine(t, "", "bench", "--help")
	assert.Contains(t, help, "alphabeta: NNUE network file")
	assert.Contains(t, help, "mcts: ONNX network file")

	for _, c := range []struct{ path, reason string }{
		{filepath.Join(dir, "absent.nnue"), "no such file or directory"},
		{corrupt, "checksum mismatch"},
		{dir, "is a directory"},
	} {
		code, out, errOut := engine(t, "", "bench", "--depth", "2", "--network", c.path)
		assert.Equal(t, 1, code, c.path)
		assert.Empty(t, out, c.path)
		assert.True(t, strings.HasPrefix(errOut, "engine bench: "), errOut)
		assert.Contains(t, errOut, c.path)
		assert.Contains(t, errOut, c.reason)
	}
}

func TestVersionAndHelp(t *testing.T) {
	for _, a := range []string{"version", "--version", "-v"} {
		code, out, _ := engine(t, "", a)
		assert.Equal(t, 0, code)
		assert.True(t, strings.HasPrefix(out, "Twofold "), out)
	}
	code, out, _ := engine(t, "", "help")
	assert.Equal(t, 0, code)
	assert.Contains(t, out, "engine bench")
}
