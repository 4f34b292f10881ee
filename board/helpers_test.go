package board_test

import (
	"bufio"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/twofold-chess/twofold/board"
)

// kiwipete is the well-known move generation test position.
const kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"

// mustFEN parses fen or stops the test.
func mustFEN(t testing.TB, fen string) *board.Position {
	t.Helper()
	p, err := board.ParseFEN(fen)
	require.NoError(t, err, fen)
	return p
}

// epdFENs returns the FEN part (before the first ';') of every line of an EPD file.
func epdFENs(t testing.TB, path string) []string {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	var fens []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fen, _, _ := strings.Cut(line, ";")
		fens = append(fens, strings.TrimSpace(fen))
	}
	require.NoError(t, sc.Err())
	require.NotEmpty(t, fens, path)
	return fens
}

// scratchKey returns the key of p's position computed from scratch, by
// writing it as FEN and parsing that again.
func scratchKey(t testing.TB, p *board.Position) uint64 {
	t.Helper()
	q, err := board.ParseFEN(p.FEN())
	require.NoError(t, err, p.FEN())
	return q.Key()
}
