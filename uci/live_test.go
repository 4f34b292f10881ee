package uci

import (
	"bufio"
	"io"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/twofold-chess/twofold/board"
	"github.com/twofold-chess/twofold/movegen"
)

// live is an engine session driven line by line over pipes, as a GUI does:
// the test sends commands and waits for answers while the engine runs.
type live struct {
	t     *testing.T
	in    *io.PipeWriter
	lines chan string
	done  chan error
	seen  []string // every line read so far
}

func startLive(t *testing.T, setup ...func(*Engine)) *live {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	l := &live{t: t, in: inW, lines: make(chan string, 1<<16), done: make(chan error, 1)}
	e := New(outW)
	for _, f := range setup {
		f(e)
	}
	go func() {
		err := e.Run(inR)
		outW.Close()
		l.done <- err
	}()
	go func() {
		defer close(l.lines)
		sc := bufio.NewScanner(outR)
		sc.Buffer(make([]byte, 64*1024), 1024*1024)
		for sc.Scan() {
			l.lines <- sc.Text()
		}
	}()
	t.Cleanup(func() {
		l.in.Close()
		select {
		case <-l.done:
		case <-time.After(10 * time.Second):
			t.Errorf("engine did not end after its input closed")
		}
	})
	return l
}

// send writes command lines; an engine that stops reading its input (stuck
// waiting for a search that does not stop) fails the test.
func (l *live) send(commands ...string) {
	l.t.Helper()
	done := make(chan error, 1)
	go func() {
		_, err := io.WriteString(l.in, strings.Join(commands, "\n")+"\n")
		done <- err
	}()
	select {
	case err := <-done:
		require.NoError(l.t, err)
	case <-time.After(10 * time.Second):
		l.t.Fatalf("engine does not read %q", commands)
	}
}

// waitFor reads lines until one matches re and returns it with the lines
// read before it; it fails the test after the timeout.
func (l *live) waitFor(re string, timeout time.Duration) (string, []string) {
	l.t.Helper()
	rx := regexp.MustCompile(re)
	var before []string
	deadline := time.After(timeout)
	for {
		select {
		case line, ok := <-l.lines:
			if !ok {
				l.t.Fatalf("output ended while waiting for %q; read %q", re, before)
			}
			l.seen = append(l.seen, line)
			if rx.MatchString(line) {
				return line, before
			}
			before = append(before, line)
		case <-deadline:
			l.t.Fatalf("no line matching %q within %v; read %q", re, timeout, before)
		}
	}
}

// quiet asserts that no line matching re arrives within d, and returns the
// lines read meanwhile.
func (l *live) quiet(re string, d time.Duration) []string {
	l.t.Helper()
	rx := regexp.MustCompile(re)
	var read []string
	deadline := time.After(d)
	for {
		select {
		case line, ok := <-l.lines:
			if !ok {
				return read
			}
			l.seen = append(l.seen, line)
			if rx.MatchString(line) {
				l.t.Fatalf("unexpected %q within %v", line, d)
			}
			read = append(read, line)
		case <-deadline:
			return read
		}
	}
}

// quit ends the session and checks that Run returns.
func (l *live) quit() {
	l.t.Helper()
	l.send("quit")
	select {
	case err := <-l.done:
		require.NoError(l.t, err)
		l.done <- err // for the cleanup
	case <-time.After(10 * time.Second):
		l.t.Fatal("quit did not end the session")
	}
}

var bestmoveRe = regexp.MustCompile(`^bestmove (\S+)(?: ponder (\S+))?$`)

// checkBestmove asserts that a bestmove line names a legal move of p (and a
// legal ponder move after it), or 0000 when p has no legal move.
func checkBestmove(t *testing.T, p *board.Position, line string) {
	t.Helper()
	m := bestmoveRe.FindStringSubmatch(line)
	require.NotNil(t, m, "not a bestmove line: %q", line)
	if m[1] == "0000" {
		var ml movegen.MoveList
		movegen.Legal(p, &ml)
		require.Zero(t, ml.Len(), "bestmove 0000 with legal moves in %s", p.FEN())
		return
	}
	best, err := movegen.ParseUCI(p, m[1])
	require.NoError(t, err, "bestmove in %s", p.FEN())
	if m[2] != "" {
		q := p.Clone()
		q.Make(best)
		_, err := movegen.ParseUCI(q, m[2])
		require.NoError(t, err, "ponder move after %s in %s", m[1], p.FEN())
	}
}

func bestmoves(lines []string) []string {
	var out []string
	for _, l := range lines {
		if strings.HasPrefix(l, "bestmove") {
			out = append(out, l)
		}
	}
	return out
}

func indexOf(lines []string, prefix string) int {
	for i, l := range lines {
		if strings.HasPrefix(l, prefix) {
			return i
		}
	}
	return -1
}

// played runs the commands like session, but as a GUI does: after each "go"
// that ends by itself it waits for the bestmove before sending more, so the
// end of input does not cut the search short. It returns the output lines.
func played(t *testing.T, commands ...string) []string {
	t.Helper()
	return playedWith(t, nil, commands...)
}

// playedWith is played with the engine set up first (setup may be nil).
func playedWith(t *testing.T, setup func(*Engine), commands ...string) []string {
	t.Helper()
	var l *live
	if setup != nil {
		l = startLive(t, setup)
	} else {
		l = startLive(t)
	}
	for _, c := range commands {
		l.send(c)
		f := strings.Fields(c)
		if len(f) > 0 && f[0] == "go" && !strings.Contains(c, "perft") && !strings.Contains(c, "infinite") && !strings.Contains(c, "ponder") {
			l.waitFor(`^bestmove`, 60*time.Second)
		}
	}
	l.send("isready")
	l.waitFor(`^readyok$`, 60*time.Second)
	l.quit()
	return l.seen[:len(l.seen)-1]
}
