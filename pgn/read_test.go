package pgn_test

import (
	"errors"
	"io"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twofold-chess/twofold/board"
	"github.com/twofold-chess/twofold/movegen"
	"github.com/twofold-chess/twofold/pgn"
)

// san lists a line's moves in SAN from p.
func san(p *board.Position, ms []board.Move) string {
	q := p.Clone()
	var out []string
	for _, m := range ms {
		out = append(out, movegen.SAN(q, m))
		q.Make(m)
	}
	return strings.Join(out, " ")
}

func readOne(t *testing.T, text string) pgn.Game {
	t.Helper()
	games, err := pgn.ReadAll(text)
	require.NoError(t, err)
	require.Len(t, games, 1)
	return games[0]
}

func TestReadMovetext(t *testing.T) {
	for _, c := range []struct {
		name, text string
		moves      string // SAN, as written back
		result     string
		comment    string // the game's first comment
	}{
		{"numbers with spaces", "1. e4 e5 2. Nf3 *", "e4 e5 Nf3", "*", ""},
		{"numbers glued to moves", "1.e4 e5 2.Nf3 Nc6 1-0", "e4 e5 Nf3 Nc6", "1-0", ""},
		{"no numbers, no result", "e4 e5 Nf3", "e4 e5 Nf3", "", ""},
		{"black numbers", "1. e4 1... e5 2. Nf3 2...Nc6 1/2-1/2", "e4 e5 Nf3 Nc6", "1/2-1/2", ""},
		{"castling with zeros and checks", "1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. 0-0 Nf6 5. d3 O-O *", "e4 e5 Nf3 Nc6 Bc4 Bc5 O-O Nf6 d3 O-O", "*", ""},
		{"promotion without =", "[FEN \"7k/P7/8/8/8/8/8/K7 w - - 0 1\"]\n[SetUp \"1\"]\n\n1. a8Q+ Kh7 *", "a8=Q+ Kh7", "*", ""},
		{"en passant written out", "[FEN \"4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1\"]\n\n1. exd6 e.p. Kd7 *", "exd6 Kd7", "*", ""},
		{"a leading comment and a ; comment", "{Start} 1. e4 ; king's pawn\ne5 *", "e4 e5", "*", "Start"},
		{"an escape line", "% produced by a tool\n1. d4 d5 *", "d4 d5", "*", ""},
		{"a byte order mark", "\ufeff1. c4 *", "c4", "*", ""},
		{"comments spanning lines", "1. e4 {a\n   long\tcomment} e5 *", "e4 e5", "*", ""},
		{"an empty variation", "1. e4 () e5 *", "e4 e5", "*", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			g := readOne(t, c.text)
			assert.Equal(t, c.moves, san(g.StartPosition(), g.Moves))
			assert.Equal(t, c.result, g.Result)
			assert.Equal(t, c.comment, g.Comment)
		})
	}
}

func TestReadNotes(t *testing.T) {
	text, err := os.ReadFile("testdata/lichess.pgn")
	require.NoError(t, err)
	g := readOne(t, string(text))
	start := board.StartPosition()
	assert.Equal(t, "e4 e5 Nf3 Nc6 Bc4 Nd4 Nxe5 Qg5 Nxf7 Qxg2 Rf1 Qxe4+ Be2 Nf3#", san(start, g.Moves))
	assert.Equal(t, "0-1", g.Result)
	assert.Equal(t, "Anna", g.White)
	assert.True(t, g.Date.IsZero(), "a partial date is kept in Tags only")
	date, _ := g.Tag("Date")
	assert.Equal(t, "2026.??.??", date)
	elo, _ := g.Tag("WhiteElo")
	assert.Equal(t, "1500", elo)
	assert.Equal(t, "A friendly game.", g.Comment)
	require.Len(t, g.Notes, len(g.Moves))
	assert.Equal(t, "[%eval 0.18] [%clk 0:05:00]", g.Notes[0].Comment)
	assert.Equal(t, "[%eval 0.21]", g.Notes[1].Comment)

	nd4 := g.Notes[5]
	assert.Equal(t, []int{pgn.NAGDubious}, nd4.NAGs, "?! as a NAG")
	assert.Equal(t, "(0.25 → 0.90) Inaccuracy. Nf6 was best.", nd4.Comment)
	require.Len(t, nd4.Variations, 1)
	before := start.Clone()
	for _, m := range g.Moves[:5] {
		before.Make(m)
	}
	v := nd4.Variations[0]
	assert.Equal(t, "Nf6 Ng5 d5", san(before, v.Moves))
	require.Len(t, v.Notes, 3)
	require.Len(t, v.Notes[1].Variations, 1, "a variation within the variation")
	ng5 := before.Clone()
	ng5.Make(v.Moves[0])
	assert.Equal(t, "d3 Be7", san(ng5, v.Notes[1].Variations[0].Moves))

	assert.Equal(t, []int{pgn.NAGInteresting}, g.Notes[6].NAGs, "!? glued to the move")
	assert.Equal(t, []int{pgn.NAGMistake}, g.Notes[7].NAGs, "$2")
	require.Len(t, g.Notes[7].Variations, 1)
	assert.Equal(t, []int{pgn.NAGBlunder}, g.Notes[13].NAGs)
	assert.Equal(t, "Checkmate? No: a rest-of-line comment", g.Notes[13].Comment)
}

