package azero

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/twofold-chess/twofold/board"
	"github.com/twofold-chess/twofold/movegen"
)

func mustFEN(t testing.TB, fen string) *board.Position {
	t.Helper()
	p, err := movegen.ParseFEN(fen)
	require.NoError(t, err, fen)
	return p
}
