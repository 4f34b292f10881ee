package movegen

import (
	"github.com/twofold-chess/twofold/board"
)

// Attack tables, filled once at package init.
var (
	knightAttacks [64]board.Bitboard
	kingAttacks   [64]board.Bitboard
	pawnAttacks   [2][64]board.Bitboard  // [colour][square]: squares a pawn of that colour attacks
	between       [64][64]board.Bitboard // squares strictly between two aligned squares, else empty
	line          [64][64]board.Bitboard // the whole line through two aligned squares, else empty
	rookRays      [64]board.Bitboard     // rook attacks on an empty board
	bishopRays    [64]board.Bitboard     // bishop attacks on an empty board

	rookMagics   [64]magic
	bishopMagics [64]magic
	rookTable    []board.Bitboard // rookAttacks, as built by initMagics
	bishopTable  []board.Bitboard // bishopAttacks, as built by initMagics

	// The lookups index fixed-size arrays: no slice length to load.
	rookAttacks   [102400]board.Bitboard
	bishopAttacks [5248]board.Bitboard
)

// magic holds one square's "fancy magic" lookup: the relevant occupancy mask,
// the multiplier, the shift, and where its block starts in the shared table.
type magic struct {
	mask   board.Bitboard
	number uint64
	shift  uint8
	offset uint32
}

func (m *magic) index(occ board.Bitboard) uint32 {
	// The mask on the shift count spares the check for counts of 64 and up.
	return m.offset + uint32((uint64(occ&m.mask)*m.number)>>(m.shift&63))
}

var (
	rookDirs   = [4][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}}
	bishopDirs = [4][2]int{{1, 1}, {1, -1}, {-1, 1}, {-1, -1}}
)

// slide walks rays from s until the board edge or the first occupied square
// (included). It is the slow reference the magic tables are built from.
func slide(s board.Square, occ board.Bitboard, dirs [4][2]int) board.Bitboard {
	var att board.Bitboard
	for _, d := range dirs {
		f, r := s.File()+d[0], s.Rank()+d[1]
		for f >= 0 && f < 8 && r >= 0 && r < 8 {
			t := board.NewSquare(f, r)
			att |= board.SquareBB(t)
			if occ.Has(t) {
				break
			}
			f, r = f+d[0], r+d[1]
		}
	}
	return att
}

func init() {
	for s := board.Square(0); s < 64; s++ {
		f, r := s.File(), s.Rank()
		step := func(df, dr int) board.Bitboard {
			if f+df < 0 || f+df > 7 || r+dr < 0 || r+dr > 7 {
				return 0
			}
			return board.SquareBB(board.NewSquare(f+df, r+dr))
		}
		for _, d := range [8][2]int{{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}} {
			knightAttacks[s] |= step(d[0], d[1])
		}
		for _, d := range [8][2]int{{1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}, {-1, -1}, {0, -1}, {1, -1}} {
			kingAttacks[s] |= step(d[0], d[1])
		}
		pawnAttacks[board.White][s] = step(-1, 1) | step(1, 1)
		pawnAttacks[board.Black][s] = step(-1, -1) | step(1, -1)
	}
	rookTable = rookAttacks[:copy(rookAttacks[:], initMagics(&rookMagics, &rookMagicNumbers, rookDirs))]
	bishopTable = bishopAttacks[:copy(bishopAttacks[:], initMagics(&bishopMagics, &bishopMagicNumbers, bishopDirs))]

	for a := board.Square(0); a < 64; a++ {
		rookRays[a], bishopRays[a] = slide(a, 0, rookDirs), slide(a, 0, bishopDirs)
		for _, dirs := range [2][4][2]int{rookDirs, bishopDirs} {
			full := slide(a, 0, dirs)
			for b := board.Square(0); b < 64; b++ {
				if !full.Has(b) {
					continue
				}
				between[a][b] = slide(a, board.SquareBB(b), dirs) & slide(b, board.SquareBB(a), dirs)
				line[a][b] = (full & slide(b, 0, dirs)) | board.SquareBB(a) | board.SquareBB(b)
			}
		}
	}
}

// relevantMask returns the squares whose occupancy can change a slider's
// attacks from s: its rays without their last square (edges never block).
func relevantMask(s board.Square, dirs [4][2]int) board.Bitboard {
	edges := ((board.Rank1 | board.Rank8) &^ board.RankBB(s.Rank())) |
		((board.FileA | board.FileH) &^ board.FileBB(s.File()))
	return slide(s, 0, dirs) &^ edges
}

