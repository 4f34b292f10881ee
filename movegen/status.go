package movegen

import (
	"errors"
	"fmt"

	"github.com/twofold-chess/twofold/board"
)

// Status is the state of the game in a position.
type Status int

// Game states. The draws are the automatic ones an engine applies at once:
// threefold repetition and the fifty-move rule are treated as claimed.
const (
	Ongoing Status = iota
	Checkmate
	Stalemate
	FiftyMoveDraw
	ThreefoldDraw
	InsufficientMaterialDraw
)

func (s Status) String() string {
	return [...]string{"ongoing", "checkmate", "stalemate", "fifty-move rule",
		"threefold repetition", "insufficient material"}[s]
}

// Over reports whether the game has ended.
func (s Status) Over() bool { return s != Ongoing }

// GameStatus returns the state of the game. Checkmate and stalemate come
// first: a mate delivered on the hundredth ply of the fifty-move count wins.
func GameStatus(p *board.Position) Status {
	var ml MoveList
	Legal(p, &ml)
	if ml.Len() == 0 {
		if InCheck(p) {
			return Checkmate
		}
		return Stalemate
	}
	switch {
	case p.FiftyMoveRule():
		return FiftyMoveDraw
	case p.ThreefoldRepetition():
		return ThreefoldDraw
	case p.InsufficientMaterial():
		return InsufficientMaterialDraw
	}
	return Ongoing
}

// Validate rejects positions that parse but cannot arise in a game: the side
// not to move in check (its king could be taken), or three or more checkers.
func Validate(p *board.Position) error {
	them := p.Side().Other()
	if Attacked(p, p.KingSquare(them), p.Side(), p.Occupied()) {
		return fmt.Errorf("illegal position: the side not to move (%s) is in check", colorName(them))
	}
	if n := Checkers(p).Count(); n > 2 {
		return fmt.Errorf("illegal position: %d pieces give check at once", n)
	}
	return nil
}

// ParseFEN parses a FEN with board.ParseFEN and rejects it with Validate;
// use it wherever a FEN comes from a user.
func ParseFEN(fen string) (*board.Position, error) {
	p, err := board.ParseFEN(fen)
	if err != nil {
		return nil, err
	}
	if err := Validate(p); err != nil {
		return nil, fmt.Errorf("invalid FEN %q: %w", fen, err)
	}
	return p, nil
}

func colorName(c board.Color) string { return [2]string{"white", "black"}[c] }

// ErrIllegalMove is wrapped by the errors of the move parsers when a
// well-formed move is not legal in the position.
var ErrIllegalMove = errors.New("illegal move")
