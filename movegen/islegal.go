package movegen

import "github.com/twofold-chess/twofold/board"

// IsLegal reports whether m is a legal move of the side to move, that is,
// whether Legal would list it, without generating the moves. m may be any
// value: a move remembered from another position (the transposition table,
// a killer slot), NoMove and NullMove included. A move of another kind than
// a promotion that carries a promotion piece is not legal, as Legal never
// lists one.
func IsLegal(p *board.Position, m board.Move) bool {
	from, to := m.From(), m.To()
	us := p.Side()
	pc := p.PieceAt(from)
	if pc == board.NoPiece || pc.Color() != us || from == to {
		return false
	}
	kind := m.Kind()
	if kind != board.Promotion && m&(3<<12) != 0 {
		return false
	}
	ours, theirs := p.Occupancy(us), p.Occupancy(us.Other())
	occ := ours | theirs
	ksq := p.KingSquare(us)
	switch kind {
	case board.Castling:
		return pc.Type() == board.King && castlingLegal(p, us, ksq, to, occ)
	case board.EnPassant:
		return pc.Type() == board.Pawn && to == p.EnPassant() &&
			enPassantOrigins(p, us, ksq, occ, theirs, to).Has(from)
	}
	if ours.Has(to) {
		return false
	}
	switch pt := pc.Type(); pt {
	case board.Pawn:
		if !pawnReaches(us, from, to, occ, theirs, kind == board.Promotion) {
			return false
		}
	case board.King:
		// The king must not step onto a square attacked once it has left its
		// own (it would otherwise hide a slider's ray).
		return kind == board.Normal && kingAttacks[from].Has(to) &&
			!Attacked(p, to, us.Other(), occ&^board.SquareBB(from))
	default:
		if kind != board.Normal || !pieceAttacks(pt, from, occ).Has(to) {
			return false
		}
	}
	// A move of another piece than the king: in check it must capture the
	// checker or block its ray (double check: none may), and a pinned piece
	// stays on its pin line.
	checkers, pinned := checkersAndPins(p, ksq, us, ours, theirs, occ)
	if checkers != 0 && (checkers.More() || !(checkers | between[ksq][checkers.LSB()]).Has(to)) {
		return false
	}
	return !pinned.Has(from) || line[ksq][from].Has(to)
}

// pawnReaches reports whether our pawn on from can move to to (not our
// own piece's square) by the board's geometry: a push to an empty square,
// a double push from its starting rank over an empty square, or a capture
// of an enemy piece; promotion says whether the move is written as one, which
// it must be exactly when it reaches the last rank.
func pawnReaches(us board.Color, from, to board.Square, occ, theirs board.Bitboard, promotion bool) bool {
	forward, promoRank, doubleRank := 8, board.Rank8, board.Rank4
	if us == board.Black {
		forward, promoRank, doubleRank = -8, board.Rank1, board.Rank5
	}
	if promoRank.Has(to) != promotion {
		return false
	}
	switch d := int(to) - int(from); {
	case theirs.Has(to):
		return pawnAttacks[us][from].Has(to)
	case d == forward:
		return true // to is empty: neither ours nor theirs
	case d == 2*forward:
		return doubleRank.Has(to) && !occ.Has(from+board.Square(forward))
	}
	return false
}

// pieceAttacks returns the squares a knight, bishop, rook or queen on from attacks.
func pieceAttacks(pt board.PieceType, from board.Square, occ board.Bitboard) board.Bitboard {
	switch pt {
	case board.Knight:
		return knightAttacks[from]
	case board.Bishop:
		return BishopAttacks(from, occ)
	case board.Rook:
		return RookAttacks(from, occ)
	}
	return QueenAttacks(from, occ)
}

// castlingLegal reports whether our king on ksq may castle with the rook
// on rsq now, by generateCastling's rule.
func castlingLegal(p *board.Position, us board.Color, ksq, rsq board.Square, occ board.Bitboard) bool {
	for rights := p.Castling() & castlingRightsOf[us]; rights != 0; rights &= rights - 1 {
		if r, empty, walk, _ := p.CastlingSquares(rights & -rights); r == rsq {
			return empty&occ == 0 && !Attacked(p, ksq, us.Other(), occ) &&
				castlingWalkSafe(p, us, occ&^(board.SquareBB(ksq)|board.SquareBB(rsq)), walk)
		}
	}
	return false
}
