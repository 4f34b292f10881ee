package book

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twofold-chess/twofold/board"
	"github.com/twofold-chess/twofold/movegen"
)

// testdata/book.bin was made by Polyglot itself (Debian's polyglot package,
// 2.0.4+git20210322-1, `apt-get install polyglot`) from testdata/games.pgn,
// eight short games written by hand to hold both castlings for both sides,
// en passant for both sides and promotions to queen and knight:
//
//go:generate /usr/games/polyglot make-book -pgn testdata/games.pgn -bin testdata/book.bin -min-game 1
//
// (-min-game 1 keeps positions seen in one game; the default drops them.)
// Polyglot weighs a move 2 per win and 1 per draw of the side that played
// it and drops moves of weight 0, so the games' results decide what the
// book holds; all of them keep every move.

// readGames returns the games of a PGN file as lists of SAN moves (enough
// of PGN for the hand-written file: tags, move numbers, results).
func readGames(t *testing.T, path string) [][]string {
	t.Helper()
	text, err := os.ReadFile(path)
	require.NoError(t, err)
	var games [][]string
	for _, line := range strings.Split(string(text), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "[") {
			continue
		}
		var game []string
		for _, tok := range strings.Fields(line) {
			switch {
			case strings.HasSuffix(tok, "."), tok == "1-0", tok == "0-1", tok == "1/2-1/2", tok == "*":
			default:
				game = append(game, tok)
			}
		}
		games = append(games, game)
	}
	return games
}

func testBook(t *testing.T) *Book {
	t.Helper()
	b, err := Open(filepath.Join("testdata", "book.bin"))
	require.NoError(t, err)
	return b
}

// Every move of every game is found in Polyglot's book, from the position
// it was played in, and every entry of the book is one of them: the keys
// and the move decoding agree with Polyglot's, en passant and castling
// included.
func TestPolyglotBookHoldsTheGames(t *testing.T) {
	b := testBook(t)
	type pair struct {
		key  uint64
		move board.Move
	}
	seen := map[pair]bool{}
	games := readGames(t, filepath.Join("testdata", "games.pgn"))
	require.Len(t, games, 8)
	for _, game := range games {
		p := board.StartPosition()
		for _, san := range game {
			m, err := movegen.ParseSAN(p, san)
			require.NoError(t, err)
			var found bool
			for _, c := range b.Moves(p) {
				found = found || c.Move == m
			}
			assert.True(t, found, "%s (%s) not in the book at %s", san, m, p.FEN())
			seen[pair{Key(p), m}] = true
			p.Make(m)
		}
	}
	assert.Equal(t, b.Len(), len(seen), "every entry is a move of the games")
}

func TestPolyglotBookMoves(t *testing.T) {
	b := testBook(t)
	for _, tc := range []struct {
		name, moves string
		want        map[string]uint32 // UCI (standard notation) -> weight
	}{
		// e4: two wins' worth (2) plus three draws; h4: a win and a draw.
		{"start", "", map[string]uint32{"e2e4": 5, "h2h4": 3, "d2d4": 1, "g1f3": 1}},
		{"Ruy Lopez or Italian", "e2e4 e7e5 g1f3 b8c6", map[string]uint32{"f1b5": 3, "f1c4": 1}},
		{"white castles short", "e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 b5a4 g8f6", map[string]uint32{"e1g1": 3}},
		{"black castles short", "e2e4 e7e5 g1f3 b8c6 f1c4 f8c5 e1g1 g8f6 d2d3", map[string]uint32{"e8g8": 1}},
		{"white castles long", "d2d4 d7d5 b1c3 g8f6 c1f4 c7c6 d1d2 c8f5", map[string]uint32{"e1c1": 1}},
		{"black castles long", "d2d4 d7d5 b1c3 g8f6 c1f4 c7c6 d1d2 c8f5 e1c1 b8d7 f2f3 d8a5 g2g4", map[string]uint32{"e8c8": 1}},
		{"white takes en passant", "e2e4 g8f6 e4e5 d7d5", map[string]uint32{"e5d6": 1}},
		{"black takes en passant", "g1f3 d7d5 b1c3 d5d4 e2e4", map[string]uint32{"d4e3": 1}},
		{"promotions", "h2h4 g7g5 h4g5 h7h6 g5h6 f8g7 h6g7 g8f6", map[string]uint32{"g7h8q": 2, "g7h8n": 1}},
		{"out of book", "a2a3", map[string]uint32{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := play(t, tc.moves)
			got := map[string]uint32{}
			for _, c := range b.Moves(p) {
				got[c.Move.UCI(false)] = c.Weight
				if strings.Contains(tc.name, "castles") {
					assert.Equal(t, board.Castling, c.Move.Kind())
				}
				if strings.Contains(tc.name, "en passant") {
					assert.Equal(t, board.EnPassant, c.Move.Kind())
				}
			}
			assert.Equal(t, tc.want, got)
		})
	}
}