// Games written by Twofold, cutechess-cli and fastchess read whole: every
// tag, every move (as many as their PlyCount), every comment, the start
// position.
func TestReadToolsOutput(t *testing.T) {
	twofold := pgn.Game{
		Event: "selfplay", Date: time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC), Round: 2,
		White: "twofold", Black: "twofold", Result: "1/2-1/2", Termination: "threefold",
		Moves: moves(t, board.StartPosition(), "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8"),
	}
	cute, err := os.ReadFile("testdata/cutechess.pgn")
	require.NoError(t, err)
	fast, err := os.ReadFile("testdata/fastchess.pgn")
	require.NoError(t, err)
	for _, c := range []struct {
		name, text string
		games      int
		comments   bool
	}{
		{"twofold", twofold.String(), 1, false},
		{"cutechess-cli", string(cute), 2, true},
		{"fastchess", string(fast), 1, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			games, err := pgn.ReadAll(c.text)
			require.NoError(t, err)
			require.Len(t, games, c.games)
			for _, g := range games {
				n, _ := g.Tag("PlyCount")
				assert.Equal(t, n, strconv.Itoa(len(g.Moves)))
				res, _ := g.Tag("Result")
				assert.Equal(t, res, g.Result)
				if fen, ok := g.Tag("FEN"); ok {
					require.NotNil(t, g.Start)
					assert.Equal(t, fen, g.Start.FEN())
				}
				if c.comments {
					require.Len(t, g.Notes, len(g.Moves))
					for _, n := range g.Notes {
						assert.NotEmpty(t, n.Comment, "each move's evaluation comment")
					}
				}
				// Written again, every tag and comment is there.
				out := g.String()
				for _, tag := range g.Tags {
					assert.Contains(t, out, "["+tag.Name+` "`+tag.Value+`"]`)
				}
				again := readOne(t, out)
				assert.Equal(t, g.Moves, again.Moves)
				assert.Equal(t, g.Notes, again.Notes)
				assert.Equal(t, out, again.String(), "a second round trip changes nothing")
			}
			if c.name == "twofold" {
				assert.Equal(t, c.text, games[0].String(), "Twofold's own PGN comes back byte for byte")
			}
		})
	}
}

func TestReadSetUpAndChess960(t *testing.T) {
	g := readOne(t, "[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 b - - 0 40\"]\n\n40... Kd7 41. e4 *")
	require.NotNil(t, g.Start)
	assert.Equal(t, "4k3/8/8/8/8/8/4P3/4K3 b - - 0 40", g.Start.FEN())
	assert.Equal(t, "Kd7 e4", san(g.StartPosition(), g.Moves))
	assert.True(t, strings.HasSuffix(g.String(), "40... Kd7 41. e4 *\n\n"))

	// SetUp "0" says the FEN is not to be used.
	g = readOne(t, "[SetUp \"0\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 b - - 0 40\"]\n\n1. e4 *")
	assert.Nil(t, g.Start)

	fen := "1r2k2r/8/8/8/8/8/8/1R2K2R w HBhb - 0 1"
	g = readOne(t, "[Variant \"Chess960\"]\n[FEN \""+fen+"\"]\n\n1. O-O O-O-O *")
	require.NotNil(t, g.Start)
	assert.True(t, g.Start.Chess960())
	assert.Equal(t, "e1h1", g.Moves[0].UCI(true), "castling as king takes rook")
	assert.Equal(t, "e8b8", g.Moves[1].UCI(true))
	assert.Contains(t, g.String(), "[Variant \"Chess960\"]")
}

func TestReadSeveralGames(t *testing.T) {
	text := "[Event \"one\"]\n\n1. e4 1-0\n\n[Event \"two\"]\n\n1. d4 0-1\n1. c4 *\n[Event \"four\"]\n1. Nf3\n"
	games, err := pgn.ReadAll(text)
	require.NoError(t, err)
	require.Len(t, games, 4)
	assert.Equal(t, []string{"one", "two", "", "four"}, []string{games[0].Event, games[1].Event, games[2].Event, games[3].Event})
	assert.Equal(t, "Nf3", san(board.StartPosition(), games[3].Moves))
	assert.Equal(t, "", games[3].Result, "no result given")

	none, err := pgn.ReadAll(" \n\n")
	require.NoError(t, err)
	assert.Empty(t, none)
}

