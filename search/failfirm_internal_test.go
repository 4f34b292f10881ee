package search

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Evaluation cuts return a score between the evaluation and beta, since no
// move was searched to prove the evaluation; near decisive scores they keep
// the evaluation so that mate and tablebase bounds stay exact.
func TestEvaluationCutsFailFirm(t *testing.T) {
	th := correctionThread(t, Strength{})
	eval := th.corrected(th.evaluate(0))

	t.Run("stand pat", func(t *testing.T) {
		th.s.Clear()
		beta := eval - 100
		assert.Equal(t, eval-50, th.quiesce(beta-1, beta, 0))
		e, hit := th.s.tt.probe(th.pos.Key())
		require.True(t, hit, "the stand pat is kept in the table")
		assert.Equal(t, BoundLower, e.bound)
		assert.Equal(t, eval, scoreFromTT(int(e.score), 0))
		assert.Equal(t, eval, th.corrected(int(e.eval)), "the raw evaluation is kept")

		th.s.Clear()
		assert.Equal(t, eval, th.quiesce(-MateScore+3, -TBWinBound, 0), "decisive beta")
	})

	t.Run("reverse futility", func(t *testing.T) {
		beta := eval - 2*tp.rfpMargin
		score, cut := th.pruneNode(beta-1, beta, 1, 1, true, eval, false, false)
		require.True(t, cut)
		assert.Equal(t, eval-tp.rfpMargin, score)

		score, cut = th.pruneNode(-MateScore+3, -TBWinBound, 1, 1, true, eval, false, false)
		require.True(t, cut)
		assert.Equal(t, eval, score, "decisive beta")
	})
}
