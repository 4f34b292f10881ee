package movegen_test

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twofold-chess/twofold/board"
	"github.com/twofold-chess/twofold/movegen"
)

func TestGameStatus(t *testing.T) {
	tests := []struct {
		name  string
		fen   string
		moves []string
		want  movegen.Status
	}{
		{"start", board.StartFEN, nil, movegen.Ongoing},
		{"fool's mate", board.StartFEN, []string{"f2f3", "e7e5", "g2g4", "d8h4"}, movegen.Checkmate},
		{"one move before fool's mate", board.StartFEN, []string{"f2f3", "e7e5", "g2g4"}, movegen.Ongoing},
		{"check is not mate", "4k3/8/8/8/8/8/8/R3K3 b - - 0 1", nil, movegen.Ongoing},
		{"stalemate", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", nil, movegen.Stalemate},
		{"stalemate with pawns blocked", "k7/P7/1K6/8/8/8/8/8 b - - 0 1", nil, movegen.Stalemate},
		{"smothered mate", "6rk/5Npp/8/8/8/8/8/6K1 b - - 0 1", nil, movegen.Checkmate},
		{"halfmove 99 is not yet a draw", "4k3/8/8/8/8/8/8/R3K3 b - - 99 80", nil, movegen.Ongoing},
		{"fifty-move draw at 100", "4k3/8/8/8/8/8/8/R3K3 b - - 100 80", nil, movegen.FiftyMoveDraw},
		{"fifty-move draw reached by a move", "4k3/8/8/8/8/8/8/R3K3 w - - 99 80", []string{"a1a2"}, movegen.FiftyMoveDraw},
		{"mate on the 100th ply wins", "6k1/5ppp/8/8/8/8/8/R5K1 w - - 99 80", []string{"a1a8"}, movegen.Checkmate},
		{"stalemate beats the fifty-move rule", "7k/5Q2/6K1/8/8/8/8/8 b - - 100 80", nil, movegen.Stalemate},
		{"threefold", board.StartFEN, []string{"g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8"}, movegen.ThreefoldDraw},
		{"twofold is not a draw", board.StartFEN, []string{"g1f3", "g8f6", "f3g1", "f6g8"}, movegen.Ongoing},
		{"insufficient material KvK", "8/8/4k3/8/8/3K4/8/8 w - - 0 1", nil, movegen.InsufficientMaterialDraw},
		{"insufficient material KNvK", "8/8/4k3/8/8/3K4/8/6N1 b - - 0 1", nil, movegen.InsufficientMaterialDraw},
		{"king takes the last rook", "8/8/4k3/8/8/3K4/4r3/8 w - - 0 1", []string{"d3e2"}, movegen.InsufficientMaterialDraw},
		{"KRvK is not a draw", "8/8/4k3/8/8/3K4/8/7R w - - 0 1", nil, movegen.Ongoing},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := mustFEN(t, tt.fen)
			playUCI(t, p, tt.moves...)
			got := movegen.GameStatus(p)
			assert.Equal(t, tt.want, got, "got %s", got)
			assert.Equal(t, tt.want != movegen.Ongoing, got.Over())
		})
	}
}

func TestMateOnHundredthPlyIsAlsoFiftyMoves(t *testing.T) {
	p := mustFEN(t, "6k1/5ppp/8/8/8/8/8/R5K1 w - - 99 80")
	assert.Equal(t, movegen.Ongoing, movegen.GameStatus(p))
	playUCI(t, p, "a1a8")
	require.True(t, p.FiftyMoveRule(), "the position is also a fifty-move position")
	require.True(t, movegen.InCheck(p))
	assert.Equal(t, movegen.Checkmate, movegen.GameStatus(p))
}

func TestStatusStrings(t *testing.T) {
	assert.Equal(t, "ongoing", movegen.Ongoing.String())
	assert.Equal(t, "checkmate", movegen.Checkmate.String())
	assert.Equal(t, "stalemate", movegen.Stalemate.String())
	assert.Equal(t, "fifty-move rule", movegen.FiftyMoveDraw.String())
	assert.Equal(t, "threefold repetition", movegen.ThreefoldDraw.String())
	assert.Equal(t, "insufficient material", movegen.InsufficientMaterialDraw.String())
	assert.False(t, movegen.Ongoing.Over())
}

func TestValidate(t *testing.T) {
	tests := []struct {
		name string
		fen  string
		ok   bool
	}{
		{"start", board.StartFEN, true},
		{"side to move in check is fine", "4k3/8/8/8/8/8/8/4RK2 b - - 0 1", true},
		{"double check is fine", "4r2k/8/8/8/8/3n4/8/3QK3 w - - 0 1", true},
		{"side not to move in check", "4k3/8/8/8/8/8/8/4RK2 w - - 0 1", false},
		{"black king attacked by a pawn, white to move", "8/8/8/8/8/3k4/4P3/4K3 w - - 0 1", false},
		{"kings touching", "8/8/8/8/8/8/8/Kk6 w - - 0 1", false},
		{"three checkers", "4k3/8/3N1N2/8/8/8/8/4R1K1 b - - 0 1", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := board.ParseFEN(tt.fen)
			require.NoError(t, err, "board.ParseFEN accepts it")
			err = movegen.Validate(p)
			q, perr := movegen.ParseFEN(tt.fen)
			if tt.ok {
				assert.NoError(t, err)
				assert.NoError(t, perr)
				require.NotNil(t, q)
				assert.Equal(t, p.Key(), q.Key())
			} else {
				assert.Error(t, err)
				assert.Error(t, perr)
				assert.Nil(t, q)
			}
		})
	}
}

func TestParseFENPassesFENErrors(t *testing.T) {
	p, err := movegen.ParseFEN("8/8/8/8/8/8/8/K6k w - - 0")
	require.Error(t, err)
	assert.Nil(t, p)
	var fe *board.FENError
	require.True(t, errors.As(err, &fe))
	assert.Equal(t, "fields", fe.Field)
}
