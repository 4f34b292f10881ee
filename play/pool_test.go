package play

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twofold-chess/twofold/board"
	"github.com/twofold-chess/twofold/mind"
	"github.com/twofold-chess/twofold/search"
)

// A level reaches the classical searcher through the strength options it
// declares, whatever level it played before.
func TestLevelSetsTheSearchersStrength(t *testing.T) {
	pool := AlphaBeta(1)
	easy, _ := search.DifficultyStrength("easy")
	hard, _ := search.DifficultyStrength("hard")
	for _, c := range []struct {
		level Level
		want  search.Strength
	}{
		{Level{Name: "max"}, search.Strength{}},
		{Level{Name: "easy"}, easy},
		{Level{Elo: 1500}, search.EloStrength(1500)},
		{Level{Name: "hard"}, hard},
		{Level{Elo: MaxElo}, search.EloStrength(MaxElo)},
		{Level{Name: "max"}, search.Strength{}},
	} {
		_, _, err := pool.think(context.Background(), board.StartPosition(), ThinkRequest{MoveTime: 20 * time.Millisecond, MultiPV: 1, Level: c.level}, func(mind.Info) {})
		require.NoError(t, err, c.level)
		require.Len(t, pool.free, 1, "one searcher, reused")
		assert.Equal(t, c.want, pool.free[0].s.(*search.Searcher).Options().Strength, c.level)
	}
}

// The page sees scores from White's point of view.
func TestInfoIsWhitesView(t *testing.T) {
	black := board.StartPosition()
	black.Make(board.NewMove(board.NewSquare(4, 1), board.NewSquare(4, 3)))
	for _, c := range []struct {
		pos      *board.Position
		score    mind.Score
		wantCP   int
		wantMate int
		wantIsCP bool
	}{
		{pos: board.StartPosition(), score: mind.CP(30), wantCP: 30, wantIsCP: true},
		{pos: black, score: mind.CP(30), wantCP: -30, wantIsCP: true},
		{pos: board.StartPosition(), score: mind.MateIn(2), wantMate: 2},
		{pos: black, score: mind.MateIn(2), wantMate: -2},
		{pos: black, score: mind.MateIn(-1), wantMate: 1},
	} {
		in := toInfo("engine", 0, c.pos, mind.Info{Score: c.score})
		assert.Equal(t, 1, in.MultiPV)
		if c.wantIsCP {
			require.NotNil(t, in.Score.CP)
			assert.Nil(t, in.Score.Mate)
			assert.Equal(t, c.wantCP, *in.Score.CP)
		} else {
			require.NotNil(t, in.Score.Mate)
			assert.Nil(t, in.Score.CP)
			assert.Equal(t, c.wantMate, *in.Score.Mate)
		}
	}
}
