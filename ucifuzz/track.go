package ucifuzz

import (
	"errors"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/twofold-chess/twofold/board"
	"github.com/twofold-chess/twofold/movegen"
)

// Tracker follows the position the engine should hold after each line it
// was sent, so a bestmove can be judged in the position its "go" searched.
// It reads lines as the engine's UCI loop does (strings.Fields, a malformed
// FEN or an illegal move leaves the previous position) and uses the
// repository's own board and movegen, so the referee and the engine agree
// on the rules by construction and disagree only where the UCI layer is
// wrong.
type Tracker struct {
	pos      *board.Position
	chess960 bool
	// known is false after a line whose effect the fuzzer cannot predict (a
	// line over the engine's input limit may be dropped or cut); bestmoves
	// are then not judged until a position or ucinewgame fixes it again.
	known bool
}

// NewTracker starts at the start position, as a fresh engine does.
func NewTracker() *Tracker {
	return &Tracker{pos: board.StartPosition(), known: true}
}

// Position returns a copy of the tracked position and whether it is known.
func (t *Tracker) Position() (*board.Position, bool) {
	return t.pos.Clone(), t.known
}

// Forget marks the position unknown (see known).
func (t *Tracker) Forget() { t.known = false }

// Apply updates the tracked position for one line sent to the engine.
func (t *Tracker) Apply(line string) {
	fields := strings.Fields(line)
	if len(fields) == 0 {
		return
	}
	switch fields[0] {
	case "ucinewgame":
		t.pos, t.known = board.StartPosition(), true
		t.pos.SetChess960(t.chess960)
	case "position":
		if p := ParsePosition(fields[1:], t.chess960); p != nil {
			t.pos, t.known = p, true
		}
	case "setoption":
		if name, value, ok := SplitSetOption(fields[1:]); ok && strings.EqualFold(name, "UCI_Chess960") {
			switch strings.ToLower(value) {
			case "true", "false":
				t.chess960 = strings.ToLower(value) == "true"
				t.pos.SetChess960(t.chess960)
			}
		}
	}
}

// ParsePosition reads the arguments of "position" as the engine does and
// returns nil where the engine keeps its previous position.
func ParsePosition(args []string, chess960 bool) *board.Position {
	if len(args) == 0 {
		return nil
	}
	movesAt := len(args)
	for i, a := range args {
		if a == "moves" {
			movesAt = i
			break
		}
	}
	var p *board.Position
	switch args[0] {
	case "startpos":
		if movesAt != 1 {
			return nil
		}
		p = board.StartPosition()
	case "fen":
		var err error
		if p, err = movegen.ParseFEN(strings.Join(args[1:movesAt], " ")); err != nil {
			return nil
		}
	default:
		return nil
	}
	p.SetChess960(chess960)
	if movesAt < len(args) {
		for _, s := range args[movesAt+1:] {
			m, err := movegen.ParseUCI(p, s)
			if err != nil {
				return nil
			}
			p.Make(m)
		}
	}
	return p
}

// SplitSetOption splits "name <name> [value <value>]" the way the engine
// does: names and values may hold spaces, the first "value" token divides.
func SplitSetOption(args []string) (name, value string, ok bool) {
	if len(args) < 2 || args[0] != "name" {
		return "", "", false
	}
	name = strings.Join(args[1:], " ")
	for i, a := range args {
		if a == "value" {
			return strings.Join(args[1:i], " "), strings.Join(args[i+1:], " "), true
		}
	}
	return name, "", true
}

// GoSpec is what the fuzzer expects of one "go" line.
type GoSpec struct {
	Perft    bool // "go perft": answered inline, no bestmove
	Infinite bool // "infinite": ends only on stop
	Ponder   bool // "ponder": ends on stop, or becomes a normal search on ponderhit
	// Bound is how long the search may take at most by its own limits
	// (movetime, the mover's clock, a node budget); 0 means unbounded: the
	// fuzzer stops it itself.
	Bound time.Duration
	// SearchMoves are the legal moves named by searchmoves; nil means every
	// legal move may be played.
	SearchMoves []board.Move
}

// Budgets the fuzzer assumes for node-limited searches. They are far below
// the real speeds, so a slow CPU is not mistaken for a hang.
const (
	alphaBetaNodesPerSecond = 100_000
	mctsPlayoutsPerSecond   = 200
	// nodesBoundMax is the largest node count that still counts as a bound;
	// larger ones are absurd numbers and the fuzzer stops the search itself.
	nodesBoundMax = 200_000
	// clockBoundMax: a clock above this is not waited for.
	clockBoundMax = 10 * time.Second
)

