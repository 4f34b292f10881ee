package board

// CastlingRights is a set of the four castling rights.
type CastlingRights uint8

// The four rights. Which rook each one uses is kept by the Position.
const (
	WhiteKingside CastlingRights = 1 << iota
	WhiteQueenside
	BlackKingside
	BlackQueenside
	NoCastling  CastlingRights = 0
	AllCastling CastlingRights = 15
)

// CastlingRight returns the right for colour c on the king side (true) or queen side.
func CastlingRight(c Color, kingside bool) CastlingRights {
	r := WhiteKingside << (2 * c)
	if !kingside {
		r <<= 1
	}
	return r
}

// index returns 0..3 for a single right.
func (cr CastlingRights) index() int {
	switch cr {
	case WhiteKingside:
		return 0
	case WhiteQueenside:
		return 1
	case BlackKingside:
		return 2
	}
	return 3
}

// historyCapacity is the history room a new Position starts with: enough
// for any realistic game plus search depth, so make/unmake never allocates.
const historyCapacity = 1024

// undo is what Make saves so Unmake can restore the position exactly; the
// saved keys also serve repetition detection.
type undo struct {
	key      uint64
	move     Move
	captured Piece
	castling CastlingRights
	ep       Square
	halfmove int
}

// Position is a chess position with everything needed to continue the game:
// placement (bitboards and mailbox), side to move, castling rights with their
// rooks, en-passant square, clocks, Zobrist key and the history of keys since
// the game began (for repetition and unmake).
//
// A Position is not safe for concurrent use; give every goroutine its own Clone.
type Position struct {
	byType   [6]Bitboard
	byColor  [2]Bitboard
	squares  [64]Piece
	side     Color
	castling CastlingRights
	ep       Square // set only when a pawn of the side to move stands beside the double-pushed pawn
	halfmove int
	fullmove int
	key      uint64

	castleRook [4]Square          // rook square per right (index CastlingRights.index)
	castlePath [4]Bitboard        // squares that must be empty to castle, per right
	castleWalk [4]Bitboard        // squares the king crosses or lands on, per right
	castleMask [64]CastlingRights // rights lost when a move starts or ends on the square
	chess960   bool               // write castling as king-takes-rook and FEN with rook files

	history []undo
}

// Clone returns an independent deep copy (history included).
func (p *Position) Clone() *Position {
	c := *p
	c.history = make([]undo, len(p.history), max(cap(p.history), historyCapacity))
	copy(c.history, p.history)
	return &c
}

// Side returns the colour to move.
func (p *Position) Side() Color { return p.side }

// PieceAt returns the piece on s, or NoPiece.
func (p *Position) PieceAt(s Square) Piece { return p.squares[s] }

// Pieces returns the squares of colour c's pieces of type pt.
func (p *Position) Pieces(c Color, pt PieceType) Bitboard { return p.byType[pt] & p.byColor[c] }

// PiecesOfType returns the squares of both colours' pieces of type pt.
func (p *Position) PiecesOfType(pt PieceType) Bitboard { return p.byType[pt] }

// Occupancy returns the squares of all of colour c's pieces.
func (p *Position) Occupancy(c Color) Bitboard { return p.byColor[c] }

// Occupied returns every occupied square.
func (p *Position) Occupied() Bitboard { return p.byColor[White] | p.byColor[Black] }

// KingSquare returns the square of colour c's king.
func (p *Position) KingSquare(c Color) Square { return (p.byType[King] & p.byColor[c]).LSB() }

// EnPassant returns the en-passant target square, or NoSquare. It is set only
// when a pawn of the side to move could capture there (ignoring pins).
func (p *Position) EnPassant() Square { return p.ep }

// Castling returns the castling rights still held.
func (p *Position) Castling() CastlingRights { return p.castling }

// CastlingRook returns the rook square of a single right, or NoSquare if the right is gone.
func (p *Position) CastlingRook(cr CastlingRights) Square {
	if p.castling&cr == 0 {
		return NoSquare
	}
	return p.castleRook[cr.index()]
}

