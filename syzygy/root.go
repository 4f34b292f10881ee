package syzygy

import (
	"sort"

	"github.com/twofold-chess/twofold/board"
	"github.com/twofold-chess/twofold/movegen"
)

// MaxRank is the rank of a move that wins for certain within the
// fifty-move rule. A win the rule may spoil ranks MaxRank/2 less its DTZ
// and the fifty-move counter, a draw 0; losses mirror wins.
const MaxRank = 1 << 18

// RootMove is a legal move of a root position as the tables judge it.
type RootMove struct {
	Move board.Move
	// DTZ is the distance to zeroing after the move, counted from the
	// root position in plies and from the mover's view: 1 for a move that
	// mates or zeroes into a win, 101 when that win is cursed, 0 for a
	// draw (or a move that repeats three times or ends the fifty moves),
	// -1 or -101 for zeroing into a loss, and otherwise ProbeDTZ of the
	// position after the move, negated and one ply further from zero.
	DTZ int
	// WDL is the mover's result after the move, with the fifty-move
	// counter of the root position: a win whose |DTZ| plus the counter
	// exceeds 100 is cursed, a loss likewise blessed (fathom's grouping of
	// winning, drawing and losing moves).
	WDL WDL
	// Rank orders the moves as Stockfish's root probe does: every move that
	// wins for certain within the fifty-move rule (|DTZ| + counter <= 99,
	// no repetition since the last zeroing move) ranks MaxRank, wins in
	// danger of the rule rank by how much room is left, draws 0, losses
	// -MaxRank unless the rule may save them. Searching only the moves of
	// the best rank keeps a won ending won and a drawn one drawn.
	Rank int
}

// Outcome returns what the move's rank means for the search: Win when it
// keeps a win for certain, CursedWin for a win the fifty-move rule may
// turn into a draw, Draw, BlessedLoss, Loss. Without rule50 (Stockfish's
// Syzygy50MoveRule off) every win is a Win and every loss a Loss.
func (m RootMove) Outcome(rule50 bool) WDL {
	bound := 1
	if rule50 {
		bound = MaxRank/2 - 100
	}
	switch {
	case m.Rank >= bound:
		return Win
	case m.Rank > 0:
		return CursedWin
	case m.Rank == 0:
		return Draw
	case m.Rank > -bound:
		return BlessedLoss
	}
	return Loss
}

// WinCentipawns is how a tablebase win is reported in centipawns, as
// Stockfish shows it (a loss is its negative); searchers report a win
// found deeper in the tree as this less its distance in plies.
const WinCentipawns = 20000

// Centipawns is the score reported for a root move the tables rank: a win
// WinCentipawns, a loss its negative, a draw 0, and a cursed win from 3
// to 200 cp, the more the closer it is to a real win (a blessed loss
// mirrors it), as Stockfish shows them.
func (m RootMove) Centipawns(rule50 bool) int {
	switch m.Outcome(rule50) {
	case Win:
		return WinCentipawns
	case Loss:
		return -WinCentipawns
	case CursedWin:
		return max(3, 200-(MaxRank/2-m.Rank))
	case BlessedLoss:
		return min(-3, -200+(MaxRank/2+m.Rank))
	}
	return 0
}

// DTZResult is the result a DTZ gives with cnt50 plies already on the
// fifty-move counter (as fathom reports it): a win or loss the counter
// lets through, else a cursed win or blessed loss.
func DTZResult(cnt50, dtz int) WDL {
	switch {
	case dtz > 0 && dtz+cnt50 <= 100:
		return Win
	case dtz > 0:
		return CursedWin
	case dtz < 0 && -dtz+cnt50 <= 100:
		return Loss
	case dtz < 0:
		return BlessedLoss
	}
	return Draw
}

// hasRepeated reports whether any position since the last zeroing move
// occurred twice, walking back through p's history and forward again.
func hasRepeated(p *board.Position) bool {
	var moves []board.Move
	rep := false
	for n := min(p.HalfmoveClock(), p.Ply()); n >= 0; n-- {
		if p.IsRepetition() {
			rep = true
			break
		}
		if n == 0 {
			break
		}
		moves = append(moves, p.LastMove())
		p.Unmake()
	}
	for i := len(moves) - 1; i >= 0; i-- {
		p.Make(moves[i])
	}
	return rep
}

