package search

// Correction history: the static evaluation is wrong in ways that repeat
// for a pawn structure (a blocked chain the network overrates, a passer it
// underrates), and the search finds out by how much. Each thread keeps, per
// side to move and pawn structure, a running average of the search's score
// minus the raw evaluation at nodes where that difference means something,
// and adds it to the evaluation before pruning and stand pat use it. The
// transposition table keeps the raw evaluation, so a correction learnt
// later applies to positions stored earlier. Stockfish, Weiss and Berserk
// do the same; the weakened levels (Strength) play without it, as they were
// calibrated.

import (
	"github.com/twofold-chess/twofold/board"
)

const (
	corrBits  = 14
	corrGrain = 256            // corrections are kept in 1/256 centipawn
	corrScale = 256            // an update's weight is out of this
	corrMax   = 64 * corrGrain // no correction exceeds 64 centipawns
	corrDepth = 16             // an update of this depth or more has full weight
)

// corrHistory is one thread's table: [side to move][pawn structure].
type corrHistory [2][1 << corrBits]int32

// pawnIndex hashes the two sides' pawns to a table index. The position's
// own key covers every piece, so it is computed here from the pawn
// bitboards: two multiplications (mathx.SplitMix64 of each would be four),
// cheaper than keeping a pawn key up to date in every Make.
func pawnIndex(p *board.Position) uint32 {
	w := uint64(p.Pieces(board.White, board.Pawn))
	b := uint64(p.Pieces(board.Black, board.Pawn))
	h := w*0x9e3779b97f4a7c15 ^ (b^0x632be59bd9b4e019)*0xc2b2ae3d27d4eb4f
	return uint32(h >> (64 - corrBits))
}

// corrected is raw with the thread's correction for this pawn structure,
// kept inside the non-decisive range.
func (t *thread) corrected(raw int) int {
	if !t.correcting {
		return raw
	}
	p := t.pos
	v := raw + int(t.corr[p.Side()][pawnIndex(p)])/corrGrain
	return min(max(v, -TBWinBound+1), TBWinBound-1)
}

// updateCorrection moves this position's correction towards score - raw,
// the more the deeper the search that found score. The caller has checked
// that the score says something about the evaluation: not in check, no
// capture or promotion as the best move, and a bound on the right side of
// the evaluation.
func (t *thread) updateCorrection(raw, score, depth int) {
	if !t.correcting || isDecisive(score) {
		return
	}
	p := t.pos
	e := &t.corr[p.Side()][pawnIndex(p)]
	w := int32(min(depth+1, corrDepth))
	target := int32(min(max((score-raw)*corrGrain, -corrMax), corrMax))
	*e = (*e*(corrScale-w) + target*w) / corrScale
}
