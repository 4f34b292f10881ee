package search

import (
	"math"
	"strings"

	"github.com/twofold-chess/twofold/board"
	"github.com/twofold-chess/twofold/mind"
)

// Strength weakens the searcher for casual play. With a Depth it searches
// to that fixed depth, scores every root move with a full window so the
// scores are true, and plays a random move among those within Margin
// centipawns of the best. With Nodes (and no Depth) it runs the normal
// search on one thread and stops it after about that many nodes per move
// (the clock still applies). A weakened search evaluates by hand unless
// Network is set (Options.Evaluator). The zero value is full strength.
type Strength struct {
	Depth   int    // plies; 0 = no fixed depth
	Margin  int    // centipawns, with Depth
	Nodes   uint64 // nodes per move without Depth; 0 = no cap
	Network bool   // evaluate with Options.Network as at full strength (the UCI_Elo rungs measured with it)
}

func (st Strength) active() bool { return st.Depth > 0 || st.Nodes > 0 }

// Limited reports whether st weakens the search (the zero Strength is full
// strength).
func (st Strength) Limited() bool { return st.active() }

// Difficulty levels as the seed design defined them.
var difficulties = map[string]Strength{
	"easy":   {Depth: 2, Margin: 70},
	"medium": {Depth: 3, Margin: 30},
	"hard":   {Depth: 4, Margin: 0},
	"max":    {},
}

// DifficultyStrength returns the Strength of a named level (Easy, Medium,
// Hard, Max; case-insensitive).
func DifficultyStrength(name string) (Strength, bool) {
	st, ok := difficulties[strings.ToLower(name)]
	return st, ok
}

// SkillStrength maps Stockfish's "Skill Level" 0..20 to a Strength; 20 is full strength.
func SkillStrength(level int) Strength {
	if level >= 20 {
		return Strength{}
	}
	level = max(level, 0)
	return Strength{Depth: 1 + level/3, Margin: (20 - level) * 10}
}

// UCI_Elo's range: MinElo is the weakest rung of the ladder, MaxElo the top
// of the calibrated range. Settings from fullStrengthElo up to MaxElo play at
// full strength, which measured within 100 of MaxElo (the calibration's
// promise for every setting; TestEloLadderWithinReachOfMaxElo holds it).
const (
	MinElo = 1320
	MaxElo = 2800
)

// fullStrengthElo is the unweakened engine on Stockfish 15.1's UCI_Elo scale
// at 5+0.05 (commit f526d3d, network 14): against UCI_Elo 2800, 2714 ± 41 in
// 200 games on a 2-core machine and 2732 ± 27 in 448 on a 16-core one,
// pooled 2727 ± 23.
const fullStrengthElo = 2727

// eloRung is one measured point of the UCI_Elo ladder.
type eloRung struct {
	Elo int
	St  Strength
}

// eloLadder: Twofold weakened each way, measured against Stockfish 15.1 with
// UCI_LimitStrength (scripts/calibrate-elo.sh; the table is in
// docs/strength.md). The Elos rise strictly; the last rung is full
// strength.
var eloLadder = []eloRung{
	// Depth 3: Elo = 1730 - 7.82 × margin, a weighted fit of six 60-game
	// points (margins 60, 40, 30, 20, 14, 0 against UCI_Elo 1350-1750).
	{1320, Strength{Depth: 3, Margin: 52}}, // fit: 1320 ± about 60
	{1730, Strength{Depth: 3}},             // fit: 1730 ± 64; measured 1697 ± 90 (60 games vs 1750)
	{1800, Strength{Nodes: 3000}},          // 1800 ± 86 (60 games vs 1800); earlier code 1776 ± 130
	{1941, Strength{Nodes: 20000}},         // 1941 ± 125 (30 games vs 2000)
	// The network rungs with network 14 and the search of commit 7663b7f
	// (60-game points, 5+0.05): up to 100,000 nodes a line through five
	// points, Elo = 116.7 + 198.6 × ln(nodes) (138 a doubling; χ² 3.5 on 3
	// degrees of freedom), which the earlier networks' rungs (1973, 2137,
	// 2295) sat below; from 300,000 nodes the clock binds and the rungs are
	// the points as measured.
	{2026, Strength{Nodes: 15000, Network: true}},   // line: 2026 ± 70 (measured 1981 ± 92 vs 2150)
	{2221, Strength{Nodes: 40000, Network: true}},   // line: 2221 ± 38 (measured 2205 ± 84 vs 2300)
	{2403, Strength{Nodes: 100000, Network: true}},  // line: 2403 ± 58 (measured 2403 ± 77 vs 2450)
	{2479, Strength{Nodes: 300000, Network: true}},  // 2479 ± 53: 2561 ± 76 vs 2550 and 282,000 nodes (UCI_Elo 2450) 2403 ± 73
	{2516, Strength{Nodes: 1000000, Network: true}}, // 2516 ± 87 vs 2650
	{fullStrengthElo, Strength{}},                   // full strength, the last rung
}