// initMagics fills the shared attack table from the magic numbers in
// magic_numbers.go (found once by TestMagicNumbers -regenerate) and checks
// them on the way: a wrong number would make two occupancies with different
// attacks share a slot. Filling costs a few milliseconds (BenchmarkInitMagics);
// searching the numbers at start-up cost ~340 ms.
func initMagics(magics *[64]magic, numbers *[64]uint64, dirs [4][2]int) []board.Bitboard {
	var table []board.Bitboard
	for s := board.Square(0); s < 64; s++ {
		m := &magics[s]
		m.mask = relevantMask(s, dirs)
		m.number = numbers[s]
		m.shift = uint8(64 - m.mask.Count())
		m.offset = uint32(len(table))
		table = append(table, make([]board.Bitboard, 1<<m.mask.Count())...)
		// Enumerate every subset of the mask (Carry-Rippler). Attack sets are
		// never empty, so an empty slot is an unused one.
		for occ := board.Bitboard(0); ; {
			att := slide(s, occ, dirs)
			slot := &table[m.index(occ)]
			if *slot != 0 && *slot != att {
				panic("movegen: magic_numbers.go is corrupt; restore it from git")
			}
			*slot = att
			if occ = (occ - m.mask) & m.mask; occ == 0 {
				break
			}
		}
	}
	return table
}

// RookAttacks returns the squares a rook on s attacks given the occupancy.
func RookAttacks(s board.Square, occ board.Bitboard) board.Bitboard {
	return rookAttacks[rookMagics[s].index(occ)]
}

// BishopAttacks returns the squares a bishop on s attacks given the occupancy.
func BishopAttacks(s board.Square, occ board.Bitboard) board.Bitboard {
	return bishopAttacks[bishopMagics[s].index(occ)]
}

// QueenAttacks returns the squares a queen on s attacks given the occupancy.
func QueenAttacks(s board.Square, occ board.Bitboard) board.Bitboard {
	return RookAttacks(s, occ) | BishopAttacks(s, occ)
}

// KnightAttacks returns the squares a knight on s attacks.
func KnightAttacks(s board.Square) board.Bitboard { return knightAttacks[s] }

// KingAttacks returns the squares a king on s attacks.
func KingAttacks(s board.Square) board.Bitboard { return kingAttacks[s] }

// PawnAttacks returns the squares a pawn of colour c on s attacks.
func PawnAttacks(c board.Color, s board.Square) board.Bitboard { return pawnAttacks[c][s] }

// Between returns the squares strictly between a and b when they share a
// rank, file or diagonal, and the empty set otherwise.
func Between(a, b board.Square) board.Bitboard { return between[a][b] }

// Line returns the full line through a and b when aligned, else the empty set.
func Line(a, b board.Square) board.Bitboard { return line[a][b] }

// AttackersTo returns the pieces of both colours that attack s, with the
// given occupancy deciding which sliders are blocked.
func AttackersTo(p *board.Position, s board.Square, occ board.Bitboard) board.Bitboard {
	queens := p.PiecesOfType(board.Queen)
	return pawnAttacks[board.White][s]&p.Pieces(board.Black, board.Pawn) |
		pawnAttacks[board.Black][s]&p.Pieces(board.White, board.Pawn) |
		knightAttacks[s]&p.PiecesOfType(board.Knight) |
		kingAttacks[s]&p.PiecesOfType(board.King) |
		BishopAttacks(s, occ)&(p.PiecesOfType(board.Bishop)|queens) |
		RookAttacks(s, occ)&(p.PiecesOfType(board.Rook)|queens)
}

// Attacked reports whether colour by attacks s, with the given occupancy.
func Attacked(p *board.Position, s board.Square, by board.Color, occ board.Bitboard) bool {
	if knightAttacks[s]&p.Pieces(by, board.Knight) != 0 ||
		pawnAttacks[by.Other()][s]&p.Pieces(by, board.Pawn) != 0 ||
		kingAttacks[s]&p.Pieces(by, board.King) != 0 {
		return true
	}
	// Sliders are looked up only when one stands on a ray from s.
	queens := p.Pieces(by, board.Queen)
	if diag := p.Pieces(by, board.Bishop) | queens; bishopRays[s]&diag != 0 && BishopAttacks(s, occ)&diag != 0 {
		return true
	}
	orth := p.Pieces(by, board.Rook) | queens
	return rookRays[s]&orth != 0 && RookAttacks(s, occ)&orth != 0
}

