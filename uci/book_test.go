package uci

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// bookFile is the book made by Polyglot for the book package's tests (see
// book/polyglot_test.go for its games and how it was built).
var bookFile = filepath.Join("..", "book", "testdata", "book.bin")

var withBook = []string{"setoption name OwnBook value true", "setoption name BookFile value " + bookFile}

func bookSession(t *testing.T, commands ...string) []string {
	t.Helper()
	return session(t, append(append([]string{}, withBook...), commands...)...)
}

// searched reports whether the output shows a search (an "info depth" line).
func searched(out []string) bool {
	for _, l := range out {
		if strings.HasPrefix(l, "info depth") {
			return true
		}
	}
	return false
}

func bestMove(t *testing.T, out []string) string {
	t.Helper()
	for _, l := range out {
		if m, ok := strings.CutPrefix(l, "bestmove "); ok {
			return strings.Fields(m)[0]
		}
	}
	t.Fatalf("no bestmove in %q", out)
	return ""
}

func TestBookOptionsDeclared(t *testing.T) {
	out := session(t, "uci")
	assert.Contains(t, out, "option name OwnBook type check default false")
	assert.Contains(t, out, "option name BookFile type string default ")
}

// With OwnBook on, a book position is answered at once with a book move,
// castling written in the session's notation; the search never starts.
func TestOwnBookPlaysBookMove(t *testing.T) {
	ruy := "position startpos moves e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 b5a4 g8f6" // the book's only move: castling
	out := bookSession(t, ruy, "go wtime 60000 btime 60000")
	assert.Contains(t, out, "info string opening book "+bookFile+": 60 entries")
	assert.Contains(t, out, "info string book move e1g1 (weight 3 of 3)")
	assert.Equal(t, "e1g1", bestMove(t, out))
	assert.False(t, searched(out), "a book move needs no search: %q", out)

	out = bookSession(t, "setoption name UCI_Chess960 value true", ruy, "go movetime 5000")
	assert.Equal(t, "e1h1", bestMove(t, out))

	// Black's en passant capture, and a promotion, straight from the book.
	out = bookSession(t, "position startpos moves g1f3 d7d5 b1c3 d5d4 e2e4", "go depth 20")
	assert.Equal(t, "d4e3", bestMove(t, out))

	out = bookSession(t, "position startpos moves h2h4 g7g5 h4g5 h7h6 g5h6 f8g7 h6g7 g8f6", "go nodes 1000000")
	assert.Contains(t, []string{"g7h8q", "g7h8n"}, bestMove(t, out))
	assert.False(t, searched(out))
}

// The pick follows the weights through the engine's random source.
func TestOwnBookWeightedPick(t *testing.T) {
	for x, want := range map[uint64]string{0: "e2e4", 4: "e2e4", 5: "h2h4", 7: "h2h4", 8: "d2d4", 9: "g1f3"} {
		var out bytes.Buffer
		e := New(&out)
		e.book.rng = fixedRand(x)
		for _, c := range append(withBook, "position startpos", "go movetime 1000") {
			require.True(t, e.Execute(c))
		}
		e.stopSearch()
		lines := strings.Split(strings.TrimSpace(out.String()), "\n")
		assert.Equal(t, want, bestMove(t, lines), "x=%d", x)
	}
}

type fixedRand uint64

func (r fixedRand) Uint64N(uint64) uint64 { return uint64(r) }

// Off, out of book, or asked for analysis: the engine searches.
func TestBookNotUsed(t *testing.T) {
	for name, commands := range map[string][]string{
		"OwnBook off":  {"setoption name OwnBook value false", "position startpos", "go depth 2"},
		"out of book":  {"position startpos moves a2a3", "go depth 2"},
		"infinite":     {"position startpos", "go infinite"},
		"ponder":       {"position startpos", "go ponder wtime 1000 btime 1000"},
		"searchmoves":  {"position startpos", "go depth 2 searchmoves e2e4 d2d4"},
		"mate":         {"position startpos", "go mate 1 depth 2"},
		"file dropped": {"setoption name BookFile value", "position startpos", "go depth 2"},
	} {
		t.Run(name, func(t *testing.T) {
			out := bookSession(t, commands...)
			assert.True(t, searched(out), "%q", out)
			for _, l := range out {
				assert.False(t, strings.HasPrefix(l, "info string book move"), l)
			}
		})
	}
}

// A missing or corrupt book is reported once, at setoption, with a note at
// the first go; the engine keeps playing by searching.
func TestBadBookFile(t *testing.T) {
	for name, path := range map[string]string{
		"missing":     filepath.Join(t.TempDir(), "none.bin"),
		"not a book":  filepath.Join("..", "book", "testdata", "games.pgn"),
		"a directory": t.TempDir(),
	} {
		t.Run(name, func(t *testing.T) {
			out := session(t, "setoption name OwnBook value true", "setoption name BookFile value "+path,
				"position startpos", "go depth 2", "go depth 2")
			var notLoaded, noBook int
			for _, l := range out {
				if strings.HasPrefix(l, "info string setoption: opening book not loaded: ") {
					notLoaded++
				}
				if strings.HasPrefix(l, "info string OwnBook is on but no book is loaded") {
					noBook++
				}
			}
			assert.Equal(t, 1, notLoaded, "%q", out)
			assert.Equal(t, 1, noBook, "%q", out)
			assert.True(t, searched(out))
			assert.Len(t, filterPrefix(out, "bestmove "), 2)
		})
	}
}

func filterPrefix(lines []string, prefix string) []string {
	var out []string
	for _, l := range lines {
		if strings.HasPrefix(l, prefix) {
			out = append(out, l)
		}
	}
	return out
}

// The book is read when OwnBook is on, whichever option comes first, and
// not reread when a GUI sends the same options again.
func TestBookLoadOrder(t *testing.T) {
	out := session(t, "setoption name BookFile value "+bookFile, "setoption name OwnBook value true",
		"setoption name OwnBook value true", "position startpos", "go depth 2")
	assert.Len(t, filterPrefix(out, "info string opening book "), 1)
	assert.Len(t, filterPrefix(out, "info string book move "), 1)

	out = session(t, "setoption name BookFile value "+bookFile, "position startpos", "go depth 2")
	assert.Empty(t, filterPrefix(out, "info string opening book "), "OwnBook is off: nothing read")
	assert.True(t, searched(out))
}
