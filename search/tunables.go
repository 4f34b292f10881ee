package search

import (
	"fmt"
	"math"

	"github.com/twofold-chess/twofold/movegen"
)

// The search's margins, reductions and divisors. They are variables, not
// constants, so that SPSA (scripts/spsa.py) can tune them through UCI
// options in a -tags spsa build; release builds list no such option and
// never change them. Values are integers (the LMR coefficients in
// hundredths) because UCI spin options are.
var tp = struct {
	rfpMargin, rfpImproving          int // reverse futility: eval - margin*depth + improving >= beta
	nmpBase, nmpDepthDiv, nmpEvalDiv int // null-move reduction: base + depth/div + (eval-beta)/evalDiv
	lmpBase                          int // late-move pruning after (base + depth²)/(2-improving) quiets
	futBase, futDepth                int // futility: eval + base + depth*futDepth <= alpha
	seeQuiet, seeNoisy               int // SEE pruning thresholds per depth
	lmrBase, lmrDiv                  int // lmr = base/100 + ln(depth)ln(move)/(div/100)
	lmrHistDiv                       int // history that removes one ply of reduction
	aspDelta                         int // first aspiration half-window
	singularMargin, doubleExtMargin  int // singular beta = ttScore - margin*depth; double extension below it
	qsDelta                          int // quiescence delta-pruning margin
	histBonusMul, histBonusMax       int // history bonus = min(mul*depth² + lin*(depth-1), max)
	histBonusLin                     int // the bonus's linear term per ply beyond the first
	captHistDiv                      int // capture history's weight in capture ordering
	razorMargin                      int // razoring: eval + margin*depth <= alpha at depth <= 3
	histPruneDepth                   int // quiets with history below -this*depth are pruned at depth <= 4
	lmrDeeper, lmrShallower          int // an LMR re-search goes a ply deeper/shallower when the reduced score beat the best by more/less than this
	evalHistMul, evalHistMax         int // the history of the opponent's quiet move moves by -mul*(eval change), at most ±max
}{
	rfpMargin: 80, rfpImproving: 40,
	nmpBase: 3, nmpDepthDiv: 4, nmpEvalDiv: 200,
	lmpBase: 3,
	futBase: 100, futDepth: 90,
	seeQuiet: 60, seeNoisy: 100,
	lmrBase: 75, lmrDiv: 225,
	lmrHistDiv:     8000,
	aspDelta:       15,
	singularMargin: 2, doubleExtMargin: 25,
	qsDelta:      200,
	histBonusMul: 16, histBonusMax: 1600, histBonusLin: 128,
	captHistDiv: 4,
	razorMargin: 250, histPruneDepth: 4000,
	lmrDeeper: 50, lmrShallower: 10,
	evalHistMul: 20, evalHistMax: 1600,
}

// Tunable is one search constant as SPSA sees it: its name (the UCI option
// in spsa builds), a pointer to its value, its range, and the step SPSA
// ends with (fishtest's c_end).
type Tunable struct {
	Name     string
	Value    *int
	Min, Max int
	Step     float64
}

// Tunables lists the search constants SPSA may tune.
func Tunables() []Tunable {
	return []Tunable{
		{"RFPMargin", &tp.rfpMargin, 30, 160, 6},
		{"RFPImproving", &tp.rfpImproving, 0, 120, 6},
		{"NMPBase", &tp.nmpBase, 1, 6, 0.5},
		{"NMPDepthDiv", &tp.nmpDepthDiv, 2, 8, 0.5},
		{"NMPEvalDiv", &tp.nmpEvalDiv, 50, 500, 15},
		{"LMPBase", &tp.lmpBase, 0, 10, 0.5},
		{"FutBase", &tp.futBase, 0, 300, 10},
		{"FutDepth", &tp.futDepth, 30, 200, 6},
		{"SEEQuiet", &tp.seeQuiet, 10, 150, 5},
		{"SEENoisy", &tp.seeNoisy, 30, 250, 8},
		{"LMRBase", &tp.lmrBase, 0, 200, 8},
		{"LMRDiv", &tp.lmrDiv, 120, 400, 12},
		{"LMRHistDiv", &tp.lmrHistDiv, 2000, 20000, 600},
		{"AspDelta", &tp.aspDelta, 5, 60, 2},
		{"SingularMargin", &tp.singularMargin, 1, 5, 0.4},
		{"DoubleExtMargin", &tp.doubleExtMargin, 0, 100, 4},
		{"QSDelta", &tp.qsDelta, 50, 500, 15},
		{"HistBonusMul", &tp.histBonusMul, 4, 40, 2},
		{"HistBonusMax", &tp.histBonusMax, 400, 4000, 120},
		{"HistBonusLin", &tp.histBonusLin, 0, 400, 12},
		{"CaptHistDiv", &tp.captHistDiv, 1, 16, 0.8},
		{"RazorMargin", &tp.razorMargin, 50, 600, 20},
		{"HistPruneDepth", &tp.histPruneDepth, 500, 16000, 400},
		{"LMRDeeper", &tp.lmrDeeper, 0, 150, 6},
		{"LMRShallower", &tp.lmrShallower, -20, 60, 3},
		{"EvalHistMul", &tp.evalHistMul, 0, 80, 3},
		{"EvalHistMax", &tp.evalHistMax, 0, 4000, 120},
	}
}

// SetTunable sets the named constant (not during a search).
func SetTunable(name string, value int) error {
	for _, t := range Tunables() {
		if t.Name == name {
			if value < t.Min || value > t.Max {
				return fmt.Errorf("%s wants %d..%d, got %d", name, t.Min, t.Max, value)
			}
			*t.Value = value
			initLMR()
			return nil
		}
	}
	return fmt.Errorf("no tunable %q", name)
}

// lmrTable[depth][moveNumber] is the late-move reduction in plies.
var lmrTable [MaxPly][movegen.MaxMoves]int

func initLMR() {
	base, div := float64(tp.lmrBase)/100, float64(tp.lmrDiv)/100
	for d := 1; d < MaxPly; d++ {
		for m := 1; m < movegen.MaxMoves; m++ {
			lmrTable[d][m] = int(base + math.Log(float64(d))*math.Log(float64(m))/div)
		}
	}
}

func init() { initLMR() }
