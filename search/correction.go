package search

import (
	"math/bits"

	"github.com/twofold-chess/twofold/board"
)

// Correction history: the static evaluation is systematically wrong in some
// kinds of position (a pawn structure it misjudges, a material balance it
// over- or under-rates). Each node whose search result is reliable records
// the error left after correction (search result minus corrected
// evaluation), keyed by the pawn structure and by the material signature;
// later evaluations of positions with the same keys are moved by the sum of
// the two entries. Both learn from the residual error, so together they
// converge on the error instead of each counting it once. Pruning decisions
// that compare the static evaluation with alpha or beta become sharper.
const (
	corrSize  = 1 << 14 // entries per side and table
	corrGrain = 16      // stored values are centipawns times corrGrain
)

type corrTable [2][corrSize]int32

// corrKeys returns the two table indices of the position.
func corrKeys(p *board.Position) (pawn, material uint32) {
	wp := uint64(p.Pieces(board.White, board.Pawn))
	bp := uint64(p.Pieces(board.Black, board.Pawn))
	pawn = uint32(mix64(wp*0x9E3779B97F4A7C15^bits.RotateLeft64(bp, 32)*0xC2B2AE3D27D4EB4F)) & (corrSize - 1)
	var sig uint64
	for c := board.White; c <= board.Black; c++ {
		for pt := board.Pawn; pt <= board.Queen; pt++ {
			sig = sig<<4 | uint64(min(p.Pieces(c, pt).Count(), 15))
		}
	}
	material = uint32(mix64(sig)) & (corrSize - 1)
	return pawn, material
}

// mix64 is a 64-bit finaliser (splitmix64's), spreading every input bit.
func mix64(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xBF58476D1CE4E5B9
	x ^= x >> 27
	x *= 0x94D049BB133111EB
	return x ^ x>>31
}

// correctedEval returns the raw static evaluation moved by the histories.
func (t *thread) correctedEval(raw int) int {
	pawn, material := corrKeys(t.pos)
	us := t.pos.Side()
	c := (t.pawnCorr[us][pawn] + t.materialCorr[us][material]) / corrGrain
	return min(max(raw+int(c), -MateBound+1), MateBound-1)
}

// updateCorrection moves both entries of the position by the error its
// search result left after correction, more for deeper results; history
// gravity keeps each entry within tp.corrLimitCP centipawns.
func (t *thread) updateCorrection(corrected, score, depth int) {
	pawn, material := corrKeys(t.pos)
	us := t.pos.Side()
	limit := int32(tp.corrLimitCP) * corrGrain
	bonus := min(max(int32((score-corrected)*corrGrain*depth/8), -limit/4), limit/4)
	for _, e := range [...]*int32{&t.pawnCorr[us][pawn], &t.materialCorr[us][material]} {
		*e += bonus - *e*abs32(bonus)/limit
	}
}

func abs32(x int32) int32 {
	if x < 0 {
		return -x
	}
	return x
}