// ParseGo reads a "go" line's arguments as the engine's parser does
// (invalid numbers are skipped, searchmoves runs to the next keyword) and
// says when the search must end by itself. mcts selects the playout budget
// for node limits.
func ParseGo(p *board.Position, args []string, mcts bool) GoSpec {
	var g GoSpec
	if len(args) >= 1 && args[0] == "perft" {
		g.Perft = true
		return g
	}
	var moveTime, clock time.Duration
	var nodes int64
	haveMoveTime, haveClock, haveNodes := false, false, false
	mover := "wtime"
	if p.Side() == board.Black {
		mover = "btime"
	}
	var moves []board.Move
	sawSearchMoves := false
	for i := 0; i < len(args); i++ {
		switch args[i] {
		case "infinite":
			g.Infinite = true
		case "ponder":
			g.Ponder = true
		case "wtime", "btime", "winc", "binc", "movestogo", "depth", "nodes", "mate", "movetime":
			key := args[i]
			if i+1 >= len(args) {
				continue
			}
			i++
			n, err := strconv.ParseInt(args[i], 10, 64)
			if err != nil && !errors.Is(err, strconv.ErrRange) {
				continue // out of range saturates, as in the engine
			}
			switch key {
			case "movetime":
				moveTime, haveMoveTime = msDuration(max(n, 1)), true
			case "nodes":
				nodes, haveNodes = max(n, 1), true
			case mover:
				clock, haveClock = msDuration(max(n, 0)), true
			}
		case "searchmoves":
			sawSearchMoves = true
			for i+1 < len(args) && !isGoKeyword(args[i+1]) {
				i++
				if m, err := movegen.ParseUCI(p, args[i]); err == nil {
					moves = append(moves, m)
				}
			}
		}
	}
	if sawSearchMoves && len(moves) > 0 {
		g.SearchMoves = moves
	}
	g.Bound = limitBound(moveTime, haveMoveTime, clock, haveClock, nodes, haveNodes, mcts)
	return g
}

// limitBound is the smallest of the limits that guarantee an end.
func limitBound(moveTime time.Duration, haveMoveTime bool, clock time.Duration, haveClock bool, nodes int64, haveNodes bool, mcts bool) time.Duration {
	var bound time.Duration
	take := func(d time.Duration) {
		if bound == 0 || d < bound {
			bound = d
		}
	}
	if haveMoveTime && moveTime <= clockBoundMax {
		take(max(moveTime, time.Millisecond))
	}
	if haveClock && clock <= clockBoundMax {
		take(max(clock, time.Millisecond))
	}
	if haveNodes && nodes <= nodesBoundMax {
		rate := int64(alphaBetaNodesPerSecond)
		if mcts {
			rate = mctsPlayoutsPerSecond
		}
		take(time.Duration(nodes)*time.Second/time.Duration(rate) + time.Millisecond)
	}
	return bound
}

// msDuration converts milliseconds, saturating where time.Duration would
// overflow (such values are never bounds anyway).
func msDuration(n int64) time.Duration {
	if n > int64(time.Hour/time.Millisecond) {
		return time.Hour
	}
	return time.Duration(n) * time.Millisecond
}

// OpenEnded reports that the search ends only when the fuzzer stops it.
func (g GoSpec) OpenEnded() bool { return g.Infinite || g.Ponder || g.Bound == 0 }

// OpenEndedAfterPonderHit is OpenEnded once a ponderhit has been sent.
func (g GoSpec) OpenEndedAfterPonderHit() bool { return g.Infinite || g.Bound == 0 }

func isGoKeyword(s string) bool {
	switch s {
	case "searchmoves", "ponder", "wtime", "btime", "winc", "binc", "movestogo", "depth",
		"nodes", "mate", "movetime", "infinite", "perft":
		return true
	}
	return false
}

// CheckBestMove judges a "bestmove" line in the position its "go" searched.
// It returns "" when the move is right, else the failure class and a
// description.
func CheckBestMove(p *board.Position, g GoSpec, line string) (class, detail string) {
	fields := strings.Fields(line)
	if len(fields) < 2 {
		return ClassIllegalMove, "bestmove without a move"
	}
	var ml movegen.MoveList
	movegen.Legal(p, &ml)
	best := fields[1]
	if best == "0000" {
		if ml.Len() == 0 {
			return "", ""
		}
		return ClassIllegalMove, "bestmove 0000 with " + strconv.Itoa(ml.Len()) + " legal moves in " + p.FEN()
	}
	if ml.Len() == 0 {
		return ClassIllegalMove, "bestmove " + best + " in a position without legal moves: " + p.FEN()
	}
	m, err := movegen.ParseUCI(p, best)
	if err != nil {
		return ClassIllegalMove, "bestmove " + best + " is illegal in " + p.FEN()
	}
	if g.SearchMoves != nil && !slices.Contains(g.SearchMoves, m) {
		return ClassSearchMoves, "bestmove " + best + " is not among searchmoves in " + p.FEN()
	}
	if len(fields) >= 4 && fields[2] == "ponder" {
		after := p.Clone()
		after.Make(m)
		if _, err := movegen.ParseUCI(after, fields[3]); err != nil {
			return ClassIllegalPonder, "ponder move " + fields[3] + " is illegal after " + best + " in " + p.FEN()
		}
	}
	return "", ""
}
