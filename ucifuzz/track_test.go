package ucifuzz

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twofold-chess/twofold/board"
	"github.com/twofold-chess/twofold/movegen"
)

func fenOf(t *Tracker) string {
	p, _ := t.Position()
	return p.FEN()
}

func TestTrackerFollowsTheEnginesRules(t *testing.T) {
	tr := NewTracker()
	tr.Apply("position startpos moves e2e4 e7e5")
	assert.Equal(t, "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2", fenOf(tr))

	// An illegal move, a malformed FEN or junk after startpos: the previous
	// position stays, as the engine keeps it.
	before := fenOf(tr)
	for _, line := range []string{
		"position startpos moves e2e4 e2e4",
		"position fen rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
		"position startpos junk",
		"position",
		"position nonsense",
	} {
		tr.Apply(line)
		assert.Equal(t, before, fenOf(tr), line)
	}

	tr.Apply("  position\tfen 4k3/8/8/8/8/8/8/4K2R   w K - 0 1 moves e1h1")
	assert.Equal(t, "4k3/8/8/8/8/8/8/5RK1 b - - 1 1", fenOf(tr), "whitespace as strings.Fields splits it; king-takes-rook castling")

	tr.Apply("ucinewgame")
	assert.Equal(t, board.StartFEN, fenOf(tr))

	tr.Apply("setoption name uci_chess960 value TRUE")
	p, known := tr.Position()
	assert.True(t, known)
	assert.True(t, p.Chess960())

	tr.Forget()
	_, known = tr.Position()
	assert.False(t, known)
	tr.Apply("position startpos")
	_, known = tr.Position()
	assert.True(t, known)
}

func TestSplitSetOption(t *testing.T) {
	name, value, ok := SplitSetOption(strings.Fields("name Move Overhead value 10 20"))
	assert.True(t, ok)
	assert.Equal(t, "Move Overhead", name)
	assert.Equal(t, "10 20", value)
	name, value, ok = SplitSetOption(strings.Fields("name Clear Hash"))
	assert.True(t, ok)
	assert.Equal(t, "Clear Hash", name)
	assert.Empty(t, value)
	_, _, ok = SplitSetOption(strings.Fields("nam Hash value 1"))
	assert.False(t, ok)
}

func TestParseGoBounds(t *testing.T) {
	white := board.StartPosition()
	black, err := movegen.ParseFEN("4k3/8/8/8/8/8/8/4K3 b - - 0 1")
	require.NoError(t, err)
	for _, c := range []struct {
		pos  *board.Position
		args string
		want time.Duration // 0: open-ended
	}{
		{white, "movetime 50", 50 * time.Millisecond},
		{white, "movetime 0", time.Millisecond},
		{white, "wtime 0", time.Millisecond},
		{white, "wtime -5 btime 100000", time.Millisecond},
		{white, "btime 0", 0}, // the clock of the side not to move bounds nothing
		{black, "btime 300 movetime 5000", 300 * time.Millisecond},
		{white, "movetime 9223372036854775807", 0},
		{white, "movetime 18446744073710", 0},
		{white, "nodes 10000", 100*time.Millisecond + time.Millisecond},
		{white, "nodes 9223372036854775807", 0},
		{white, "nodes 10000 nodes 18446744073709551615", 0}, // out of range saturates, the last one counts
		{white, "nodes 18446744073709551615 nodes 10000", 100*time.Millisecond + time.Millisecond},
		{white, "depth 3", 0},
		{white, "mate 2", 0},
		{white, "movetime abc", 0},
		{white, "movetime", 0},
		{white, "", 0},
	} {
		g := ParseGo(c.pos, strings.Fields(c.args), false)
		assert.Equal(t, c.want, g.Bound, c.args)
		assert.Equal(t, c.want == 0, g.OpenEnded(), c.args)
	}

	g := ParseGo(white, strings.Fields("infinite movetime 10"), false)
	assert.True(t, g.OpenEnded())
	g = ParseGo(white, strings.Fields("ponder movetime 10"), false)
	assert.True(t, g.OpenEnded())
	assert.False(t, g.OpenEndedAfterPonderHit())
	assert.True(t, ParseGo(white, []string{"perft", "3"}, false).Perft)

	// MCTS playouts are much slower than alpha-beta nodes.
	assert.Greater(t, ParseGo(white, strings.Fields("nodes 400"), true).Bound, time.Second)

	g = ParseGo(white, strings.Fields("searchmoves e2e4 zz e7e5 d2d4 depth 3"), false)
	require.Len(t, g.SearchMoves, 2, "illegal and malformed moves are skipped, the list ends at a keyword")
	assert.Equal(t, "e2e4", g.SearchMoves[0].UCI(false))
	assert.Nil(t, ParseGo(white, strings.Fields("searchmoves e7e5"), false).SearchMoves, "no legal searchmoves: every move")
}

func TestCheckBestMove(t *testing.T) {
	start := board.StartPosition()
	mated, err := movegen.ParseFEN("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1")
	require.NoError(t, err)
	stalemated, err := movegen.ParseFEN("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")
	require.NoError(t, err)
	castle, err := movegen.ParseFEN("4k3/8/8/8/8/8/8/4K2R w K - 0 1")
	require.NoError(t, err)
	only := ParseGo(start, strings.Fields("searchmoves d2d4"), false)
	for _, c := range []struct {
		pos  *board.Position
		g    GoSpec
		line string
		want string
	}{
		{start, GoSpec{}, "bestmove e2e4", ""},
		{start, GoSpec{}, "bestmove e2e4 ponder e7e5", ""},
		{start, GoSpec{}, "bestmove e2e5", ClassIllegalMove},
		{start, GoSpec{}, "bestmove 0000", ClassIllegalMove},
		{start, GoSpec{}, "bestmove", ClassIllegalMove},
		{start, GoSpec{}, "bestmove e2e4 ponder e2e4", ClassIllegalPonder},
		{start, only, "bestmove d2d4", ""},
		{start, only, "bestmove e2e4", ClassSearchMoves},
		{mated, GoSpec{}, "bestmove 0000", ""},
		{mated, GoSpec{}, "bestmove h8g8", ClassIllegalMove},
		{stalemated, GoSpec{}, "bestmove 0000", ""},
		{castle, GoSpec{}, "bestmove e1g1", ""},
		{castle, GoSpec{}, "bestmove e1h1", ""},
	} {
		class, _ := CheckBestMove(c.pos, c.g, c.line)
		assert.Equal(t, c.want, class, "%s in %s", c.line, c.pos.FEN())
	}
}

func TestParseOptionDecl(t *testing.T) {
	d, ok := ParseOptionDecl("option name Move Overhead type spin default 10 min 0 max 5000")
	require.True(t, ok)
	assert.Equal(t, OptionDecl{Name: "Move Overhead", Type: "spin", Default: "10", Min: 0, Max: 5000}, d)
	d, ok = ParseOptionDecl("option name Difficulty type combo default Max var Easy var Medium var Hard var Max")
	require.True(t, ok)
	assert.Equal(t, []string{"Easy", "Medium", "Hard", "Max"}, d.Vars)
	d, ok = ParseOptionDecl("option name OnnxRuntimeLib type string default ")
	require.True(t, ok)
	assert.Equal(t, "", d.Default)
	d, ok = ParseOptionDecl("option name Clear Hash type button")
	require.True(t, ok)
	assert.Equal(t, "Clear Hash", d.Name)
	_, ok = ParseOptionDecl("id name Twofold")
	assert.False(t, ok)
}
