package book

import (
	"github.com/twofold-chess/twofold/board"
	"github.com/twofold-chess/twofold/movegen"
)

// Offsets of the parts of random64, as the format specification lays it out.
const (
	castleOffset    = 768
	enPassantOffset = 772
	turnOffset      = 780
)

// Key returns the Polyglot key of p: the format's own Zobrist hash, which
// books are indexed by. It differs from p.Key (the engine's hash uses its
// own random numbers), so it is computed from scratch; it is needed once
// per "go", never inside the search.
func Key(p *board.Position) uint64 {
	var k uint64
	for c := board.White; c <= board.Black; c++ {
		for pt := board.Pawn; pt <= board.King; pt++ {
			// The format numbers black pawn 0, white pawn 1, black knight 2, ...
			kind := 2*int(pt) + 1 - int(c)
			for bb := p.Pieces(c, pt); bb != 0; {
				s := bb.PopLSB()
				k ^= random64[64*kind+8*s.Rank()+s.File()]
			}
		}
	}
	// Rights in the format's order: White short, White long, Black short,
	// Black long. In Chess960 a right is hashed the same way whichever rook
	// it uses; the format cannot tell inner rooks apart either.
	for i, cr := range [4]board.CastlingRights{board.WhiteKingside, board.WhiteQueenside, board.BlackKingside, board.BlackQueenside} {
		if p.Castling()&cr != 0 {
			k ^= random64[castleOffset+i]
		}
	}
	// En passant counts only when a pawn of the side to move could capture
	// (legal or not), unlike FEN's target square. The board keeps its square
	// under nearly that rule already; checking the pawns here keeps the key
	// right whatever convention the board follows.
	if ep := p.EnPassant(); ep != board.NoSquare {
		us := p.Side()
		if movegen.PawnAttacks(us.Other(), ep)&p.Pieces(us, board.Pawn) != 0 {
			k ^= random64[enPassantOffset+ep.File()]
		}
	}
	if p.Side() == board.White {
		k ^= random64[turnOffset]
	}
	return k
}
