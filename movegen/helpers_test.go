package movegen_test

import (
	"bufio"
	"os"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/twofold-chess/twofold/board"
	"github.com/twofold-chess/twofold/movegen"
)

const kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"

// mustFEN parses and validates fen or stops the test.
func mustFEN(t testing.TB, fen string) *board.Position {
	t.Helper()
	p, err := movegen.ParseFEN(fen)
	require.NoError(t, err, fen)
	return p
}

// epdLine is one line of a perft suite: the FEN and the depth-1 count.
type epdLine struct {
	fen string
	d1  int // -1 when the line has no D1 entry
}

func readEPD(t testing.TB, path string) []epdLine {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	var lines []epdLine
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		parts := strings.Split(text, ";")
		l := epdLine{fen: strings.TrimSpace(parts[0]), d1: -1}
		for _, op := range parts[1:] {
			if f := strings.Fields(op); len(f) == 2 && f[0] == "D1" {
				l.d1, err = strconv.Atoi(f[1])
				require.NoError(t, err, text)
			}
		}
		lines = append(lines, l)
	}
	require.NoError(t, sc.Err())
	require.NotEmpty(t, lines, path)
	return lines
}

// legalUCI returns the legal moves of p in UCI (the position's own
// castling notation), sorted.
func legalUCI(p *board.Position) []string {
	var ml movegen.MoveList
	movegen.Legal(p, &ml)
	return uciList(p, ml.Moves())
}

func noisyUCI(p *board.Position) []string {
	var ml movegen.MoveList
	movegen.Noisy(p, &ml)
	return uciList(p, ml.Moves())
}

func uciList(p *board.Position, moves []board.Move) []string {
	out := make([]string, 0, len(moves))
	for _, m := range moves {
		out = append(out, m.UCI(p.Chess960()))
	}
	sort.Strings(out)
	return out
}

func legalMoves(p *board.Position) []board.Move {
	var ml movegen.MoveList
	movegen.Legal(p, &ml)
	return append([]board.Move(nil), ml.Moves()...)
}

// sq parses a square name or panics (test tables only).
func sq(s string) board.Square {
	r, ok := board.ParseSquare(s)
	if !ok {
		panic("bad square " + s)
	}
	return r
}

// playUCI makes the UCI moves on p.
func playUCI(t testing.TB, p *board.Position, moves ...string) {
	t.Helper()
	for _, s := range moves {
		m, err := movegen.ParseUCI(p, s)
		require.NoError(t, err, "%s in %s", s, p.FEN())
		p.Make(m)
	}
}
