package search

import "github.com/twofold-chess/twofold/timeman"

// Score bounds. Mate scores count plies: MateScore - n is mate in n plies.
const (
	Infinity  = 32000
	MateScore = 31000
	// MateBound separates mate scores from ordinary ones.
	MateBound = MateScore - MaxPly
	// MaxPly bounds the search depth and the tree's height.
	MaxPly = 128
)

// IsMate reports whether a score announces a forced mate (for either side).
func IsMate(score int) bool { return score >= MateBound || score <= -MateBound }

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