// CastlingSquares returns, for a single right still held, the rook's square,
// the squares that must be empty to castle (those the king and rook cross
// or land on, but for their own) and the squares the king crosses or lands
// on (none of which may be attacked). ok is false when the right is gone.
func (p *Position) CastlingSquares(cr CastlingRights) (rook Square, empty, kingWalk Bitboard, ok bool) {
	if p.castling&cr == 0 {
		return NoSquare, 0, 0, false
	}
	i := cr.index()
	return p.castleRook[i], p.castlePath[i], p.castleWalk[i], true
}

// HalfmoveClock returns the plies since the last capture or pawn move.
func (p *Position) HalfmoveClock() int { return p.halfmove }

// FullmoveNumber returns the move number, starting at 1 and counting after Black moves.
func (p *Position) FullmoveNumber() int { return p.fullmove }

// Key returns the Zobrist key of the position.
func (p *Position) Key() uint64 { return p.key }

// Chess960 reports whether castling is written the Chess960 way (king takes rook).
func (p *Position) Chess960() bool { return p.chess960 }

// SetChess960 chooses how castling moves and FEN castling fields are written.
// Positions whose castling cannot be standard chess are always Chess960.
func (p *Position) SetChess960(on bool) { p.chess960 = on || !p.standardCastling() }

// standardCastling reports whether every castling right is an orthodox one:
// king on the e-file, rooks on the a- and h-files.
func (p *Position) standardCastling() bool {
	for i, cr := range [4]CastlingRights{WhiteKingside, WhiteQueenside, BlackKingside, BlackQueenside} {
		if p.castling&cr == 0 {
			continue
		}
		c := Color(i / 2)
		if p.KingSquare(c).File() != 4 {
			return false
		}
		if f := p.castleRook[i].File(); (cr&(WhiteKingside|BlackKingside) != 0 && f != 7) ||
			(cr&(WhiteQueenside|BlackQueenside) != 0 && f != 0) {
			return false
		}
	}
	return true
}

// Ply returns the number of moves made on this Position since it was set up.
func (p *Position) Ply() int { return len(p.history) }

// LastMove returns the move that led here, or NoMove at the root of the history.
func (p *Position) LastMove() Move {
	if len(p.history) == 0 {
		return NoMove
	}
	return p.history[len(p.history)-1].move
}

func (p *Position) put(pc Piece, s Square) {
	bb := SquareBB(s)
	p.byType[pc.Type()] |= bb
	p.byColor[pc.Color()] |= bb
	p.squares[s] = pc
}

func (p *Position) remove(s Square) {
	pc := p.squares[s]
	bb := SquareBB(s)
	p.byType[pc.Type()] &^= bb
	p.byColor[pc.Color()] &^= bb
	p.squares[s] = NoPiece
}

func (p *Position) relocate(from, to Square) {
	pc := p.squares[from]
	bb := SquareBB(from) | SquareBB(to)
	p.byType[pc.Type()] ^= bb
	p.byColor[pc.Color()] ^= bb
	p.squares[from] = NoPiece
	p.squares[to] = pc
}