// ProbeRoot probes every legal move of the root position p with the DTZ
// tables and returns them sorted best first: by Rank, and within a rank
// the fastest win (or slowest loss) first, so that moves[0] converts
// fastest. Whether the fifty-move rule counts (Syzygy50MoveRule) matters
// only for what a rank is worth: see RootMove.Outcome. The fifty-move
// counter and the game history of p (repetitions) are taken
// into account. It fails with ErrNotFound when p cannot be probed or a DTZ
// or WDL table it needs is missing; ProbeRootWDL then may still rank the
// moves by WDL alone.
func (tb *Tablebase) ProbeRoot(p *board.Position) ([]RootMove, error) {
	if !tb.probeable(p) {
		return nil, ErrNotFound
	}
	cnt50 := p.HalfmoveClock()
	rep := hasRepeated(p)
	var ml movegen.MoveList
	movegen.Legal(p, &ml)
	moves := make([]RootMove, 0, ml.Len())
	for _, m := range ml.Moves() {
		p.Make(m)
		var dtz int
		var err error
		switch {
		case p.HalfmoveClock() == 0:
			var v int
			v, _, err = tb.wdl(p)
			dtz = wdlToDTZ[2-v]
		case (p.FiftyMoveRule() && !isMate(p)) || p.ThreefoldRepetition():
			dtz = 0
		default:
			dtz, err = tb.dtz(p)
			switch {
			case dtz > 0:
				dtz = -dtz - 1
			case dtz < 0:
				dtz = -dtz + 1
			}
		}
		if dtz == 2 && isMate(p) {
			dtz = 1
		}
		p.Unmake()
		if err != nil {
			return nil, err
		}
		r := 0
		switch {
		case dtz > 0 && dtz+cnt50 <= 99 && !rep:
			r = MaxRank
		case dtz > 0:
			r = MaxRank/2 - (dtz + cnt50)
		case dtz < 0 && -dtz*2+cnt50 < 100:
			r = -MaxRank
		case dtz < 0:
			r = -MaxRank/2 + (-dtz + cnt50)
		}
		moves = append(moves, RootMove{Move: m, DTZ: dtz, WDL: DTZResult(cnt50, dtz), Rank: r})
	}
	sort.SliceStable(moves, func(i, j int) bool {
		a, b := moves[i], moves[j]
		if a.Rank != b.Rank {
			return a.Rank > b.Rank
		}
		return dtzPreference(a.DTZ) < dtzPreference(b.DTZ)
	})
	return moves, nil
}

// dtzPreference orders moves of equal rank: quick wins, then draws, then
// slow losses (smaller is better).
func dtzPreference(dtz int) int {
	switch {
	case dtz > 0:
		return dtz - 1<<20
	case dtz < 0:
		return 1<<20 + dtz
	}
	return 0
}

// ProbeRootWDL ranks the legal moves of p with the WDL tables alone, for
// when DTZ tables are missing: a win ranks MaxRank, a cursed win
// MaxRank/2-101, a draw 0 and so on, as Outcome reads them, best first.
// DTZ is left 0 and WDL is the move's result from a zeroed counter.
// Without the DTZ tables a won ending may not be converted in time, so a
// search should keep probing WDL below the root in that case.
func (tb *Tablebase) ProbeRootWDL(p *board.Position) ([]RootMove, error) {
	if !tb.probeable(p) {
		return nil, ErrNotFound
	}
	rank := [5]int{-MaxRank, -MaxRank/2 + 101, 0, MaxRank/2 - 101, MaxRank}
	var ml movegen.MoveList
	movegen.Legal(p, &ml)
	moves := make([]RootMove, 0, ml.Len())
	for _, m := range ml.Moves() {
		p.Make(m)
		v := 0
		var err error
		if !(p.FiftyMoveRule() && !isMate(p)) && !p.ThreefoldRepetition() {
			v, _, err = tb.wdl(p)
			v = -v
		}
		p.Unmake()
		if err != nil {
			return nil, err
		}
		moves = append(moves, RootMove{Move: m, WDL: WDL(v), Rank: rank[v+2]})
	}
	sort.SliceStable(moves, func(i, j int) bool { return moves[i].Rank > moves[j].Rank })
	return moves, nil
}

// Preserving returns the leading moves of a ProbeRoot or ProbeRootWDL
// result that share the best rank: the moves a search may choose from
// without spoiling the tablebase result.
func Preserving(moves []RootMove) []RootMove {
	n := 0
	for n < len(moves) && moves[n].Rank == moves[0].Rank {
		n++
	}
	return moves[:n]
}