// Checkers returns the opponent's pieces giving check to the side to move.
func Checkers(p *board.Position) board.Bitboard {
	us := p.Side()
	return AttackersTo(p, p.KingSquare(us), p.Occupied()) & p.Occupancy(us.Other())
}

// InCheck reports whether the side to move is in check.
func InCheck(p *board.Position) bool {
	us := p.Side()
	return Attacked(p, p.KingSquare(us), us.Other(), p.Occupied())
}

// CheckInfo is what testing a position's moves for check needs to know of
// the position once (Stockfish's check squares and blockers): the squares
// from which each of the mover's piece types checks the other king, and the
// mover's pieces that alone stand between one of its sliders and that king.
// With it a normal move is tested with a lookup or two; a node whose moves
// are tested by the dozen builds one (NewCheckInfo) and asks it instead of
// GivesCheck.
type CheckInfo struct {
	squares     [board.King + 1]board.Bitboard // by the moving piece's type; none for the king
	discoverers board.Bitboard
	ksq         board.Square // the other king
}

// NewCheckInfo returns the CheckInfo of p for the side to move.
func NewCheckInfo(p *board.Position) CheckInfo {
	us := p.Side()
	them := us.Other()
	ksq := p.KingSquare(them)
	occ := p.Occupied()
	ours := p.Occupancy(us)
	var ci CheckInfo
	ci.ksq = ksq
	ci.squares[board.Pawn] = pawnAttacks[them][ksq]
	ci.squares[board.Knight] = knightAttacks[ksq]
	ci.squares[board.Bishop] = BishopAttacks(ksq, occ)
	ci.squares[board.Rook] = RookAttacks(ksq, occ)
	ci.squares[board.Queen] = ci.squares[board.Bishop] | ci.squares[board.Rook]
	// Our pieces pinned to their king by our own sliders: the pin search
	// of move generation, with our pieces on both sides (the other king is
	// not in check, so it finds no checkers).
	_, ci.discoverers = checkersAndPins(p, ksq, them, ours, ours, occ)
	return ci
}

// GivesCheck reports whether m, a legal move of p (the position the
// CheckInfo was built for), checks the opponent, as the function GivesCheck
// does.
func (ci *CheckInfo) GivesCheck(p *board.Position, m board.Move) bool {
	if m.Kind() != board.Normal {
		return GivesCheck(p, m)
	}
	from, to := m.From(), m.To()
	// The check squares were found with the mover still on from. That never
	// hides a check: were from between to and the king, the mover would
	// slide along that line and so, with it clear, be checking already.
	if ci.squares[p.PieceAt(from).Type()].Has(to) {
		return true
	}
	return ci.discoverers.Has(from) && !line[ci.ksq][from].Has(to)
}

// GivesCheck reports whether the legal move m checks the opponent, without
// making it: directly from the destination, or by uncovering a slider.
// Castling, en passant and promotions (rare) are answered by making the move.
func GivesCheck(p *board.Position, m board.Move) bool {
	if m.Kind() != board.Normal {
		p.Make(m)
		check := InCheck(p)
		p.Unmake()
		return check
	}
	us := p.Side()
	ksq := p.KingSquare(us.Other())
	from, to := m.From(), m.To()
	occ := p.Occupied()&^board.SquareBB(from) | board.SquareBB(to)
	switch p.PieceAt(from).Type() {
	case board.Pawn:
		if pawnAttacks[us][to].Has(ksq) {
			return true
		}
	case board.Knight:
		if knightAttacks[to].Has(ksq) {
			return true
		}
	case board.Bishop:
		if BishopAttacks(to, occ).Has(ksq) {
			return true
		}
	case board.Rook:
		if RookAttacks(to, occ).Has(ksq) {
			return true
		}
	case board.Queen:
		if QueenAttacks(to, occ).Has(ksq) {
			return true
		}
	}
	// Discovered check: one of our sliders (not the mover) now sees the
	// king. The king was not in check before the move, so only a piece
	// that left a line through the king can uncover one, and only along
	// that line: most moves need no slider attacks computed at all.
	queens := p.Pieces(us, board.Queen)
	var sliders board.Bitboard
	switch {
	case rookRays[ksq].Has(from):
		sliders = RookAttacks(ksq, occ) & (p.Pieces(us, board.Rook) | queens)
	case bishopRays[ksq].Has(from):
		sliders = BishopAttacks(ksq, occ) & (p.Pieces(us, board.Bishop) | queens)
	}
	return sliders&^board.SquareBB(from) != 0
}