// Make plays m, which must be legal in this position (movegen produces such
// moves; ParseUCI in movegen checks user input). Unmake takes it back.
// The key is updated incrementally on the way, to the value KeyAfter gives.
func (p *Position) Make(m Move) {
	from, to := m.From(), m.To()
	us, them := p.side, p.side.Other()
	moved := p.squares[from]
	// Grow the history in place: fill the new record's fields directly.
	if len(p.history) == cap(p.history) {
		p.history = append(p.history, undo{})
	} else {
		p.history = p.history[:len(p.history)+1]
	}
	u := &p.history[len(p.history)-1]
	u.key, u.move, u.captured = p.key, m, NoPiece
	u.castling, u.ep, u.halfmove = p.castling, p.ep, p.halfmove
	key := p.key ^ zobristSide
	if p.ep != NoSquare {
		key ^= zobristEP[p.ep&7]
		p.ep = NoSquare
	}
	p.halfmove++
	fromBB, toBB := SquareBB(from), SquareBB(to)

	switch m.Kind() {
	case Normal:
		if captured := p.squares[to]; captured != NoPiece {
			u.captured = captured
			key ^= zobristPiece[captured][to]
			p.byType[captured.Type()] ^= toBB
			p.byColor[them] ^= toBB
			p.halfmove = 0
		}
		key ^= zobristPiece[moved][from] ^ zobristPiece[moved][to]
		p.byType[moved.Type()] ^= fromBB | toBB
		p.byColor[us] ^= fromBB | toBB
		p.squares[from] = NoPiece
		p.squares[to] = moved
		if moved.Type() == Pawn {
			p.halfmove = 0
			// A double push (squares 16 apart) records the e.p. square only
			// when an enemy pawn stands beside the pawn's destination.
			if from^to == 16 && pawnNeighbours(to)&p.byType[Pawn]&p.byColor[them] != 0 {
				p.ep = (from + to) / 2
				key ^= zobristEP[p.ep&7]
			}
		}
	case Promotion:
		if captured := p.squares[to]; captured != NoPiece {
			u.captured = captured
			key ^= zobristPiece[captured][to]
			p.byType[captured.Type()] ^= toBB
			p.byColor[them] ^= toBB
		}
		p.halfmove = 0
		promoted := MakePiece(us, m.PromotionType())
		key ^= zobristPiece[moved][from] ^ zobristPiece[promoted][to]
		p.byType[Pawn] ^= fromBB
		p.byType[promoted.Type()] ^= toBB
		p.byColor[us] ^= fromBB | toBB
		p.squares[from] = NoPiece
		p.squares[to] = promoted
	case EnPassant:
		capSq := to ^ 8 // the square behind the target, from the mover's view
		captured := p.squares[capSq]
		u.captured = captured
		key ^= zobristPiece[captured][capSq] ^ zobristPiece[moved][from] ^ zobristPiece[moved][to]
		p.remove(capSq)
		p.relocate(from, to)
		p.halfmove = 0
	default: // Castling
		rook := p.squares[to]
		kingTo, rookTo := m.CastlingKingTo(), m.CastlingRookTo()
		key ^= zobristPiece[moved][from] ^ zobristPiece[moved][kingTo] ^
			zobristPiece[rook][to] ^ zobristPiece[rook][rookTo]
		// Remove both first: in Chess960 the destinations may hold the other piece.
		p.remove(from)
		p.remove(to)
		p.put(moved, kingTo)
		p.put(rook, rookTo)
	}

	if lost := p.castleMask[from] | p.castleMask[to]; p.castling&lost != 0 {
		key ^= zobristCastling[p.castling] ^ zobristCastling[p.castling&^lost]
		p.castling &^= lost
	}
	p.key = key
	if us == Black {
		p.fullmove++
	}
	p.side = them
}

// epPossible reports whether m is a double pawn push that an enemy pawn
// could capture en passant. Only then is the e.p. square recorded, so equal
// positions get equal keys (repetition rule).
func (p *Position) epPossible(m Move) bool {
	from, to := m.From(), m.To()
	return p.squares[from].Type() == Pawn && (to-from == 16 || from-to == 16) &&
		pawnNeighbours(to)&p.Pieces(p.side.Other(), Pawn) != 0
}

