package board

import "math/bits"

// Color is the side a piece belongs to.
type Color uint8

// The two colours.
const (
	White Color = iota
	Black
)

// Other returns the opposite colour.
func (c Color) Other() Color { return c ^ 1 }

// String returns "w" or "b", as in FEN.
func (c Color) String() string {
	if c == White {
		return "w"
	}
	return "b"
}

// PieceType is a kind of piece without colour.
type PieceType uint8

// The piece types; NoPieceType marks "none" (e.g. a move that captures nothing).
const (
	Pawn PieceType = iota
	Knight
	Bishop
	Rook
	Queen
	King
	NoPieceType
)

// pieceLetters are the lower-case letters of the piece types, indexed by PieceType.
const pieceLetters = "pnbrqk"

// Letter returns the upper-case letter of the piece type ("P", "N", ...).
func (pt PieceType) Letter() byte { return pieceLetters[pt] - 'a' + 'A' }

// Piece is a coloured piece: colour*8 + type. NoPiece marks an empty square.
type Piece uint8

// NoPiece is the content of an empty square.
const NoPiece Piece = 0xFF

// MakePiece combines a colour and a piece type.
func MakePiece(c Color, pt PieceType) Piece { return Piece(uint8(c)<<3 | uint8(pt)) }

// Type returns the piece's type.
func (p Piece) Type() PieceType { return PieceType(p & 7) }

// Color returns the piece's colour.
func (p Piece) Color() Color { return Color(p >> 3) }

// FENLetter returns the FEN letter: upper case for White, lower case for Black.
func (p Piece) FENLetter() byte {
	l := pieceLetters[p.Type()]
	if p.Color() == White {
		l = l - 'a' + 'A'
	}
	return l
}

// Square is a board square, a1=0 .. h8=63; NoSquare marks "none".
type Square int8

// NoSquare marks an absent square (no en-passant target, no castling rook).
const NoSquare Square = -1

// Named squares used by the rules code and tests.
const (
	A1, B1, C1, D1, E1, F1, G1, H1 Square = 0, 1, 2, 3, 4, 5, 6, 7
	A8, B8, C8, D8, E8, F8, G8, H8 Square = 56, 57, 58, 59, 60, 61, 62, 63
)

// NewSquare returns the square on the given file (0=a) and rank (0=1).
func NewSquare(file, rank int) Square { return Square(rank*8 + file) }

// File returns 0 for the a-file .. 7 for the h-file.
func (s Square) File() int { return int(s) & 7 }

// Rank returns 0 for the first rank .. 7 for the eighth.
func (s Square) Rank() int { return int(s) >> 3 }

// RelativeRank returns the rank seen from c's side (0 = c's back rank).
func (s Square) RelativeRank(c Color) int { return s.Rank() ^ int(c)*7 }

// Flip mirrors the square vertically (a1 <-> a8).
func (s Square) Flip() Square { return s ^ 56 }

// String returns the algebraic name ("e4"), or "-" for NoSquare.
func (s Square) String() string {
	if s == NoSquare {
		return "-"
	}
	return string([]byte{byte('a' + s.File()), byte('1' + s.Rank())})
}

// ParseSquare parses an algebraic square name such as "e4".
func ParseSquare(s string) (Square, bool) {
	if len(s) != 2 || s[0] < 'a' || s[0] > 'h' || s[1] < '1' || s[1] > '8' {
		return NoSquare, false
	}
	return NewSquare(int(s[0]-'a'), int(s[1]-'1')), true
}

// Bitboard is a set of squares, bit i standing for square i.
type Bitboard uint64

// Files and ranks as bitboards.
const (
	FileA Bitboard = 0x0101010101010101
	FileH Bitboard = FileA << 7
	Rank1 Bitboard = 0xFF
	Rank2 Bitboard = Rank1 << 8
	Rank3 Bitboard = Rank1 << 16
	Rank4 Bitboard = Rank1 << 24
	Rank5 Bitboard = Rank1 << 32
	Rank6 Bitboard = Rank1 << 40
	Rank7 Bitboard = Rank1 << 48
	Rank8 Bitboard = Rank1 << 56
)

// Light squares (b1, a2, ...), for same-coloured-bishop draws.
const LightSquares Bitboard = 0x55AA55AA55AA55AA

// SquareBB returns the bitboard holding only s.
func SquareBB(s Square) Bitboard { return 1 << uint(s) }

// FileBB returns the bitboard of the given file (0=a).
func FileBB(file int) Bitboard { return FileA << uint(file) }

// RankBB returns the bitboard of the given rank (0=first).
func RankBB(rank int) Bitboard { return Rank1 << uint(8*rank) }

// Has reports whether s is in the set.
func (b Bitboard) Has(s Square) bool { return b&(1<<uint(s)) != 0 }

// Count returns the number of squares in the set.
func (b Bitboard) Count() int { return bits.OnesCount64(uint64(b)) }

// LSB returns the lowest square in a non-empty set.
func (b Bitboard) LSB() Square { return Square(bits.TrailingZeros64(uint64(b))) }

// PopLSB removes and returns the lowest square of a non-empty set.
func (b *Bitboard) PopLSB() Square {
	s := Square(bits.TrailingZeros64(uint64(*b)))
	*b &= *b - 1
	return s
}

// More reports whether the set holds more than one square.
func (b Bitboard) More() bool { return b&(b-1) != 0 }
