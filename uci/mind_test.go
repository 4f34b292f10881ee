package uci

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twofold-chess/twofold/azero"
)

// withBackend sets the engine's MCTS up with a stand-in network, so that
// the MCTS side of the loop runs in every build, with no ONNX Runtime.
func withBackend(b azero.Backend) func(*Engine) {
	return func(e *Engine) {
		e.mcts.load = func(string, string) (azero.Backend, string, error) { return b, "a stand-in network", nil }
	}
}

// Both minds are driven through mind.Searcher and their reports written by
// one formatter: MCTS lines have no hashfull (no hash table), AlphaBeta's
// do; a proven mate is "score mate" with its WDL either way.
func TestOneLoopForBothMinds(t *testing.T) {
	out := playedWith(t, withBackend(&azero.Uniform{}),
		"setoption name Search value MCTS",
		"setoption name UCI_ShowWDL value true",
		"position startpos moves e2e4",
		"go nodes 300",
		"position fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1",
		"go nodes 200",
		"setoption name Search value AlphaBeta",
		"go depth 3",
	)
	require.Equal(t, "info string MCTS with a stand-in network", out[0])
	var bestmoves []int
	for i, l := range out {
		if strings.HasPrefix(l, "bestmove ") {
			bestmoves = append(bestmoves, i)
		}
	}
	require.Len(t, bestmoves, 3, "%q", out)
	b1, b2, b3 := bestmoves[0], bestmoves[1], bestmoves[2]
	assert.Regexp(t, `^info depth \d+ seldepth \d+ multipv 1 score cp -?\d+ wdl \d+ \d+ \d+ nodes 300 nps \d+ tbhits 0 time \d+ pv( [a-h][1-8][a-h][1-8][qrbn]?)+$`, out[b1-1])
	assert.Equal(t, "bestmove a1a8", out[b2])
	assert.Regexp(t, `^info depth \d+ seldepth \d+ multipv 1 score mate 1 wdl 1000 0 0 nodes \d+ nps \d+ tbhits 0 time \d+ pv a1a8`, out[b2-1])
	assert.Equal(t, "bestmove a1a8", out[b3])
	assert.Regexp(t, `^info depth 3 seldepth \d+ multipv 1 score mate 1 wdl 1000 0 0 nodes \d+ nps \d+ hashfull \d+ tbhits 0 time \d+ pv a1a8`, out[b3-1])
}

// failing is a network that cannot run.
type failing struct{ max int }

func (f failing) Evaluate([]float32, int, []float32, []float32) error {
	return errors.New("device lost")
}
func (f failing) MaxBatch() int { return f.max }
func (f failing) Close() error  { return nil }

// A network that fails mid-search still ends the search in a legal
// bestmove, and the loop says why.
func TestMCTSNetworkFailureIsReported(t *testing.T) {
	out := playedWith(t, withBackend(azero.BackendFunc(func(b int) (azero.Evaluator, error) { return failing{b}, nil })),
		"setoption name Search value MCTS",
		"go nodes 100",
	)
	assert.Contains(t, out, "info string MCTS: network evaluation failed: device lost")
	assert.Regexp(t, `^bestmove [a-h][1-8][a-h][1-8]$`, out[len(out)-1])
}