// KeyAfter returns the key the position will have once the legal move m is
// made, without making it (Make uses it; the search prefetches the table's
// entry for the child with it).
func (p *Position) KeyAfter(m Move) uint64 {
	from, to := m.From(), m.To()
	moved := p.squares[from]
	key := p.key ^ zobristSide
	if p.ep != NoSquare {
		key ^= zobristEP[p.ep.File()]
	}
	switch m.Kind() {
	case Castling:
		rook := p.squares[to]
		key ^= zobristPiece[moved][from] ^ zobristPiece[moved][m.CastlingKingTo()] ^
			zobristPiece[rook][to] ^ zobristPiece[rook][m.CastlingRookTo()]
	case EnPassant:
		capSq := to ^ 8
		key ^= zobristPiece[p.squares[capSq]][capSq] ^ zobristPiece[moved][from] ^ zobristPiece[moved][to]
	default:
		if captured := p.squares[to]; captured != NoPiece {
			key ^= zobristPiece[captured][to]
		}
		if m.Kind() == Promotion {
			key ^= zobristPiece[moved][from] ^ zobristPiece[MakePiece(p.side, m.PromotionType())][to]
		} else {
			key ^= zobristPiece[moved][from] ^ zobristPiece[moved][to]
			if p.epPossible(m) {
				key ^= zobristEP[((from + to) / 2).File()]
			}
		}
	}
	if lost := p.castleMask[from] | p.castleMask[to]; p.castling&lost != 0 {
		key ^= zobristCastling[p.castling] ^ zobristCastling[p.castling&^lost]
	}
	return key
}

// Unmake takes back the last move made with Make.
func (p *Position) Unmake() {
	u := &p.history[len(p.history)-1]
	m := u.move
	them := p.side
	us := them.Other()
	p.side = us
	if us == Black {
		p.fullmove--
	}
	from, to := m.From(), m.To()
	fromBB, toBB := SquareBB(from), SquareBB(to)
	switch m.Kind() {
	case Normal:
		moved := p.squares[to]
		p.byType[moved.Type()] ^= fromBB | toBB
		p.byColor[us] ^= fromBB | toBB
		p.squares[from] = moved
		p.squares[to] = u.captured
		if u.captured != NoPiece {
			p.byType[u.captured.Type()] ^= toBB
			p.byColor[them] ^= toBB
		}
	case Promotion:
		promoted := p.squares[to]
		p.byType[promoted.Type()] ^= toBB
		p.byType[Pawn] ^= fromBB
		p.byColor[us] ^= fromBB | toBB
		p.squares[from] = MakePiece(us, Pawn)
		p.squares[to] = u.captured
		if u.captured != NoPiece {
			p.byType[u.captured.Type()] ^= toBB
			p.byColor[them] ^= toBB
		}
	case EnPassant:
		p.relocate(to, from)
		p.put(u.captured, to^8)
	default: // Castling
		kingTo, rookTo := m.CastlingKingTo(), m.CastlingRookTo()
		king, rook := p.squares[kingTo], p.squares[rookTo]
		p.remove(kingTo)
		p.remove(rookTo)
		p.put(king, from)
		p.put(rook, to)
	}
	p.key, p.castling, p.ep, p.halfmove = u.key, u.castling, u.ep, u.halfmove
	p.history = p.history[:len(p.history)-1]
}

// MakeNull passes the turn (for null-move pruning); the side to move must not be in check.
func (p *Position) MakeNull() {
	p.history = append(p.history, undo{
		key: p.key, move: NullMove, captured: NoPiece,
		castling: p.castling, ep: p.ep, halfmove: p.halfmove,
	})
	p.key ^= zobristSide
	if p.ep != NoSquare {
		p.key ^= zobristEP[p.ep.File()]
		p.ep = NoSquare
	}
	p.halfmove++
	p.side = p.side.Other()
}

// UnmakeNull takes back MakeNull.
func (p *Position) UnmakeNull() {
	u := &p.history[len(p.history)-1]
	p.side = p.side.Other()
	p.key, p.ep, p.halfmove = u.key, u.ep, u.halfmove
	p.history = p.history[:len(p.history)-1]
}

// pawnNeighbours returns the squares left and right of s on its rank.
func pawnNeighbours(s Square) Bitboard {
	bb := SquareBB(s)
	return (bb&^FileA)>>1 | (bb&^FileH)<<1
}

// CapturedPiece returns what m captures in this position (NoPiece if nothing).
func (p *Position) CapturedPiece(m Move) Piece {
	switch m.Kind() {
	case Castling:
		return NoPiece
	case EnPassant:
		return MakePiece(p.side.Other(), Pawn)
	}
	return p.squares[m.To()]
}
