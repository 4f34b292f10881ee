package movegen

import (
	"math/bits"

	"github.com/twofold-chess/twofold/board"
)

// CountLegal returns the number of legal moves of the side to move, the
// length Legal would give, without writing the moves: whole target sets are
// counted at once. Perft counts its last ply with it (bulk counting).
func CountLegal(p *board.Position) int {
	us, them := p.Side(), p.Side().Other()
	ours, theirs := p.Occupancy(us), p.Occupancy(them)
	occ := ours | theirs
	ksq := p.KingSquare(us)

	checkers, pinned := checkersAndPins(p, ksq, us, ours, theirs, occ)

	n := 0
	if kingTargets := kingAttacks[ksq] &^ ours; kingTargets != 0 {
		occNoKing := occ &^ board.SquareBB(ksq)
		for kingTargets != 0 {
			to := kingTargets.LSB()
			kingTargets &= kingTargets - 1
			if !Attacked(p, to, them, occNoKing) {
				n++
			}
		}
	}
	if checkers.More() {
		return n
	}
	target := ^ours
	if checkers != 0 {
		target = checkers | between[ksq][checkers.LSB()]
	}

	for bb := p.Pieces(us, board.Knight) &^ pinned; bb != 0; {
		n += popCount(knightAttacks[bb.LSB()] & target)
		bb &= bb - 1
	}
	queens := p.Pieces(us, board.Queen)
	for bb := p.Pieces(us, board.Bishop) | queens; bb != 0; {
		from := bb.LSB()
		bb &= bb - 1
		t := BishopAttacks(from, occ) & target
		if pinned.Has(from) {
			t &= line[ksq][from]
		}
		n += popCount(t)
	}
	for bb := p.Pieces(us, board.Rook) | queens; bb != 0; {
		from := bb.LSB()
		bb &= bb - 1
		t := RookAttacks(from, occ) & target
		if pinned.Has(from) {
			t &= line[ksq][from]
		}
		n += popCount(t)
	}

	// Pawns.
	pawns := p.Pieces(us, board.Pawn)
	promoRank, doubleRank := board.Rank8, board.Rank4
	if us == board.Black {
		promoRank, doubleRank = board.Rank1, board.Rank5
	}
	quietTarget := target &^ theirs
	captureTargets := target & theirs
	free := pawns &^ pinned

	single := pawnPush(free, us) &^ occ
	double := pawnPush(single, us) &^ occ & doubleRank & quietTarget
	single &= quietTarget
	// Captures toward the a-file and toward the h-file, as sets of targets.
	var west, east board.Bitboard
	if us == board.White {
		west, east = (free&^board.FileA)<<7, (free&^board.FileH)<<9
	} else {
		west, east = (free&^board.FileA)>>9, (free&^board.FileH)>>7
	}
	west &= captureTargets
	east &= captureTargets
	n += popCount(single) + popCount(double) + popCount(west) + popCount(east)
	if (single|west|east)&promoRank != 0 { // three more for each promotion
		n += 3 * (popCount(single&promoRank) + popCount(west&promoRank) + popCount(east&promoRank))
	}

	// Pinned pawns move along the pin line only.
	for b := pawns & pinned; b != 0; {
		from := b.LSB()
		b &= b - 1
		pin := line[ksq][from]
		moves := pawnAttacks[us][from] & captureTargets & pin
		if one := pawnPush(board.SquareBB(from), us) &^ occ & pin; one != 0 {
			moves |= one & quietTarget
			moves |= pawnPush(one, us) &^ occ & doubleRank & quietTarget
		}
		n += popCount(moves&^promoRank) + 4*popCount(moves&promoRank)
	}

	if ep := p.EnPassant(); ep != board.NoSquare {
		n += popCount(enPassantOrigins(p, us, ksq, occ, theirs, ep))
	}

	if checkers == 0 {
		for rights := p.Castling() & castlingRightsOf[us]; rights != 0; rights &= rights - 1 {
			// Mostly the path is blocked: tell that before the call.
			if rsq, empty, walk, _ := p.CastlingSquares(rights & -rights); empty&occ == 0 &&
				castlingWalkSafe(p, us, occ&^(board.SquareBB(ksq)|board.SquareBB(rsq)), walk) {
				n++
			}
		}
	}
	return n
}

func popCount(b board.Bitboard) int { return bits.OnesCount64(uint64(b)) }
