package movegen

import (
	"math/bits"

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

// Truncate keeps the list's first n moves (n at most Len).
func (ml *MoveList) Truncate(n int) { ml.n = n }

func (ml *MoveList) add(m board.Move) {
	ml.moves[uint8(ml.n)] = m // no bounds check; no position has 256 moves
	ml.n++
}

// genMode selects the moves generate lists: all of them, the noisy ones
// (captures, en passant, promotions) or the quiet ones (the rest).
type genMode uint8

const (
	genAll genMode = iota
	genNoisy
	genQuiet
)

// Legal fills ml with every legal move of the side to move.
func Legal(p *board.Position, ml *MoveList) { ml.n = 0; generate(p, ml, genAll) }

// Noisy fills ml with the legal captures and promotions (under-promotions
// included), the moves a quiescence search looks at. In check it still
// returns only noisy moves; a search in check should use Legal.
func Noisy(p *board.Position, ml *MoveList) { ml.n = 0; generate(p, ml, genNoisy) }

// Quiet fills ml with the legal moves Noisy leaves out: moves to an empty
// square that do not promote, castling included. Noisy and Quiet together
// list the moves of Legal, each once, in Legal's order within each list.
func Quiet(p *board.Position, ml *MoveList) { ml.n = 0; generate(p, ml, genQuiet) }

// AppendQuiet adds the moves of Quiet after the moves already in ml (a
// staged search keeps its losing captures there while it tries the quiet
// moves).
func AppendQuiet(p *board.Position, ml *MoveList) { generate(p, ml, genQuiet) }

// generate is the single legal generator behind Legal, Noisy and Quiet; it
// adds to the moves already in ml.
// The order of the moves is part of the engine's behaviour (the search
// breaks ordering ties by it): king moves, knights, diagonal sliders,
// orthogonal sliders, pawns (see generatePawns), castling (king side
// first), and within each group by origin square, then destination square.
func generate(p *board.Position, ml *MoveList, mode genMode) {
	us, them := p.Side(), p.Side().Other()
	ours, theirs := p.Occupancy(us), p.Occupancy(them)
	occ := ours | theirs
	ksq := p.KingSquare(us)
	checkers, pinned := checkersAndPins(p, ksq, us, ours, theirs, occ)

	// King moves: the king must not step onto a square attacked once it has
	// left its own square (it would otherwise hide a slider's ray).
	kingTargets := kingAttacks[ksq] &^ ours
	switch mode {
	case genNoisy:
		kingTargets &= theirs
	case genQuiet:
		kingTargets &^= theirs
	}
	if kingTargets != 0 {
		occNoKing := occ &^ board.SquareBB(ksq)
		for kingTargets != 0 {
			to := kingTargets.LSB()
			kingTargets &= kingTargets - 1
			if !Attacked(p, to, them, occNoKing) {
				ml.add(board.NewMove(ksq, to))
			}
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
	switch mode {
	case genNoisy:
		target &= theirs
	case genQuiet:
		target = quietTarget
	}

	// Knights: a pinned knight can never move. Sliders: a pinned slider
	// may move along its pin line only.
	queens := p.Pieces(us, board.Queen)
	addPieceMoves(ml, p.Pieces(us, board.Knight)&^pinned, p.Pieces(us, board.Bishop)|queens,
		p.Pieces(us, board.Rook)|queens, occ, target, pinned, ksq)

	generatePawns(p, ml, us, ksq, occ, theirs, target, quietTarget, pinned, mode)

	if checkers == 0 && mode != genNoisy {
		generateCastling(p, ml, us, ksq, occ)
	}
}

// castlingRightsOf holds both castling rights of each colour.
var castlingRightsOf = [2]board.CastlingRights{
	board.WhiteKingside | board.WhiteQueenside,
	board.BlackKingside | board.BlackQueenside,
}

// checkersAndPins returns the enemy pieces (theirs) attacking our king on
// ksq and our pieces pinned to it, in one pass over the enemy sliders on
// the king's rays: with nothing between a slider and the king it checks,
// with one piece between, that piece is pinned if it is ours.
func checkersAndPins(p *board.Position, ksq board.Square, us board.Color, ours, theirs, occ board.Bitboard) (checkers, pinned board.Bitboard) {
	checkers = (pawnAttacks[us][ksq]&p.PiecesOfType(board.Pawn) | knightAttacks[ksq]&p.PiecesOfType(board.Knight)) & theirs
	queens := p.PiecesOfType(board.Queen)
	diag := (p.PiecesOfType(board.Bishop) | queens) & theirs & bishopRays[ksq]
	orth := (p.PiecesOfType(board.Rook) | queens) & theirs & rookRays[ksq]
	for snipers := diag | orth; snipers != 0; snipers &= snipers - 1 {
		s := snipers.LSB()
		switch b := between[ksq][s] & occ; {
		case b == 0:
			checkers |= board.SquareBB(s)
		case !b.More():
			pinned |= b
		}
	}
	return checkers, pinned & ours
}

// addPieceMoves adds the moves of our knights, then diagonal sliders, then
// orthogonal sliders (queens are in both sets). It is kept out of line: in
// a function of its own the loops stay in registers.
//
//go:noinline
func addPieceMoves(ml *MoveList, knights, diag, orth, occ, target, pinned board.Bitboard, ksq board.Square) {
	for ; knights != 0; knights &= knights - 1 {
		from := knights.LSB()
		addAll(ml, from, knightAttacks[from]&target)
	}
	for ; diag != 0; diag &= diag - 1 {
		from := diag.LSB()
		t := BishopAttacks(from, occ) & target
		if pinned.Has(from) {
			t &= line[ksq][from]
		}
		addAll(ml, from, t)
	}
	for ; orth != 0; orth &= orth - 1 {
		from := orth.LSB()
		t := RookAttacks(from, occ) & target
		if pinned.Has(from) {
			t &= line[ksq][from]
		}
		addAll(ml, from, t)
	}
}

// addAll adds a move from from to every square of targets, in square order.
func addAll(ml *MoveList, from board.Square, targets board.Bitboard) {
	n := ml.n
	origin := board.NewMove(from, 0)
	for ; targets != 0; targets &= targets - 1 {
		// uint8(n) needs no bounds check, and no position has 256 moves.
		ml.moves[uint8(n)] = origin | destination(targets)
		n++
	}
	ml.n = n
}

// addShifted adds a move to every square of targets from the square delta
// below it (pawn pushes). It is kept out of line: in a function of its own
// the loop stays in registers.
//
//go:noinline
func addShifted(ml *MoveList, targets board.Bitboard, delta int) {
	n := ml.n
	for ; targets != 0; targets &= targets - 1 {
		to := bits.TrailingZeros64(uint64(targets))
		ml.moves[uint8(n)] = board.Move(to<<6 | (to - delta))
		n++
	}
	ml.n = n
}

// destination returns the move bits of the lowest square of a non-empty
// set as a destination (board.NewMove(0, targets.LSB()), without the
// round trip through a signed Square).
func destination(targets board.Bitboard) board.Move {
	return board.Move(bits.TrailingZeros64(uint64(targets)) << 6)
}

// pawnPush shifts a set of pawns of colour c one rank forward.
func pawnPush(b board.Bitboard, c board.Color) board.Bitboard {
	if c == board.White {
		return b << 8
	}
	return b >> 8
}

// pawnAttackSet returns the squares attacked by pawns of colour c on b.
func pawnAttackSet(b board.Bitboard, c board.Color) board.Bitboard {
	if c == board.White {
		return (b&^board.FileA)<<7 | (b&^board.FileH)<<9
	}
	return (b&^board.FileA)>>9 | (b&^board.FileH)>>7
}

// generatePawns adds, in this order: single pushes (not promoting) of
// unpinned pawns by destination, their double pushes, their push
// promotions, the captures of unpinned pawns by origin, the moves of pinned
// pawns by origin (captures, then push, then double push), en passant.
// Promotions come as queen, knight, rook, bishop. In genQuiet mode target
// holds no enemy piece, so no capture is added.
func generatePawns(p *board.Position, ml *MoveList, us board.Color, ksq board.Square,
	occ, theirs, target, quietTarget, pinned board.Bitboard, mode genMode) {
	pawns := p.Pieces(us, board.Pawn)
	// Forward is +8 for White and -8 for Black.
	forward := board.Square(8)
	promoRank, doubleRank, lastRank := board.Rank8, board.Rank4, board.Rank7
	if us == board.Black {
		forward = -8
		promoRank, doubleRank, lastRank = board.Rank1, board.Rank5, board.Rank2
	}
	free := pawns &^ pinned

	// Pushes of unpinned pawns (a pinned pawn is handled one by one below).
	single := pawnPush(free, us) &^ occ
	double := pawnPush(single, us) &^ occ & doubleRank & quietTarget
	single &= quietTarget
	promos := single & promoRank
	if mode == genQuiet {
		promos = 0
	}
	if mode != genNoisy {
		// A push's origin is its destination less forward: as move bits,
		// to<<6 | to - forward.
		addShifted(ml, single&^promoRank, int(forward))
		addShifted(ml, double, 2*int(forward))
	}
	for promos != 0 {
		to := promos.LSB()
		promos &= promos - 1
		addPromotions(ml, to-forward, to)
	}
	// Captures of unpinned pawns, via the attack table of each pawn that
	// has one (the pawns attacking a target are where an enemy pawn on the
	// target would attack).
	captureTargets := target & theirs
	for b := free & pawnAttackSet(captureTargets, us.Other()); b != 0; {
		from := b.LSB()
		b &= b - 1
		t := pawnAttacks[us][from] & captureTargets
		if lastRank.Has(from) {
			for t != 0 {
				addPromotions(ml, from, t.LSB())
				t &= t - 1
			}
		} else {
			addAll(ml, from, t)
		}
	}
	// Pinned pawns: the same moves, restricted to the pin line.
	for b := pawns & pinned; b != 0; {
		from := b.LSB()
		b &= b - 1
		pin := line[ksq][from]
		for t := pawnAttacks[us][from] & captureTargets & pin; t != 0; {
			to := t.LSB()
			t &= t - 1
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
			if !promoRank.Has(to) {
				if mode != genNoisy {
					ml.add(board.NewMove(from, to))
				}
			} else if mode != genQuiet {
				addPromotions(ml, from, to)
			}
		}
		if to2 := to + forward; doubleRank.Has(to2) && !occ.Has(to2) && quietTarget.Has(to2) && mode != genNoisy {
			ml.add(board.NewMove(from, to2))
		}
	}

	// En passant.
	if ep := p.EnPassant(); ep != board.NoSquare && mode != genQuiet {
		for b := enPassantOrigins(p, us, ksq, occ, theirs, ep); b != 0; {
			ml.add(board.NewEnPassant(b.LSB(), ep))
			b &= b - 1
		}
	}
}

// enPassantOrigins returns the squares of our pawns that may capture en
// passant on ep. It is rare, so each capture is tested by looking at the
// position after it. This covers the captured pawn being the checker, the
// capture blocking a check, pins, and the rank discovered check where both
// pawns leave the king's rank.
func enPassantOrigins(p *board.Position, us board.Color, ksq board.Square, occ, theirs board.Bitboard, ep board.Square) board.Bitboard {
	capSq := ep ^ 8 // the pawn that double-pushed stands behind the target
	var origins board.Bitboard
	for b := pawnAttacks[us.Other()][ep] & p.Pieces(us, board.Pawn); b != 0; {
		from := b.LSB()
		b &= b - 1
		after := occ ^ board.SquareBB(from) ^ board.SquareBB(capSq) | board.SquareBB(ep)
		if AttackersTo(p, ksq, after)&theirs&^board.SquareBB(capSq) == 0 {
			origins |= board.SquareBB(from)
		}
	}
	return origins
}

func addPromotions(ml *MoveList, from, to board.Square) {
	n := ml.n
	ml.moves[uint8(n)] = board.NewPromotion(from, to, board.Queen)
	ml.moves[uint8(n+1)] = board.NewPromotion(from, to, board.Knight)
	ml.moves[uint8(n+2)] = board.NewPromotion(from, to, board.Rook)
	ml.moves[uint8(n+3)] = board.NewPromotion(from, to, board.Bishop)
	ml.n = n + 4
}

// generateCastling adds castling moves, king side first; the side to move
// is not in check. One rule covers standard chess and Chess960: every square
// the king and rook cross or land on must be empty (but for the two of
// them), and no square the king crosses or lands on may be attacked once
// both have left their squares. Removing the rook matters in Chess960, where
// it can shield the king's destination from a rook or queen along the back
// rank.
func generateCastling(p *board.Position, ml *MoveList, us board.Color, ksq board.Square, occ board.Bitboard) {
	// The king-side right is the lower bit of each colour's pair. Mostly
	// the path is blocked, which is told before the call.
	for rights := p.Castling() & castlingRightsOf[us]; rights != 0; rights &= rights - 1 {
		if rsq, empty, walk, _ := p.CastlingSquares(rights & -rights); empty&occ == 0 &&
			castlingWalkSafe(p, us, occ&^(board.SquareBB(ksq)|board.SquareBB(rsq)), walk) {
			ml.add(board.NewCastling(ksq, rsq))
		}
	}
}

// castlingWalkSafe reports whether no square of walk is attacked, with the
// king and rook lifted off the board (rest is the occupancy without them).
func castlingWalkSafe(p *board.Position, us board.Color, rest, walk board.Bitboard) bool {
	for ; walk != 0; walk &= walk - 1 {
		if Attacked(p, walk.LSB(), us.Other(), rest) {
			return false
		}
	}
	return true
}
