package movegen_test

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twofold-chess/twofold/board"
	"github.com/twofold-chess/twofold/movegen"
)

type direction struct{ df, dr int }

var (
	orthogonal = []direction{{0, 1}, {0, -1}, {1, 0}, {-1, 0}}
	diagonal   = []direction{{1, 1}, {1, -1}, {-1, 1}, {-1, -1}}
)

// rayWalk is the slow reference for slider attacks: walk each direction
// square by square and stop after the first occupied square.
func rayWalk(s board.Square, occ board.Bitboard, dirs []direction) board.Bitboard {
	var att board.Bitboard
	for _, d := range dirs {
		for f, r := s.File()+d.df, s.Rank()+d.dr; f >= 0 && f < 8 && r >= 0 && r < 8; f, r = f+d.df, r+d.dr {
			t := board.NewSquare(f, r)
			att |= board.SquareBB(t)
			if occ&board.SquareBB(t) != 0 {
				break
			}
		}
	}
	return att
}

// steps is the reference for leapers: the listed offsets that stay on the board.
func steps(s board.Square, offsets []direction) board.Bitboard {
	var att board.Bitboard
	for _, d := range offsets {
		if f, r := s.File()+d.df, s.Rank()+d.dr; f >= 0 && f < 8 && r >= 0 && r < 8 {
			att |= board.SquareBB(board.NewSquare(f, r))
		}
	}
	return att
}

// randomOccupancies returns occupancies of varied density, plus the
// empty and the full board.
func randomOccupancies(rng *rand.Rand, n int) []board.Bitboard {
	occs := []board.Bitboard{0, ^board.Bitboard(0)}
	for i := 0; i < n; i++ {
		var o uint64
		switch i % 4 {
		case 0:
			o = rng.Uint64() & rng.Uint64() & rng.Uint64() // sparse, like middlegames
		case 1:
			o = rng.Uint64() & rng.Uint64()
		case 2:
			o = rng.Uint64()
		default:
			o = rng.Uint64() | rng.Uint64() // dense
		}
		occs = append(occs, board.Bitboard(o))
	}
	return occs
}

func TestMagicAttacksMatchRayWalk(t *testing.T) {
	n := 3000
	if testing.Short() {
		n = 500
	}
	rng := rand.New(rand.NewPCG(42, 7))
	for s := board.Square(0); s < 64; s++ {
		for _, occ := range randomOccupancies(rng, n) {
			for _, o := range []board.Bitboard{occ, occ | board.SquareBB(s), occ &^ board.SquareBB(s)} {
				rook, bishop := rayWalk(s, o, orthogonal), rayWalk(s, o, diagonal)
				if got := movegen.RookAttacks(s, o); got != rook {
					t.Fatalf("RookAttacks(%s, %#x) = %#x, want %#x", s, uint64(o), uint64(got), uint64(rook))
				}
				if got := movegen.BishopAttacks(s, o); got != bishop {
					t.Fatalf("BishopAttacks(%s, %#x) = %#x, want %#x", s, uint64(o), uint64(got), uint64(bishop))
				}
				if got := movegen.QueenAttacks(s, o); got != rook|bishop {
					t.Fatalf("QueenAttacks(%s, %#x) = %#x, want %#x", s, uint64(o), uint64(got), uint64(rook|bishop))
				}
			}
		}
	}
}

// TestMagicAttacksEveryBlockerSubset checks, per square, every occupancy of
// the squares on the slider's rays within the board edges: the full set of
// inputs the magic lookup distinguishes.
func TestMagicAttacksEveryBlockerSubset(t *testing.T) {
	for s := board.Square(0); s < 64; s++ {
		for _, dirs := range [][]direction{orthogonal, diagonal} {
			mask := rayWalk(s, 0, dirs)
			lookup := movegen.RookAttacks
			if dirs[0] == diagonal[0] {
				lookup = movegen.BishopAttacks
			}
			// Enumerate subsets (Carry-Rippler) of the full rays, edges
			// included: up to 2^14 per rook square.
			for occ := board.Bitboard(0); ; {
				if got, want := lookup(s, occ), rayWalk(s, occ, dirs); got != want {
					t.Fatalf("square %s occupancy %#x: got %#x, want %#x", s, uint64(occ), uint64(got), uint64(want))
				}
				if occ = (occ - mask) & mask; occ == 0 {
					break
				}
			}
		}
	}
}

