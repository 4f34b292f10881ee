package board

// Move is a move packed in 16 bits: from (6), to (6), promotion piece (2)
// and kind (2). A castling move is stored as king-from and own-rook-square,
// which describes standard chess and Chess960 alike.
type Move uint16

// MoveKind tells normal moves apart from the three special ones.
type MoveKind uint16

// The move kinds, stored in the top two bits.
const (
	Normal    MoveKind = 0
	Promotion MoveKind = 1 << 14
	EnPassant MoveKind = 2 << 14
	Castling  MoveKind = 3 << 14
)

// NoMove is the zero move ("0000" in UCI); NullMove passes the turn (search only).
const (
	NoMove   Move = 0
	NullMove Move = 65 // b1b1: never a real move
)

// NewMove builds a normal move (captures and double pushes included).
func NewMove(from, to Square) Move { return Move(uint16(from) | uint16(to)<<6) }

// NewPromotion builds a promotion to pt (Knight..Queen).
func NewPromotion(from, to Square, pt PieceType) Move {
	return Move(uint16(from)|uint16(to)<<6|uint16(pt-Knight)<<12) | Move(Promotion)
}

// NewEnPassant builds an en-passant capture; to is the target (empty) square.
func NewEnPassant(from, to Square) Move { return NewMove(from, to) | Move(EnPassant) }

// NewCastling builds a castling move from the king's square and the rook's square.
func NewCastling(king, rook Square) Move { return NewMove(king, rook) | Move(Castling) }

// From returns the origin square.
func (m Move) From() Square { return Square(m & 63) }

// To returns the destination square (the rook's square for castling).
func (m Move) To() Square { return Square(m >> 6 & 63) }

// Kind returns the move kind.
func (m Move) Kind() MoveKind { return MoveKind(m) & Castling }

// PromotionType returns the piece promoted to; meaningful only for promotions.
func (m Move) PromotionType() PieceType { return PieceType(m>>12&3) + Knight }

// CastlingKingTo returns where the king lands when m is a castling move.
func (m Move) CastlingKingTo() Square {
	if m.To() > m.From() {
		return NewSquare(6, m.From().Rank())
	}
	return NewSquare(2, m.From().Rank())
}

// CastlingRookTo returns where the rook lands when m is a castling move.
func (m Move) CastlingRookTo() Square {
	if m.To() > m.From() {
		return NewSquare(5, m.From().Rank())
	}
	return NewSquare(3, m.From().Rank())
}

// UCI formats the move in long algebraic notation. Castling is written
// king-to-destination (e1g1) in standard chess and king-takes-rook (e1h1)
// when chess960 is set, as the UCI protocol asks.
func (m Move) UCI(chess960 bool) string {
	if m == NoMove || m == NullMove {
		return "0000"
	}
	to := m.To()
	if m.Kind() == Castling && !chess960 {
		to = m.CastlingKingTo()
	}
	s := m.From().String() + to.String()
	if m.Kind() == Promotion {
		s += string(pieceLetters[m.PromotionType()])
	}
	return s
}

// String formats the move as standard-chess UCI, for logs and tests.
func (m Move) String() string { return m.UCI(false) }
