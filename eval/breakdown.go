package eval

import (
	"fmt"
	"strings"

	"github.com/twofold-chess/twofold/board"
)

// Breakdown returns a table of the evaluation's terms for p, each from
// White's point of view (White's share minus Black's) in middlegame and
// endgame centipawns, then the phase, the endgame scale and the final score.
func Breakdown(p *board.Position) string {
	var t Trace
	white := TraceOf(p, &weights, &t)
	mg := make([]int, len(paramGroups))
	eg := make([]int, len(paramGroups))
	for i := 0; i < NumParams; i++ {
		if t.Coeffs[i] == 0 {
			continue
		}
		g := groupIndex(i)
		mg[g] += int(t.Coeffs[i]) * weights[i].MG()
		eg[g] += int(t.Coeffs[i]) * weights[i].EG()
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%-28s %7s %7s\n", "term (white - black)", "mg", "eg")
	for g, grp := range paramGroups {
		fmt.Fprintf(&b, "%-28s %7d %7d\n", grp.Name, mg[g], eg[g])
	}
	fmt.Fprintf(&b, "phase %d/%d, endgame scale %d/64\n", t.Phase, maxPhase, t.Scale)
	side := white
	if p.Side() == board.Black {
		side = -white
	}
	fmt.Fprintf(&b, "Final evaluation: %d cp (White's view), %d cp (side to move)", white, side)
	return b.String()
}

func groupIndex(i int) int {
	for g := len(paramGroups) - 1; g >= 0; g-- {
		if i >= paramGroups[g].Start {
			return g
		}
	}
	return 0
}
