package search

import (
	"github.com/twofold-chess/twofold/board"
	"github.com/twofold-chess/twofold/movegen"
)

// seeValue are the piece values of static exchange evaluation.
var seeValue = [7]int{100, 320, 330, 500, 950, 20000, 0}

// seeNonNegative reports whether SEE(p, m) >= 0, without the exchange when
// a normal move takes a piece worth at least the capturer: whatever follows,
// the side that captured first can stop at a gain of victim minus capturer
// (the exchange's backward pass never makes it worse).
func seeNonNegative(p *board.Position, m board.Move) bool {
	if m.Kind() == board.Normal {
		if victim := p.CapturedPiece(m); victim != board.NoPiece && seeValue[victim.Type()] >= seeValue[p.PieceAt(m.From()).Type()] {
			return true
		}
	}
	return SEE(p, m) >= 0
}

// SEE returns the material balance of the exchange that m starts on its
// destination square, both sides always recapturing with their least
// valuable attacker and stopping when that would lose material (the swap
// algorithm). X-ray attackers behind moved sliders join in.
func SEE(p *board.Position, m board.Move) int {
	if m.Kind() == board.Castling {
		return 0
	}
	from, to := m.From(), m.To()
	var gain [32]int
	captured := p.CapturedPiece(m)
	gain[0] = 0
	if captured != board.NoPiece {
		gain[0] = seeValue[captured.Type()]
	}
	next := p.PieceAt(from).Type() // the piece that now stands on 'to'
	if m.Kind() == board.Promotion {
		gain[0] += seeValue[m.PromotionType()] - seeValue[board.Pawn]
		next = m.PromotionType()
	}
	occ := p.Occupied() &^ board.SquareBB(from)
	if m.Kind() == board.EnPassant {
		occ &^= board.SquareBB(to ^ 8)
	}
	bishops := p.PiecesOfType(board.Bishop) | p.PiecesOfType(board.Queen)
	rooks := p.PiecesOfType(board.Rook) | p.PiecesOfType(board.Queen)
	attackers := movegen.AttackersTo(p, to, occ) & occ
	side := p.Side().Other()
	d := 0
	for {
		ours := attackers & p.Occupancy(side)
		if ours == 0 {
			break
		}
		// Least valuable attacker.
		pt := board.Pawn
		var bb board.Bitboard
		for ; pt <= board.King; pt++ {
			if bb = ours & p.PiecesOfType(pt); bb != 0 {
				break
			}
		}
		if pt == board.King && attackers&p.Occupancy(side.Other()) != 0 {
			break // the king cannot capture into a defended square
		}
		d++
		gain[d] = seeValue[next] - gain[d-1]
		if max(-gain[d-1], gain[d]) < 0 {
			break // neither continuing nor stopping changes the sign
		}
		next = pt
		occ &^= bb & -bb
		// Sliders behind the capturer now see the square.
		if pt == board.Pawn || pt == board.Bishop || pt == board.Queen {
			attackers |= movegen.BishopAttacks(to, occ) & bishops
		}
		if pt == board.Rook || pt == board.Queen {
			attackers |= movegen.RookAttacks(to, occ) & rooks
		}
		attackers &= occ
		side = side.Other()
		if d == len(gain)-1 {
			break
		}
	}
	for d > 0 {
		gain[d-1] = -max(-gain[d-1], gain[d])
		d--
	}
	return gain[0]
}
