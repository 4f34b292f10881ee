package tbcheck

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/twofold-chess/twofold/board"
	"github.com/twofold-chess/twofold/movegen"
	"github.com/twofold-chess/twofold/syzygy"
)

// PickSpec asks for Count test positions of a table: won ones (the side to
// move wins within the fifty-move rule, at least MinDTZ plies from the
// next zeroing move, so the win takes technique) or drawn ones (a draw
// with some legal move that loses, so holding it takes care).
type PickSpec struct {
	Table  string
	Won    bool
	Count  int
	MinDTZ int
}

// ParsePickSpecs reads "TABLE:win:N:MINDTZ" and "TABLE:draw:N" items
// separated by commas, such as "KQvKR:win:6:20,KRPvKR:draw:8".
func ParsePickSpecs(s string) ([]PickSpec, error) {
	var specs []PickSpec
	for _, item := range strings.Split(s, ",") {
		f := strings.Split(strings.TrimSpace(item), ":")
		bad := fmt.Errorf("pick %q: want TABLE:win:N:MINDTZ or TABLE:draw:N", item)
		if len(f) < 3 || len(f) > 4 || !strings.Contains(f[0], "v") {
			return nil, bad
		}
		sp := PickSpec{Table: f[0]}
		switch {
		case f[1] == "win" && len(f) == 4:
			sp.Won = true
			d, err := strconv.Atoi(f[3])
			if err != nil || d < 0 || d > 100 {
				return nil, fmt.Errorf("pick %q: MINDTZ wants 0..100", item)
			}
			sp.MinDTZ = d
		case f[1] == "draw" && len(f) == 3:
		default:
			return nil, bad
		}
		n, err := strconv.Atoi(f[2])
		if err != nil || n < 1 || n > 10000 {
			return nil, fmt.Errorf("pick %q: N wants 1..10000", item)
		}
		sp.Count = n
		specs = append(specs, sp)
	}
	return specs, nil
}

// Pick returns the positions (FENs) spec asks for, drawn at random from
// the table by RandomPosition (without an en-passant square, which a
// game's start would not carry) and judged by tb. It fails when the table
// is missing or a million tries find too few.
func Pick(tb *syzygy.Tablebase, rng *rand.Rand, spec PickSpec) ([]string, error) {
	seen := map[string]bool{}
	var fens []string
	for tries := 0; len(fens) < spec.Count; tries++ {
		if tries == 1_000_000 {
			return nil, fmt.Errorf("%s: %d of %d positions after %d tries", spec.Table, len(fens), spec.Count, tries)
		}
		p, err := RandomPosition(rng, spec.Table)
		if err != nil {
			return nil, err
		}
		if p.EnPassant() != board.NoSquare {
			continue
		}
		ok, err := Qualifies(tb, p, spec)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", spec.Table, err)
		}
		if fen := p.FEN(); ok && !seen[fen] {
			seen[fen] = true
			fens = append(fens, fen)
		}
	}
	return fens, nil
}

// Qualifies reports whether p is a position spec asks for.
func Qualifies(tb *syzygy.Tablebase, p *board.Position, spec PickSpec) (bool, error) {
	var ml movegen.MoveList
	if movegen.Legal(p, &ml); ml.Len() == 0 {
		return false, nil
	}
	dtz, err := tb.ProbeDTZ(p)
	if err != nil {
		return false, err
	}
	if spec.Won {
		return syzygy.DTZResult(p.HalfmoveClock(), dtz) == syzygy.Win && dtz >= spec.MinDTZ, nil
	}
	if dtz != 0 {
		return false, nil
	}
	moves, err := tb.ProbeRoot(p)
	if err != nil {
		return false, err
	}
	for _, m := range moves {
		if m.Outcome(true) == syzygy.Loss {
			return true, nil
		}
	}
	return false, nil
}
