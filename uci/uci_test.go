package uci

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// session feeds the commands to a fresh engine and returns its output lines.
// A session that does not end within a minute (a search that ignores the
// stop at the end of input) fails the test instead of hanging it.
func session(t *testing.T, commands ...string) []string {
	t.Helper()
	var out bytes.Buffer
	done := make(chan error, 1)
	go func() { done <- New(&out).Run(strings.NewReader(strings.Join(commands, "\n") + "\n")) }()
	select {
	case err := <-done:
		require.NoError(t, err)
	case <-time.After(time.Minute):
		t.Fatalf("session %q did not end", commands)
	}
	return strings.Split(strings.TrimRight(out.String(), "\n"), "\n")
}

func fenOf(t *testing.T, lines []string) string {
	t.Helper()
	for _, l := range lines {
		if f, ok := strings.CutPrefix(l, "Fen: "); ok {
			return f
		}
	}
	t.Fatalf("no Fen line in %q", lines)
	return ""
}

func TestHandshake(t *testing.T) {
	out := session(t, "uci", "isready")
	assert.True(t, strings.HasPrefix(out[0], "id name Twofold "))
	assert.Contains(t, out, "option name UCI_Chess960 type check default false")
	assert.Equal(t, []string{"uciok", "readyok"}, out[len(out)-2:])
}

func TestPositionWithMoves(t *testing.T) {
	out := session(t, "position startpos moves e2e4 e7e5 g1f3", "d")
	assert.Equal(t, "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2", fenOf(t, out))

	out = session(t, "position fen 4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1 moves e1g1", "d")
	assert.Equal(t, "4k3/8/8/8/8/8/8/R4RK1 b - - 1 1", fenOf(t, out))
}

// Bad input is reported and the previous position stays.
func TestBadPositionKeepsPrevious(t *testing.T) {
	want := "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
	for _, bad := range []string{
		"position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1",
		"position fen 8/8/8/8 w - - 0 1",
		"position fen 4k3/8/8/8/8/8/8/4K2R b K - 0 1 moves e8e7 e1e2 e7e8 e2e3 e8e9",
		"position startpos moves e7e5",
		"position startpos moves e2e4 e7e5 e1g1",
		"position startpos foo",
		"position",
		"position sideways",
		"position fen 4k3/8/8/8/8/8/4R3/4K3 w - - 0 1",
	} {
		out := session(t, "position startpos moves e2e4", bad, "d")
		assert.True(t, strings.HasPrefix(out[0], "info string position:"), "%s -> %q", bad, out[0])
		assert.Equal(t, want, fenOf(t, out), bad)
	}
}

func TestGoPerftLikeStockfish(t *testing.T) {
	out := session(t, "position startpos", "go perft 2")
	require.Len(t, out, 20+2)
	assert.Equal(t, "", out[20])
	assert.Equal(t, "Nodes searched: 400", out[21])
	for _, l := range out[:20] {
		assert.Regexp(t, `^[a-h][1-8][a-h][1-8]: 20$|^[a-h][1-8][a-h][1-8]: 2[0-9]$`, l)
	}
}

func TestChess960Option(t *testing.T) {
	// Standard notation by default, king takes rook once UCI_Chess960 is on.
	fen := "position fen 4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1"
	std := strings.Join(session(t, fen, "go perft 1"), "\n")
	assert.Contains(t, std, "e1g1: 1")
	assert.Contains(t, std, "e1c1: 1")
	frc := strings.Join(session(t, "setoption name uci_chess960 value true", fen, "go perft 1"), "\n")
	assert.Contains(t, frc, "e1h1: 1")
	assert.Contains(t, frc, "e1a1: 1")
	// King-takes-rook input is accepted in both modes.
	out := session(t, fen+" moves e1h1", "d")
	assert.Equal(t, "4k3/8/8/8/8/8/8/R4RK1 b - - 1 1", fenOf(t, out))
}

func TestBadCommandsNeverEndTheSession(t *testing.T) {
	out := session(t,
		"flibbertigibbet",
		"setoption name NoSuchOption value 3",
		"setoption name UCI_Chess960 value maybe",
		"setoption",
		"go perft",
		"go perft x",
		"go perft 0",
		"",
		"isready",
	)
	for _, l := range out[:len(out)-1] {
		assert.True(t, strings.HasPrefix(l, "info string "), l)
	}
	assert.Len(t, out, 8)
	assert.Equal(t, "readyok", out[len(out)-1])
}

func TestGoAlwaysAnswersBestmove(t *testing.T) {
	out := session(t, "position startpos", "go wtime 1000 btime 1000")
	assert.Regexp(t, `^bestmove [a-h][1-8][a-h][1-8]( ponder [a-h][1-8][a-h][1-8])?$`, out[len(out)-1])
	// Checkmated side: no legal move, bestmove 0000.
	out = session(t, "position startpos moves f2f3 e7e5 g2g4 d8h4", "go depth 1")
	assert.Equal(t, "bestmove 0000", out[len(out)-1])
}

func TestQuitStops(t *testing.T) {
	out := session(t, "quit", "isready")
	assert.Equal(t, []string{""}, out)
}