func TestLeaperAttacks(t *testing.T) {
	knight := []direction{{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}}
	king := []direction{{1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}, {-1, -1}, {0, -1}, {1, -1}}
	for s := board.Square(0); s < 64; s++ {
		assert.Equal(t, steps(s, knight), movegen.KnightAttacks(s), "knight %s", s)
		assert.Equal(t, steps(s, king), movegen.KingAttacks(s), "king %s", s)
		assert.Equal(t, steps(s, []direction{{-1, 1}, {1, 1}}), movegen.PawnAttacks(board.White, s), "white pawn %s", s)
		assert.Equal(t, steps(s, []direction{{-1, -1}, {1, -1}}), movegen.PawnAttacks(board.Black, s), "black pawn %s", s)
	}
	// Spot checks independent of the reference.
	assert.Equal(t, 2, movegen.KnightAttacks(board.A1).Count())
	assert.Equal(t, 8, movegen.KnightAttacks(sq("d4")).Count())
	assert.Equal(t, 3, movegen.KingAttacks(board.H8).Count())
	assert.Equal(t, board.SquareBB(sq("b3")), movegen.PawnAttacks(board.White, sq("a2")))
	assert.Equal(t, board.SquareBB(sq("g6")), movegen.PawnAttacks(board.Black, sq("h7")))
}

func TestBetweenAndLine(t *testing.T) {
	all := append(append([]direction{}, orthogonal...), diagonal...)
	for a := board.Square(0); a < 64; a++ {
		for b := board.Square(0); b < 64; b++ {
			var between, line board.Bitboard
			for _, d := range all {
				// Is b on the ray from a in direction d?
				var ray board.Bitboard
				hit := false
				for f, r := a.File()+d.df, a.Rank()+d.dr; f >= 0 && f < 8 && r >= 0 && r < 8; f, r = f+d.df, r+d.dr {
					if board.NewSquare(f, r) == b {
						hit = true
						break
					}
					ray |= board.SquareBB(board.NewSquare(f, r))
				}
				if hit {
					between = ray
					line = rayWalk(a, 0, []direction{d, {-d.df, -d.dr}}) | board.SquareBB(a)
				}
			}
			require.Equal(t, between, movegen.Between(a, b), "Between(%s, %s)", a, b)
			require.Equal(t, line, movegen.Line(a, b), "Line(%s, %s)", a, b)
		}
	}
	diag := board.Bitboard(0x8040201008040201)
	assert.Equal(t, diag&^board.SquareBB(board.A1)&^board.SquareBB(board.H8), movegen.Between(board.A1, board.H8))
	assert.Equal(t, diag, movegen.Line(sq("c3"), sq("d4")))
	assert.Zero(t, movegen.Between(board.A1, sq("b3")))
	assert.Zero(t, movegen.Line(board.A1, sq("b3")))
	assert.Zero(t, movegen.Between(sq("e4"), sq("e5")))
	assert.Equal(t, board.FileBB(4), movegen.Line(sq("e4"), sq("e5")))
}

func TestAttackQueries(t *testing.T) {
	p := mustFEN(t, kiwipete)
	occ := p.Occupied()
	// Exact attacker sets, computed by hand.
	got := movegen.AttackersTo(p, sq("d5"), occ)
	want := board.SquareBB(sq("e6")) | board.SquareBB(sq("b6")) | board.SquareBB(sq("f6")) |
		board.SquareBB(sq("c3")) | board.SquareBB(sq("e4"))
	assert.Equal(t, want, got, "attackers of d5")
	assert.True(t, movegen.Attacked(p, sq("d5"), board.Black, occ))
	assert.True(t, movegen.Attacked(p, sq("d5"), board.White, occ))
	// g4: the white f3 queen and e5 knight, the black f6 knight.
	assert.Equal(t, board.SquareBB(sq("f3"))|board.SquareBB(sq("e5"))|board.SquareBB(sq("f6")),
		movegen.AttackersTo(p, sq("g4"), occ))
	// Removing a blocker opens a ray: with e2 gone the a6 bishop sees f1.
	assert.False(t, movegen.Attacked(p, board.F1, board.Black, occ))
	assert.True(t, movegen.Attacked(p, board.F1, board.Black, occ&^board.SquareBB(sq("e2"))))
	assert.Zero(t, movegen.Checkers(p))
	assert.False(t, movegen.InCheck(p))

	q := mustFEN(t, "4r2k/8/8/8/8/3n4/8/3QK3 w - - 0 1")
	assert.Equal(t, board.SquareBB(sq("e8"))|board.SquareBB(sq("d3")), movegen.Checkers(q))
	assert.True(t, movegen.InCheck(q))
}
