package search

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twofold-chess/twofold/board"
	"github.com/twofold-chess/twofold/movegen"
)

func correctionThread(t *testing.T, st Strength) *thread {
	t.Helper()
	p, err := movegen.ParseFEN("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
	require.NoError(t, err)
	s := New(1, Options{Threads: 1, Strength: st})
	th := s.threads[0]
	th.prepare(p, nil)
	return th
}

func TestCorrectionLearnsThePawnStructuresError(t *testing.T) {
	sq := func(name string) board.Square {
		s, ok := board.ParseSquare(name)
		require.True(t, ok)
		return s
	}
	th := correctionThread(t, Strength{})
	assert.Equal(t, 37, th.corrected(37), "nothing learnt yet")

	entry := func() int32 { return th.corr[th.pos.Side()][pawnIndex(th.pos)] }
	th.updateCorrection(0, 40, 2) // weight 3: a shallow search moves it a little
	assert.Equal(t, int32(40*corrGrain*3/corrScale), entry())
	th.s.Clear()
	th.updateCorrection(0, 40, 30) // full weight
	assert.Equal(t, int32(40*corrGrain*corrDepth/corrScale), entry())
	for range 200 {
		th.updateCorrection(0, 40, 20)
	}
	assert.InDelta(t, 40, th.corrected(0), 1, "deep searches pull it to the error")
	assert.InDelta(t, 40-500, th.corrected(-500), 1)
	for range 200 {
		th.updateCorrection(0, 1000, 20)
	}
	assert.InDelta(t, corrMax/corrGrain, th.corrected(0), 1, "bounded")
	before := th.corrected(0)
	th.updateCorrection(0, MateScore-10, 20)
	th.updateCorrection(0, -TBWin+3, 20)
	assert.Equal(t, before, th.corrected(0), "decisive scores say nothing of the evaluation")
	assert.Equal(t, TBWinBound-1, th.corrected(TBWinBound-1), "never decisive")

	// The other side to move, or another pawn structure, has its own entry.
	th.pos.Make(board.NewMove(board.F1, sq("b5")))
	assert.Equal(t, 0, th.corrected(0), "black to move")
	th.pos.Unmake()
	th.pos.Make(board.NewMove(sq("d2"), sq("d4")))
	th.pos.MakeNull()
	assert.Equal(t, 0, th.corrected(0), "a pawn moved")
	th.pos.UnmakeNull()
	th.pos.Unmake()
	assert.Equal(t, before, th.corrected(0))

	th.s.Clear()
	assert.Equal(t, 0, th.corrected(0), "a new game forgets")
}

func TestCorrectionOnlyAtFullStrength(t *testing.T) {
	for _, st := range []Strength{{Depth: 3, Margin: 30}, {Nodes: 20000}} {
		th := correctionThread(t, st)
		for range 50 {
			th.updateCorrection(0, 40, 20)
		}
		assert.Equal(t, 0, th.corrected(0), "%+v: the weakened levels keep their calibrated search", st)
	}
}

func TestPawnIndexSeesOnlyPawns(t *testing.T) {
	a, err := movegen.ParseFEN("4k3/pp6/8/8/8/8/PP6/4K3 w - - 0 1")
	require.NoError(t, err)
	b, err := movegen.ParseFEN("r3k3/pp6/8/3n4/8/2N5/PP6/R3K3 b - - 0 1")
	require.NoError(t, err)
	c, err := movegen.ParseFEN("4k3/1p6/p7/8/8/8/PP6/4K3 w - - 0 1")
	require.NoError(t, err)
	assert.Equal(t, pawnIndex(a), pawnIndex(b))
	assert.NotEqual(t, pawnIndex(a), pawnIndex(c))
}