func TestReadErrors(t *testing.T) {
	for _, c := range []struct {
		name, text string
		line       int
		want       string
	}{
		{"illegal move", "1. e4 e5\n2. Ke3 *", 2, `illegal move "Ke3" after 1... e5`},
		{"ambiguous move", "[FEN \"4k3/8/8/8/8/8/8/N1N1K3 w - - 0 1\"]\n\n1. Nb3 *", 3, `ambiguous move "Nb3"`},
		{"not a move", "1. e4 xyz *", 1, `"xyz" is not a move`},
		{"unclosed comment", "1. e4 {never\nclosed e5 *", 1, "never closed"},
		{"unclosed variation", "1. e4 (1. d4 d5\n2. c4", 1, "not closed"},
		{"a variation with nothing to replace", "( 1. e4 ) *", 1, "before any move"},
		{"a stray )", "1. e4 ) *", 1, "closes no variation"},
		{"a result in a variation", "1. e4 (1. d4 1-0) *", 1, "inside a variation"},
		{"bad FEN", "[Event \"x\"]\n[FEN \"8/8/8 w - - 0 1\"]\n\n*", 2, "bad FEN tag"},
		{"impossible FEN", "[FEN \"4k3/8/8/8/8/8/8/4R1K1 w - - 0 1\"]\n*", 1, "bad FEN tag"},
		{"unquoted tag", "[Event x]\n*", 1, "double quotes"},
		{"unterminated tag", "[Event \"x\n*", 1, "closing quote"},
		{"tag without ]", "[Event \"x\"\n*", 1, `"]" is missing`},
		{"bad NAG", "1. e4 $300 *", 1, "bad NAG"},
		{"bad suffix", "1. e4!!! *", 1, "bad annotation"},
		{"null move", "1. e4 -- *", 1, "null move"},
		{"other variant", "[Variant \"Crazyhouse\"]\n1. e4 *", 1, "not supported"},
		{"junk", "1. e4 <e5> *", 1, "unexpected character"},
		{"deep variations", "1. e4 " + strings.Repeat("(1. d4 ", pgn.MaxDepth+1), 1, "nested deeper"},
		{"the second game", "1. e4 *\n\n[Event \"2\"]\n\n1. e4 e5\n2. Qxf7 *", 6, `illegal move "Qxf7"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := pgn.ReadAll(c.text)
			var pe *pgn.Error
			require.True(t, errors.As(err, &pe), "%v", err)
			assert.Equal(t, c.line, pe.Line, pe.Error())
			assert.Contains(t, pe.Error(), c.want)
			assert.True(t, strings.HasPrefix(pe.Error(), "line "), pe.Error())
		})
	}
}

// After a bad game the reader goes on with the next one.
func TestReaderSkipsABadGame(t *testing.T) {
	r := pgn.NewReader("[Event \"1\"]\n\n1. e4 e5 2. Ke3 e6 1-0\n\n[Event \"2\"]\n\n1. d4 *\n")
	_, err := r.Next()
	var pe *pgn.Error
	require.ErrorAs(t, err, &pe)
	assert.Equal(t, 1, pe.Game)
	g, err := r.Next()
	require.NoError(t, err)
	assert.Equal(t, "2", g.Event)
	_, err = r.Next()
	assert.Equal(t, io.EOF, err)
}

// FuzzRead: no input panics the reader, and a game it reads, written and
// read again, comes back the same.
func FuzzRead(f *testing.F) {
	for _, name := range []string{"testdata/lichess.pgn", "testdata/cutechess.pgn", "testdata/fastchess.pgn"} {
		b, err := os.ReadFile(name)
		require.NoError(f, err)
		f.Add(string(b))
	}
	f.Add("1. e4 (1. d4 d5 (1... Nf6)) e5 {x} $1 *")
	f.Add("[FEN \"7k/P7/8/8/8/8/8/K7 w - - 0 1\"]\n1. a8=N Kg7 *")
	f.Fuzz(func(t *testing.T, text string) {
		games, err := pgn.ReadAll(text)
		if err != nil {
			var pe *pgn.Error
			require.ErrorAs(t, err, &pe)
			require.Positive(t, pe.Line)
			return
		}
		for _, g := range games {
			out := g.String()
			again, err := pgn.ReadAll(out)
			require.NoError(t, err, out)
			require.Len(t, again, 1, out)
			require.Equal(t, g.Moves, again[0].Moves, out)
			require.Equal(t, out, again[0].String())
		}
	})
}
