package movegen

import (
	"math/bits"

	"github.com/twofold-chess/twofold/board"
)

// Attack tables, filled once at package init.
var (
	knightAttacks [64]board.Bitboard
	kingAttacks   [64]board.Bitboard
	pawnAttacks   [2][64]board.Bitboard  // [colour][square]: squares a pawn of that colour attacks
	between       [64][64]board.Bitboard // squares strictly between two aligned squares, else empty
	line          [64][64]board.Bitboard // the whole line through two aligned squares, else empty

	rookMagics   [64]magic
	bishopMagics [64]magic
	rookTable    []board.Bitboard
	bishopTable  []board.Bitboard
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
	return m.offset + uint32((uint64(occ&m.mask)*m.number)>>m.shift)
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
	rookTable = initMagics(&rookMagics, rookDirs, 0x2545F4914F6CDD1D)
	bishopTable = initMagics(&bishopMagics, bishopDirs, 0x6A09E667F3BCC909)

	for a := board.Square(0); a < 64; a++ {
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

// initMagics finds a magic multiplier for every square by trial with a
// fixed-seed generator (deterministic, a few milliseconds; see
// BenchmarkInitMagics) and fills the shared attack table.
func initMagics(magics *[64]magic, dirs [4][2]int, seed uint64) []board.Bitboard {
	var occs, refs [4096]board.Bitboard
	var epoch [4096]uint32
	var table []board.Bitboard
	rng := xorshift(seed)
	attempt := uint32(0)
	for s := board.Square(0); s < 64; s++ {
		// Edges never block a ray's inner squares, so they are not relevant.
		edges := ((board.Rank1 | board.Rank8) &^ board.RankBB(s.Rank())) |
			((board.FileA | board.FileH) &^ board.FileBB(s.File()))
		m := &magics[s]
		m.mask = slide(s, 0, dirs) &^ edges
		bitsN := m.mask.Count()
		m.shift = uint8(64 - bitsN)
		m.offset = uint32(len(table))
		size := 1 << bitsN
		table = append(table, make([]board.Bitboard, size)...)
		block := table[m.offset:]

		// Enumerate every subset of the mask (Carry-Rippler).
		n := 0
		for occ := board.Bitboard(0); ; {
			occs[n], refs[n] = occ, slide(s, occ, dirs)
			n++
			if occ = (occ - m.mask) & m.mask; occ == 0 {
				break
			}
		}
		for {
			number := rng.sparse()
			if bits.OnesCount64((uint64(m.mask)*number)>>56) < 6 {
				continue // too few high bits: cannot spread the index well
			}
			attempt++
			ok := true
			for i := 0; i < n; i++ {
				idx := (uint64(occs[i]) * number) >> m.shift
				if epoch[idx] != attempt {
					epoch[idx] = attempt
					block[idx] = refs[i]
				} else if block[idx] != refs[i] {
					ok = false
					break
				}
			}
			if ok {
				m.number = number
				break
			}
		}
	}
	return table
}

type xorshiftState uint64

func xorshift(seed uint64) *xorshiftState { s := xorshiftState(seed); return &s }

func (s *xorshiftState) next() uint64 {
	x := uint64(*s)
	x ^= x >> 12
	x ^= x << 25
	x ^= x >> 27
	*s = xorshiftState(x)
	return x * 2685821657736338717
}

// sparse returns a number with few set bits, which make good magic candidates.
func (s *xorshiftState) sparse() uint64 { return s.next() & s.next() & s.next() }

// RookAttacks returns the squares a rook on s attacks given the occupancy.
func RookAttacks(s board.Square, occ board.Bitboard) board.Bitboard {
	return rookTable[rookMagics[s].index(occ)]
}

// BishopAttacks returns the squares a bishop on s attacks given the occupancy.
func BishopAttacks(s board.Square, occ board.Bitboard) board.Bitboard {
	return bishopTable[bishopMagics[s].index(occ)]
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
	queens := p.Pieces(by, board.Queen)
	return BishopAttacks(s, occ)&(p.Pieces(by, board.Bishop)|queens) != 0 ||
		RookAttacks(s, occ)&(p.Pieces(by, board.Rook)|queens) != 0
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
