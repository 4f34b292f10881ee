package movegen

import (
	"github.com/twofold-chess/twofold/board"
)

// MaxMoves bounds the legal moves of any chess position (the known maximum is 218).
const MaxMoves = 256

// MoveList is a fixed-capacity move buffer owned by the caller; keep one per
// ply so generation never allocates.
type MoveList struct {
	moves [MaxMoves]board.Move
	n     int
}

// Len returns the number of moves in the list.
func (ml *MoveList) Len() int { return ml.n }

// At returns the i-th move.
func (ml *MoveList) At(i int) board.Move { return ml.moves[i] }

// Moves returns the moves as a slice that aliases the list's storage.
func (ml *MoveList) Moves() []board.Move { return ml.moves[:ml.n] }

// Contains reports whether m is in the list.
func (ml *MoveList) Contains(m board.Move) bool {
	for _, x := range ml.moves[:ml.n] {
		if x == m {
			return true
		}
	}
	return false
}

func (ml *MoveList) add(m board.Move) {
	ml.moves[ml.n] = m
	ml.n++
}

// Legal fills ml with every legal move of the side to move.
func Legal(p *board.Position, ml *MoveList) { generate(p, ml, false) }

// Noisy fills ml with the legal captures and promotions (under-promotions
// included), the moves a quiescence search looks at. In check it still
// returns only noisy moves; a search in check should use Legal.
func Noisy(p *board.Position, ml *MoveList) { generate(p, ml, true) }

// generate is the single legal generator behind Legal and Noisy.
func generate(p *board.Position, ml *MoveList, noisyOnly bool) {
	ml.n = 0
	us, them := p.Side(), p.Side().Other()
	ours, theirs := p.Occupancy(us), p.Occupancy(them)
	occ := ours | theirs
	ksq := p.KingSquare(us)
	checkers := AttackersTo(p, ksq, occ) & theirs

	// King moves: the king must not step onto a square attacked once it has
	// left its own square (it would otherwise hide a slider's ray).
	kingTargets := kingAttacks[ksq] &^ ours
	if noisyOnly {
		kingTargets &= theirs
	}
	occNoKing := occ &^ board.SquareBB(ksq)
	for kingTargets != 0 {
		to := kingTargets.PopLSB()
		if !Attacked(p, to, them, occNoKing) {
			ml.add(board.NewMove(ksq, to))
		}
	}
	if checkers.More() {
		return // double check: only the king can move
	}

	// Squares a non-king move may go to: anywhere when not in check, else
	// capture the checker or block its ray.
	target := ^ours
	if checkers != 0 {
		target = checkers | between[ksq][checkers.LSB()]
	}
	quietTarget := target &^ theirs
	if noisyOnly {
		target &= theirs
	}

	pinned := pinnedPieces(p, ksq, us, occ)

	// Knights: a pinned knight can never move.
	for bb := p.Pieces(us, board.Knight) &^ pinned; bb != 0; {
		from := bb.PopLSB()
		addAll(ml, from, knightAttacks[from]&target)
	}
	// Sliders: a pinned slider may move along its pin line only.
	queens := p.Pieces(us, board.Queen)
	for bb := p.Pieces(us, board.Bishop) | queens; bb != 0; {
		from := bb.PopLSB()
		t := BishopAttacks(from, occ) & target
		if pinned.Has(from) {
			t &= line[ksq][from]
		}
		addAll(ml, from, t)
	}
	for bb := p.Pieces(us, board.Rook) | queens; bb != 0; {
		from := bb.PopLSB()
		t := RookAttacks(from, occ) & target
		if pinned.Has(from) {
			t &= line[ksq][from]
		}
		addAll(ml, from, t)
	}

	generatePawns(p, ml, us, ksq, occ, theirs, target, quietTarget, pinned, noisyOnly)

	if checkers == 0 && !noisyOnly {
		generateCastling(p, ml, us, ksq, occ)
	}
}

func addAll(ml *MoveList, from board.Square, targets board.Bitboard) {
	for targets != 0 {
		ml.add(board.NewMove(from, targets.PopLSB()))
	}
}

// pinnedPieces returns our pieces that shield our king from an enemy slider.
func pinnedPieces(p *board.Position, ksq board.Square, us board.Color, occ board.Bitboard) board.Bitboard {
	them := us.Other()
	queens := p.Pieces(them, board.Queen)
	snipers := RookAttacks(ksq, 0)&(p.Pieces(them, board.Rook)|queens) |
		BishopAttacks(ksq, 0)&(p.Pieces(them, board.Bishop)|queens)
	var pinned board.Bitboard
	for snipers != 0 {
		b := between[ksq][snipers.PopLSB()] & occ
		if b != 0 && !b.More() {
			pinned |= b
		}
	}
	return pinned & p.Occupancy(us)
}