// EloStrength maps an Elo on Stockfish's UCI_Elo scale to a Strength by
// interpolating the measured ladder: between two rungs of the same depth the
// margin is interpolated linearly, between two node caps with the same
// evaluation the cap is
// interpolated geometrically (Elo grows about linearly with log nodes), and
// between rungs of different kinds the nearer rung is taken. Below the first
// rung it is the first rung, from the last rung up full strength.
func EloStrength(elo int) Strength {
	if eloOverride != nil {
		return *eloOverride
	}
	if elo <= eloLadder[0].Elo {
		return eloLadder[0].St
	}
	for i := 1; i < len(eloLadder); i++ {
		lo, hi := eloLadder[i-1], eloLadder[i]
		if elo >= hi.Elo {
			continue
		}
		f := float64(elo-lo.Elo) / float64(hi.Elo-lo.Elo)
		switch {
		case lo.St.Depth > 0 && lo.St.Depth == hi.St.Depth:
			m := float64(lo.St.Margin) + f*float64(hi.St.Margin-lo.St.Margin)
			return Strength{Depth: lo.St.Depth, Margin: int(math.Round(m))}
		case lo.St.Nodes > 0 && hi.St.Nodes > 0 && lo.St.Network == hi.St.Network:
			n := float64(lo.St.Nodes) * math.Pow(float64(hi.St.Nodes)/float64(lo.St.Nodes), f)
			return Strength{Nodes: uint64(math.Round(n)), Network: lo.St.Network}
		case f < 0.5:
			return lo.St
		default:
			return hi.St
		}
	}
	return Strength{}
}

// eloOverride is set only in calibration builds (strength_calibrate.go).
var eloOverride *Strength

// weakSearch implements Strength: fixed depth, full-window scores for every
// root move, then a random pick among the moves close to the best.
func (s *Searcher) weakSearch(p *board.Position, root []rootMove) mind.Result {
	st := s.opts.Strength
	if st.Depth == 0 {
		return s.nodeCappedSearch(p, root)
	}
	t := s.threads[0]
	t.prepare(p, root)
	pos := t.pos
	for depth := 1; depth <= st.Depth; depth++ {
		for i := range t.rootMoves {
			rm := &t.rootMoves[i]
			t.selDepth = 0
			t.stack[0].move, t.stack[0].piece = rm.move, pos.PieceAt(rm.move.From())
			pos.Make(rm.move)
			score := -t.search(-Infinity, Infinity, depth-1, 1, false)
			pos.Unmake()
			if s.stop.Load() {
				break
			}
			rm.score, rm.selDepth = score, t.selDepth
			rm.pvLen = t.extendPV(&rm.pv, rm.move, 0)
		}
		if s.stop.Load() {
			if depth == 1 {
				t.rankUnfinishedFirstIteration()
			}
			break
		}
		sortRootMoves(t.rootMoves)
		t.completedDepth = depth
		t.reportLine(depth, 0)
		if s.clock.HardStop() {
			break
		}
	}
	s.waitUntilReleased(s.limits)
	best := t.rootMoves[0]
	var near []rootMove
	for _, rm := range t.rootMoves {
		if rm.score >= best.score-st.Margin {
			near = append(near, rm)
		}
	}
	pick := near[s.random(len(near))]
	if pick.move != best.move && pick.pvLen > 0 && s.report != nil {
		// The GUI shows the last line as the engine's choice: make it the
		// line of the move played, not of the best one it passed over.
		s.report(mind.Info{
			Depth: max(t.completedDepth, 1), SelDepth: pick.selDepth, MultiPV: 1, Score: reported(pick.score, BoundExact),
			Nodes: t.nodes, Time: s.elapsed(), HashFull: s.tt.Hashfull(),
			PV: append([]board.Move(nil), pick.pv[:pick.pvLen]...),
		})
	}
	res := mind.Result{Best: pick.move, Score: reported(pick.score, BoundExact), Depth: t.completedDepth, Nodes: t.nodes}
	if pick.pvLen > 1 {
		res.Ponder = pick.pv[1]
	}
	return res
}

// nodeCappedSearch implements Strength.Nodes: the normal search on the main
// thread alone (so the strength does not depend on Threads), stopped by a
// node limit of Strength.Nodes or the go command's own, whichever is lower.
func (s *Searcher) nodeCappedSearch(p *board.Position, root []rootMove) mind.Result {
	if n := s.opts.Strength.Nodes; s.limits.Nodes == 0 || s.limits.Nodes > n {
		s.limits.Nodes = n
	}
	for _, h := range s.threads[1:] {
		h.published.Store(0) // s.nodes() counts the main thread alone
	}
	t := s.threads[0]
	t.prepare(p, root)
	t.iterate()
	s.waitUntilReleased(s.limits)
	s.stop.Store(true)
	if t.completedDepth == 0 {
		t.rankUnfinishedFirstIteration()
	}
	if t.interrupted {
		t.reportFinal(min(s.opts.MultiPV, len(t.rootMoves)))
	}
	best := t.rootMoves[0]
	score := best.score
	if score == -Infinity {
		score = t.lastScore
	}
	res := mind.Result{Best: best.move, Score: reported(score, BoundExact), Depth: t.completedDepth, Nodes: s.nodes()}
	if best.pvLen > 1 {
		res.Ponder = best.pv[1]
	} else if d, ok := s.tt.probe(afterMove(p, best.move)); ok && d.move != board.NoMove {
		res.Ponder = s.legalOrNone(p, best.move, d.move)
	}
	return res
}

func sortRootMoves(rms []rootMove) {
	for i := 1; i < len(rms); i++ {
		for j := i; j > 0 && rms[j].score > rms[j-1].score; j-- {
			rms[j], rms[j-1] = rms[j-1], rms[j]
		}
	}
}

// random returns a number in [0, n) (xorshift, seeded from the clock in New).
func (s *Searcher) random(n int) int {
	s.rng ^= s.rng << 13
	s.rng ^= s.rng >> 7
	s.rng ^= s.rng << 17
	return int(s.rng % uint64(n))
}
