package search

import (
	"github.com/twofold-chess/twofold/syzygy"
	"github.com/twofold-chess/twofold/timeman"
)

// Score bounds. Mate scores count plies: MateScore - n is mate in n plies.
const (
	Infinity  = 32000
	MateScore = 31000
	// MateBound separates mate scores from ordinary ones.
	MateBound = MateScore - MaxPly
	// MaxPly bounds the search depth and the tree's height.
	MaxPly = 128
	// TBWin is the score of a tablebase win at the root; TBWin - n is a
	// position n plies down the tree that the tables say is won. The band
	// from TBWinBound to TBWin lies just below the mate scores (Stockfish's
	// VALUE_TB_WIN_IN_MAX_PLY): above every evaluation, below every mate.
	TBWin      = MateBound - 1
	TBWinBound = TBWin - MaxPly
	// TBCentipawns is how a tablebase win at the root is reported: cp
	// 20000, less a centipawn a ply for one further down (as Stockfish).
	TBCentipawns = syzygy.WinCentipawns
)

// IsMate reports whether a score announces a forced mate (for either side).
func IsMate(score int) bool { return score >= MateBound || score <= -MateBound }

// isDecisive reports whether a score is a mate or a tablebase win or loss.
func isDecisive(score int) bool { return score >= TBWinBound || score <= -TBWinBound }

// MateIn returns the moves to mate as UCI counts them: positive when the
// side to move mates, negative when it is mated. Only for IsMate scores.
func MateIn(score int) int {
	if score > 0 {
		return (MateScore - score + 1) / 2
	}
	return -(MateScore + score) / 2
}

// Limits say when a search must stop; see timeman.Limits.
type Limits = timeman.Limits
