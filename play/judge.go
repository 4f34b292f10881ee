package play

import (
	"math"

	"github.com/twofold-chess/twofold/mind"
)

// How a review judges a move, in Lichess's published formulas (lila's
// WinPercent and AccuracyPercent): a score becomes a win
// percentage for the side it belongs to, a move is judged by how much the
// mover's win percentage drops from the position before it (searched) to
// the position after it (searched), and the drop gives the move's
// accuracy. See docs/play.md.

// Centipawn scores are capped at this for the win percentage, and a mate
// counts as this, as Lichess does.
const winCapCP = 1000

// The classes of a move, and the drops in win percentage from which a
// move is an inaccuracy, a mistake or a blunder.
const (
	ClassBest       = "best"       // the move the mind would play
	ClassGood       = "good"       // another move, dropping less than 10
	ClassInaccuracy = "inaccuracy" // a drop of 10 or more
	ClassMistake    = "mistake"    // 20 or more
	ClassBlunder    = "blunder"    // 30 or more

	dropInaccuracy = 10.0
	dropMistake    = 20.0
	dropBlunder    = 30.0
)

// Classes lists the classes from best to worst.
var Classes = []string{ClassBest, ClassGood, ClassInaccuracy, ClassMistake, ClassBlunder}

// WinPercent is the chance of winning, 0 to 100, that Lichess gives a
// centipawn score: 50 + 50 * (2 / (1 + exp(-0.00368208 * cp)) - 1), with
// cp capped at ±1000.
func WinPercent(cp int) float64 {
	cp = min(max(cp, -winCapCP), winCapCP)
	return 50 + 50*(2/(1+math.Exp(-0.00368208*float64(cp)))-1)
}

// scoreCP is a score in centipawns for the win percentage: a mate is
// ±winCapCP (mated now, Value 0, is a loss).
func scoreCP(s mind.Score) int {
	if !s.Mate {
		return s.Value
	}
	if s.Value > 0 {
		return winCapCP
	}
	return -winCapCP
}

// MoveAccuracy is a move's accuracy, 0 to 100, from the mover's win
// percentage before and after it: 103.1668 * exp(-0.04354 * drop) -
// 3.1669, and 100 when nothing was lost.
func MoveAccuracy(winBefore, winAfter float64) float64 {
	if winAfter >= winBefore {
		return 100
	}
	a := 103.1668*math.Exp(-0.04354*(winBefore-winAfter)) - 3.1669
	return min(max(a, 0), 100)
}

// Classify names a move from the drop in the mover's win percentage; best
// says whether the mind's own choice was played.
func Classify(drop float64, best bool) string {
	switch {
	case best:
		return ClassBest
	case drop >= dropBlunder:
		return ClassBlunder
	case drop >= dropMistake:
		return ClassMistake
	case drop >= dropInaccuracy:
		return ClassInaccuracy
	}
	return ClassGood
}

// classNAG is the PGN glyph of a class: ?! for an inaccuracy (as Lichess
// writes it), ? for a mistake, ?? for a blunder; 0 for the rest.
func classNAG(class string) int {
	switch class {
	case ClassInaccuracy:
		return 6
	case ClassMistake:
		return 2
	case ClassBlunder:
		return 4
	}
	return 0
}
