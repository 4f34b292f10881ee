package syzygy

import (
	"fmt"
	"strings"

	"github.com/twofold-chess/twofold/board"
)

// materialKey identifies a material balance: four bits per count of pawns,
// knights, bishops, rooks and queens, the first side's in the low 20 bits
// and the second side's above (kings are implied).
type materialKey uint64

// keyOf returns the key of the position's material with colour first as
// the first side.
func keyOf(p *board.Position, first board.Color) materialKey {
	var k materialKey
	for pt := board.Pawn; pt <= board.Queen; pt++ {
		k |= materialKey(p.Pieces(first, pt).Count()) << (4 * uint(pt))
		k |= materialKey(p.Pieces(first.Other(), pt).Count()) << (4 * uint(pt+5))
	}
	return k
}

// material describes a table from its name (KRPvKR: white K, R, P against
// black K, R).
type material struct {
	name      string
	count     int         // pieces, kings included
	counts    [2][5]int   // [side][pawn..queen]
	key, key2 materialKey // with the named first side as white, and swapped
	symmetric bool
	hasPawns  bool
	pawns     [2]int // pawns of the leading colour, of the other colour
	twoKings  bool   // no unique piece besides the kings: the kings lead
}

const pieceLetters = "PNBRQK"

// parseMaterial reads a table name such as "KQPvKR".
func parseMaterial(name string) (*material, error) {
	sides := strings.Split(name, "v")
	if len(sides) != 2 {
		return nil, fmt.Errorf("table name %q: want two sides joined by v, such as KRvK", name)
	}
	m := &material{name: name}
	for s, side := range sides {
		if len(side) == 0 || side[0] != 'K' {
			return nil, fmt.Errorf("table name %q: each side starts with its king", name)
		}
		for _, c := range side[1:] {
			i := strings.IndexRune(pieceLetters[:5], c)
			if i < 0 {
				return nil, fmt.Errorf("table name %q: %q is not one of Q, R, B, N, P", name, c)
			}
			m.counts[s][i]++
		}
		m.count += len(side)
	}
	if m.count > maxPieces {
		return nil, fmt.Errorf("table name %q: %d pieces, at most %d are supported", name, m.count, maxPieces)
	}
	if m.count < 3 {
		return nil, fmt.Errorf("table name %q: no table for two kings alone", name)
	}
	for i := 0; i < 5; i++ {
		m.key |= materialKey(m.counts[0][i]) << (4 * uint(i))
		m.key |= materialKey(m.counts[1][i]) << (4 * uint(i+5))
		m.key2 |= materialKey(m.counts[1][i]) << (4 * uint(i))
		m.key2 |= materialKey(m.counts[0][i]) << (4 * uint(i+5))
	}
	m.symmetric = m.key == m.key2
	wp, bp := m.counts[0][0], m.counts[1][0]
	m.hasPawns = wp+bp > 0
	m.pawns = [2]int{wp, bp}
	if bp > 0 && (wp == 0 || bp < wp) {
		m.pawns = [2]int{bp, wp}
	}
	m.twoKings = true
	for s := 0; s < 2; s++ {
		for i := 0; i < 5; i++ {
			if m.counts[s][i] == 1 {
				m.twoKings = false
			}
		}
	}
	return m, nil
}

// pieceCode is a piece as the files write it: 1..6 white pawn..king, 9..14
// black. It is board.Piece plus one.
func pieceCode(c board.Color, pt board.PieceType) uint8 { return uint8(board.MakePiece(c, pt)) + 1 }

// setGroups checks the piece list of a sub-table against the material and
// derives its groups and their factors. order and order2 say where the
// leading group and the other colour's pawns come in the mixed radix.
func (m *material) setGroups(e *encoding, order, order2, file int) error {
	// The list must hold exactly the material, identical pieces together.
	var seen [16]int
	for i := 0; i < m.count; i++ {
		c := e.pieces[i]
		if c&7 == 0 || c&7 > 6 {
			return corrupt("piece code %d in the piece list", c)
		}
		if seen[c] > 0 && e.pieces[i-1] != c {
			return corrupt("piece list %v of %s does not keep like pieces together", e.pieces[:m.count], m.name)
		}
		seen[c]++
	}
	for s := 0; s < 2; s++ {
		if seen[pieceCode(board.Color(s), board.King)] != 1 {
			return corrupt("piece list %v does not hold the material %s (wrongly named file?)", e.pieces[:m.count], m.name)
		}
		for pt := board.Pawn; pt <= board.Queen; pt++ {
			if seen[pieceCode(board.Color(s), pt)] != m.counts[s][pt] {
				return corrupt("piece list %v does not hold the material %s (wrongly named file?)", e.pieces[:m.count], m.name)
			}
		}
	}

	lead := 3
	switch {
	case m.hasPawns:
		lead = m.pawns[0]
		for i := 0; i < lead; i++ {
			if e.pieces[i]&7 != 1 || e.pieces[i] != e.pieces[0] || seen[e.pieces[0]] != lead {
				return corrupt("piece list %v of %s does not start with the leading pawns", e.pieces[:m.count], m.name)
			}
		}
	case m.twoKings:
		lead = 2
		if e.pieces[0]&7 != 6 || e.pieces[1]&7 != 6 {
			return corrupt("piece list %v of %s does not start with the kings", e.pieces[:m.count], m.name)
		}
	default:
		if e.pieces[0] == e.pieces[1] || e.pieces[0] == e.pieces[2] || e.pieces[1] == e.pieces[2] {
			return corrupt("piece list %v of %s does not start with three unique pieces", e.pieces[:m.count], m.name)
		}
	}
	bothPawns := m.hasPawns && m.pawns[1] > 0
	e.groups = [maxPieces]uint8{}
	e.groups[0] = uint8(lead)
	n := 1
	k := lead
	if bothPawns {
		for i := k; i < k+m.pawns[1]; i++ {
			if e.pieces[i]&7 != 1 {
				return corrupt("piece list %v of %s does not give the other pawns second", e.pieces[:m.count], m.name)
			}
		}
		e.groups[1] = uint8(m.pawns[1])
		k += m.pawns[1]
		n = 2
	}
	for k < m.count {
		j := k
		for j < m.count && e.pieces[j] == e.pieces[k] {
			j++
		}
		e.groups[n] = uint8(j - k)
		n++
		k = j
	}

	if !bothPawns {
		order2 = -1
	}
	if order >= n || order == order2 || (bothPawns && order2 >= n) {
		return corrupt("group order %d/%d with %d groups", order, order2, n)
	}
	next := 1
	if bothPawns {
		next = 2
	}
	free := 64 - lead
	if bothPawns {
		free -= m.pawns[1]
	}
	f := uint64(1)
	for i := 0; next < n || i == order || i == order2; i++ {
		switch i {
		case order:
			e.factors[0] = f
			switch {
			case m.hasPawns:
				f *= leadPawnSize[lead][file]
			case m.twoKings:
				f *= 462
			default:
				f *= 31332
			}
		case order2:
			e.factors[1] = f
			f *= binomial[m.pawns[1]][48-lead]
		default:
			e.factors[next] = f
			f *= binomial[e.groups[next]][free]
			free -= int(e.groups[next])
			next++
		}
	}
	e.size = f
	return nil
}
