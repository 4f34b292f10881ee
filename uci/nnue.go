package uci

import (
	"fmt"

	"github.com/twofold-chess/twofold/board"
)

// The alpha-beta searcher's network is one of its own options (EvalFile
// and Use NNUE, see search.Settings); "d" and "eval" show it, and "bench"
// searches with what AlphaBeta's next "go" would. MCTS has its own network
// (NetworkFile) and is not affected.

// nnueEval is the network's score of p for "eval": the side to move's and
// White's view, with the line naming the network.
func (e *Engine) nnueEval(p *board.Position) string {
	line := "Network: " + e.classical.DescribeNetwork()
	stm := e.classical.Network().Evaluate(p)
	white := stm
	if p.Side() == board.Black {
		white = -stm
	}
	return fmt.Sprintf("NNUE evaluation: %d cp (White's view), %d cp (side to move)\n%s", white, stm, line)
}
