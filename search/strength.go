package search

import (
	"github.com/twofold-chess/twofold/board"
)

// Strength weakens the searcher for casual play: it searches to a fixed
// depth, scores every root move with a full window so the scores are true,
// and plays a random move among those within Margin centipawns of the best.
// The zero value is full strength.
type Strength struct {
	Depth  int // plies; 0 = full strength
	Margin int // centipawns
}

func (st Strength) active() bool { return st.Depth > 0 }

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
	st, ok := difficulties[lower(name)]
	return st, ok
}

func lower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// SkillStrength maps Stockfish's "Skill Level" 0..20 to a Strength; 20 is full strength.
func SkillStrength(level int) Strength {
	if level >= 20 {
		return Strength{}
	}
	level = max(level, 0)
	return Strength{Depth: 1 + level/3, Margin: (20 - level) * 10}
}

// EloStrength maps UCI_Elo to a skill level. The mapping is a rough linear
// guess (1000 = level 0, 2400 = level 20), not a calibrated one.
func EloStrength(elo int) Strength {
	return SkillStrength((elo - 1000) / 70)
}

// weakSearch implements Strength: fixed depth, full-window scores for every
// root move, then a random pick among the moves close to the best.
func (s *Searcher) weakSearch(p *board.Position, root []rootMove) Result {
	t := s.threads[0]
	t.prepare(p, root)
	st := s.opts.Strength
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
	if pick.move != best.move && pick.pvLen > 0 {
		// The GUI shows the last line as the engine's choice: make it the
		// line of the move played, not of the best one it passed over.
		s.report(Info{
			Depth: max(t.completedDepth, 1), SelDepth: pick.selDepth, MultiPV: 1, Score: pick.score, Bound: BoundExact,
			Nodes: t.nodes, Time: s.elapsed(), HashFull: s.tt.Hashfull(),
			PV: append([]board.Move(nil), pick.pv[:pick.pvLen]...),
		})
	}
	res := Result{Best: pick.move, Score: pick.score, Depth: t.completedDepth, Nodes: t.nodes}
	if pick.pvLen > 1 {
		res.Ponder = pick.pv[1]
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
