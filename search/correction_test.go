package search

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twofold-chess/twofold/movegen"
)

func TestCorrectionHistory(t *testing.T) {
	p, err := movegen.ParseFEN("r1bqkb1r/pppp1ppp/2n2n2/4p3/4P3/2N2N2/PPPP1PPP/R1BQKB1R w KQkq - 4 4")
	require.NoError(t, err)
	th := &thread{pos: p}
	assert.Equal(t, 37, th.correctedEval(37), "an empty history corrects nothing")

	// Searches that keep landing above the evaluation pull it up, deeper
	// results harder, and the two tables together by at most 2 x 64 cp.
	shallow, deep := &thread{pos: p}, &thread{pos: p}
	shallow.updateCorrection(0, 20, 1)
	deep.updateCorrection(0, 20, 12)
	assert.Greater(t, shallow.correctedEval(0), 0)
	assert.Greater(t, deep.correctedEval(0), shallow.correctedEval(0))
	for range 200 {
		deep.updateCorrection(deep.correctedEval(0), 300, 12)
	}
	assert.InDelta(t, 128, deep.correctedEval(0), 2, "two tables, 64 cp each at most")
	assert.Equal(t, MateBound-1, deep.correctedEval(MateBound-10), "never a mate score")
	// The residual error is what is learnt: at an error of 40 cp the two
	// tables settle on 40 together, not 40 each.
	fit := &thread{pos: p}
	for range 500 {
		fit.updateCorrection(fit.correctedEval(0), 40, 8)
	}
	assert.InDelta(t, 40, fit.correctedEval(0), 3)

	// The other side to move, and another pawn structure and material, have their own entries.
	q, err := movegen.ParseFEN("r1bqkb1r/pppp1ppp/2n2n2/4p3/4P3/2N2N2/PPPP1PPP/R1BQKB1R b KQkq - 4 4")
	require.NoError(t, err)
	deep.pos = q
	assert.Equal(t, 0, deep.correctedEval(0))
	r, err := movegen.ParseFEN("r1bqkb1r/pppp1ppp/2n2n2/8/4P3/2N2N2/PPPP1PPP/R1BQKB1R w KQkq - 4 4")
	require.NoError(t, err)
	pawn1, mat1 := corrKeys(p)
	pawn2, mat2 := corrKeys(r)
	assert.NotEqual(t, pawn1, pawn2)
	assert.NotEqual(t, mat1, mat2)
}