// generatePawns adds pushes, captures, promotions and en passant.
func generatePawns(p *board.Position, ml *MoveList, us board.Color, ksq board.Square,
	occ, theirs, target, quietTarget, pinned board.Bitboard, noisyOnly bool) {
	pawns := p.Pieces(us, board.Pawn)
	// Forward is +8 for White and -8 for Black; "up" shifts a set one rank forward.
	forward := board.Square(8)
	promoRank, doubleRank := board.Rank8, board.Rank4
	up := func(b board.Bitboard) board.Bitboard { return b << 8 }
	if us == board.Black {
		forward = -8
		promoRank, doubleRank = board.Rank1, board.Rank5
		up = func(b board.Bitboard) board.Bitboard { return b >> 8 }
	}
	free := pawns &^ pinned

	// Pushes of unpinned pawns (a pinned pawn is handled one by one below).
	single := up(free) &^ occ
	double := up(single) &^ occ & doubleRank & quietTarget
	single &= quietTarget
	promos := single & promoRank
	if !noisyOnly {
		for b := single &^ promoRank; b != 0; {
			to := b.PopLSB()
			ml.add(board.NewMove(to-forward, to))
		}
		for b := double; b != 0; {
			to := b.PopLSB()
			ml.add(board.NewMove(to-2*forward, to))
		}
	}
	for promos != 0 {
		to := promos.PopLSB()
		addPromotions(ml, to-forward, to)
	}
	// Captures of unpinned pawns, via the attack table of each capture square.
	captureTargets := target & theirs
	for b := free; b != 0; {
		from := b.PopLSB()
		for t := pawnAttacks[us][from] & captureTargets; t != 0; {
			to := t.PopLSB()
			if promoRank.Has(to) {
				addPromotions(ml, from, to)
			} else {
				ml.add(board.NewMove(from, to))
			}
		}
	}
	// Pinned pawns: the same moves, restricted to the pin line.
	for b := pawns & pinned; b != 0; {
		from := b.PopLSB()
		pin := line[ksq][from]
		for t := pawnAttacks[us][from] & captureTargets & pin; t != 0; {
			to := t.PopLSB()
			if promoRank.Has(to) {
				addPromotions(ml, from, to)
			} else {
				ml.add(board.NewMove(from, to))
			}
		}
		to := from + forward
		if occ.Has(to) || !pin.Has(to) {
			continue
		}
		if quietTarget.Has(to) {
			if promoRank.Has(to) {
				addPromotions(ml, from, to)
			} else if !noisyOnly {
				ml.add(board.NewMove(from, to))
			}
		}
		if to2 := to + forward; doubleRank.Has(to2) && !occ.Has(to2) && quietTarget.Has(to2) && !noisyOnly {
			ml.add(board.NewMove(from, to2))
		}
	}

	// En passant: rare, so test it by looking at the position after the
	// capture. This covers the captured pawn being the checker, the capture
	// blocking a check, pins, and the rank discovered check where both pawns
	// leave the king's rank.
	ep := p.EnPassant()
	if ep == board.NoSquare {
		return
	}
	capSq := ep - forward
	them := us.Other()
	for b := pawnAttacks[them][ep] & pawns; b != 0; {
		from := b.PopLSB()
		after := occ ^ board.SquareBB(from) ^ board.SquareBB(capSq) | board.SquareBB(ep)
		attackers := AttackersTo(p, ksq, after) & theirs &^ board.SquareBB(capSq)
		if attackers == 0 {
			ml.add(board.NewEnPassant(from, ep))
		}
	}
}

func addPromotions(ml *MoveList, from, to board.Square) {
	ml.add(board.NewPromotion(from, to, board.Queen))
	ml.add(board.NewPromotion(from, to, board.Knight))
	ml.add(board.NewPromotion(from, to, board.Rook))
	ml.add(board.NewPromotion(from, to, board.Bishop))
}

// generateCastling adds castling moves; the side to move is not in check.
// One rule covers standard chess and Chess960: every square the king and
// rook cross or land on must be empty (but for the two of them), and no
// square the king crosses or lands on may be attacked once both have left
// their squares. Removing the rook matters in Chess960, where it can shield
// the king's destination from a rook or queen along the back rank.
func generateCastling(p *board.Position, ml *MoveList, us board.Color, ksq board.Square, occ board.Bitboard) {
	for _, kingside := range [2]bool{true, false} {
		rsq := p.CastlingRook(board.CastlingRight(us, kingside))
		if rsq == board.NoSquare {
			continue
		}
		m := board.NewCastling(ksq, rsq)
		kto, rto := m.CastlingKingTo(), m.CastlingRookTo()
		movers := board.SquareBB(ksq) | board.SquareBB(rsq)
		path := (between[ksq][kto] | board.SquareBB(kto) | between[rsq][rto] | board.SquareBB(rto)) &^ movers
		if path&occ != 0 {
			continue
		}
		rest := occ &^ movers
		ok := true
		for walk := between[ksq][kto] | board.SquareBB(kto); walk != 0; {
			if Attacked(p, walk.PopLSB(), us.Other(), rest) {
				ok = false
				break
			}
		}
		if ok {
			ml.add(m)
		}
	}
}
