package pgn_test

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twofold-chess/twofold/board"
	"github.com/twofold-chess/twofold/movegen"
	"github.com/twofold-chess/twofold/pgn"
)

func moves(t *testing.T, p *board.Position, uci string) []board.Move {
	t.Helper()
	q := p.Clone()
	var ms []board.Move
	for _, s := range strings.Fields(uci) {
		m, err := movegen.ParseUCI(q, s)
		require.NoError(t, err, s)
		q.Make(m)
		ms = append(ms, m)
	}
	return ms
}

func TestFoolsMate(t *testing.T) {
	g := pgn.Game{
		Event:       "test",
		Date:        time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC),
		Round:       3,
		White:       "A",
		Black:       `B "the second"`,
		Result:      "0-1",
		Termination: "checkmate",
		Moves:       moves(t, board.StartPosition(), "f2f3 e7e5 g2g4 d8h4"),
	}
	want := `[Event "test"]
[Site "?"]
[Date "2026.11.21"]
[Round "3"]
[White "A"]
[Black "B \"the second\""]
[Result "0-1"]
[PlyCount "4"]
[Termination "checkmate"]

1. f3 e5 2. g4 Qh4# 0-1

`
	assert.Equal(t, want, g.String())
}

func TestUnknownsAndSetUp(t *testing.T) {
	start, err := board.ParseFEN("4k3/8/8/8/8/8/4P3/4K3 b - - 0 40")
	require.NoError(t, err)
	g := pgn.Game{Start: start, Moves: moves(t, start, "e8d7 e2e4")}
	s := g.String()
	for _, tag := range []string{`[Site "?"]`, `[Date "????.??.??"]`, `[Round "?"]`, `[White "?"]`, `[Result "*"]`,
		`[SetUp "1"]`, `[FEN "4k3/8/8/8/8/8/4P3/4K3 b - - 0 40"]`} {
		assert.Contains(t, s, tag)
	}
	assert.NotContains(t, s, "Termination")
	assert.True(t, strings.HasSuffix(s, "\n40... Kd7 41. e4 *\n\n"), s)
	assert.Equal(t, "4k3/8/8/8/8/8/4P3/4K3 b - - 0 40", start.FEN(), "Start is not modified")
}

func TestChess960Tag(t *testing.T) {
	start, err := board.ParseFEN("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9")
	require.NoError(t, err)
	start.SetChess960(true)
	s := pgn.Game{Start: start}.String()
	assert.Contains(t, s, `[Variant "Chess960"]`)
	assert.Contains(t, s, "\n\n*\n\n", "no moves: the result alone")
}

// TestLineWidth plays a long game and checks every movetext line stays
// within 79 columns and the moves read back.
func TestLineWidth(t *testing.T) {
	p := board.StartPosition()
	var ms []board.Move
	var ml movegen.MoveList
	for i := 0; i < 120; i++ {
		movegen.Legal(p, &ml)
		if ml.Len() == 0 {
			break
		}
		m := ml.Moves()[(i*7)%ml.Len()]
		ms = append(ms, m)
		p.Make(m)
	}
	s := pgn.Game{Moves: ms}.String()
	body := s[strings.Index(s, "\n\n")+2:]
	lines := strings.Split(strings.TrimSpace(body), "\n")
	assert.Greater(t, len(lines), 5)
	for _, l := range lines {
		assert.LessOrEqual(t, len(l), 79, l)
	}
	q := board.StartPosition()
	n := 0
	for _, tok := range strings.Fields(body) {
		if strings.HasSuffix(tok, ".") || tok == "*" {
			continue
		}
		m, err := movegen.ParseSAN(q, tok)
		require.NoError(t, err, tok)
		q.Make(m)
		n++
	}
	assert.Equal(t, len(ms), n)
	assert.Equal(t, p.FEN(), q.FEN())
}
