package search

import (
	"time"

	"github.com/twofold-chess/twofold/board"
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

// Info is a progress report of the main thread, sent after each completed
// iteration (and each MultiPV line), or when a root move starts (CurrMove).
type Info struct {
	Depth, SelDepth int
	MultiPV         int // 1-based line number
	Score           int // centipawns or a mate score (see IsMate)
	Bound           Bound
	Nodes           uint64
	Time            time.Duration
	HashFull        int // permille
	PV              []board.Move
	// CurrMove/CurrMoveNumber are set (and the rest left zero but Depth)
	// for "currmove" reports during long searches.
	CurrMove       board.Move
	CurrMoveNumber int
}

// NPS returns the nodes per second of the report.
func (i Info) NPS() uint64 { return timeman.NPS(i.Nodes, i.Time) }

// Result is the outcome of a search.
type Result struct {
	Best, Ponder board.Move // NoMove when the side to move has no legal move
	Score        int
	Depth        int
	Nodes        uint64
}
