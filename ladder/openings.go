package ladder

import (
	"fmt"
	"strings"

	"github.com/twofold-chess/twofold/board"
	"github.com/twofold-chess/twofold/movegen"
)

// Opening is a named start for ladder games: UCI moves from the standard
// starting position.
type Opening struct {
	Name  string
	Moves string // space-separated UCI moves, e.g. "e2e4 e7e5 g1f3"
}

// Position returns the position after the opening's moves, with their
// history (so repetitions count from the true start), or an error naming
// the first move that is not legal.
func (o Opening) Position() (*board.Position, error) {
	return OpeningPosition(o.Moves)
}

// OpeningPosition plays moves (space-separated UCI, possibly empty) from the
// standard starting position and returns the result.
func OpeningPosition(moves string) (*board.Position, error) {
	p := board.StartPosition()
	for i, s := range strings.Fields(moves) {
		m, err := movegen.ParseUCI(p, s)
		if err != nil {
			return nil, fmt.Errorf("opening %q, ply %d: %w", moves, i+1, err)
		}
		p.Make(m)
	}
	return p, nil
}

// openings is the fixed opening book of the ladder: common openings of one
// to six plies, both king's-pawn and queen's-pawn and flank openings, so the
// games do not all share one pawn structure. It never changes, or learning
// curves drawn at different times would not be comparable.
var openings = []Opening{
	{"Ruy Lopez", "e2e4 e7e5 g1f3 b8c6 f1b5"},
	{"Italian Game", "e2e4 e7e5 g1f3 b8c6 f1c4"},
	{"Scotch Game", "e2e4 e7e5 g1f3 b8c6 d2d4"},
	{"Petrov Defence", "e2e4 e7e5 g1f3 g8f6"},
	{"King's Gambit", "e2e4 e7e5 f2f4"},
	{"Vienna Game", "e2e4 e7e5 b1c3"},
	{"Sicilian, Open", "e2e4 c7c5 g1f3 d7d6 d2d4 c5d4"},
	{"Sicilian, Alapin", "e2e4 c7c5 c2c3"},
	{"Sicilian, Closed", "e2e4 c7c5 b1c3 b8c6"},
	{"French Defence", "e2e4 e7e6 d2d4 d7d5"},
	{"Caro-Kann Defence", "e2e4 c7c6 d2d4 d7d5"},
	{"Scandinavian Defence", "e2e4 d7d5 e4d5 d8d5"},
	{"Alekhine Defence", "e2e4 g8f6"},
	{"Pirc Defence", "e2e4 d7d6 d2d4 g8f6 b1c3 g7g6"},
	{"Queen's Gambit", "d2d4 d7d5 c2c4"},
	{"Queen's Gambit Declined", "d2d4 d7d5 c2c4 e7e6 b1c3 g8f6"},
	{"Slav Defence", "d2d4 d7d5 c2c4 c7c6"},
	{"King's Indian Defence", "d2d4 g8f6 c2c4 g7g6 b1c3 f8g7"},
	{"Nimzo-Indian Defence", "d2d4 g8f6 c2c4 e7e6 b1c3 f8b4"},
	{"Benoni Defence", "d2d4 g8f6 c2c4 c7c5 d4d5"},
	{"Dutch Defence", "d2d4 f7f5"},
	{"London System", "d2d4 d7d5 c1f4"},
	{"English Opening", "c2c4"},
	{"English, Reversed Sicilian", "c2c4 e7e5 b1c3"},
	{"Reti Opening", "g1f3 d7d5"},
}

// Openings returns a copy of the fixed opening book, in the order Match
// cycles through it. A copy, so no caller can change the ladder.
func Openings() []Opening {
	return append([]Opening(nil), openings...)
}
