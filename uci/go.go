package uci

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/twofold-chess/twofold/board"
	"github.com/twofold-chess/twofold/mind"
	"github.com/twofold-chess/twofold/movegen"
	"github.com/twofold-chess/twofold/perft"
	"github.com/twofold-chess/twofold/search"
)

// goCommand parses "go ..." and starts the search in its own goroutine, so
// the input loop keeps answering "isready", "stop" and "ponderhit".
func (e *Engine) goCommand(args []string) {
	if len(args) >= 1 && args[0] == "perft" {
		e.goPerft(args[1:])
		return
	}
	lim, err := parseGo(e.pos, args)
	if err != nil {
		e.send("info string go: %v", err)
	}
	if e.playBookMove(lim) {
		return
	}
	pos := e.pos.Clone()
	e.noteMCTSFallback()
	m := e.searcher()
	m.SetShared(e.shared)
	e.active = m
	e.busy, e.endsByItself = true, endsByItself(lim, pos.Side())
	e.searching.Add(1)
	// Go sets the search up before it returns, so a "stop" or "ponderhit"
	// read right after this "go" reaches the search instead of being lost.
	m.Go(pos, lim, func(info mind.Info) { e.sendInfo(pos, info) }, func(res mind.Result) {
		defer e.searching.Done()
		if res.Err != nil {
			e.send("info string %v", res.Err)
		}
		e.sendBestMove(pos, res.Best, res.Ponder)
	})
}

// searcher is the searcher "go" runs: MCTS when it is chosen and loaded,
// else AlphaBeta.
func (e *Engine) searcher() mind.Searcher {
	if e.mcts.searcher != nil {
		return e.mcts.searcher
	}
	return e.alphaBeta
}

// endsByItself reports whether a search with these limits ends without a
// stop: not infinite or pondering, and limited by depth, nodes, time or clock.
func endsByItself(lim search.Limits, side board.Color) bool {
	return !lim.Infinite && !lim.Ponder &&
		(lim.Depth > 0 || lim.Nodes > 0 || lim.MoveTime > 0 || lim.Time[side] > 0)
}

// sendBestMove writes the "bestmove" line ("0000" when there is no move).
func (e *Engine) sendBestMove(pos *board.Position, best, ponder board.Move) {
	switch {
	case best == board.NoMove:
		e.send("bestmove 0000")
	case ponder != board.NoMove:
		e.send("bestmove %s ponder %s", best.UCI(pos.Chess960()), ponder.UCI(pos.Chess960()))
	default:
		e.send("bestmove %s", best.UCI(pos.Chess960()))
	}
}

// maxProblems is how many problems of one "go" line are listed.
const maxProblems = 5

// parseGo reads the parameters of "go". Malformed parts are reported in the
// error but skipped, so the search still runs (a GUI always gets a bestmove).
func parseGo(p *board.Position, args []string) (search.Limits, error) {
	var lim search.Limits
	var problems []string
	number := func(i int) (int64, bool) {
		if i+1 >= len(args) {
			problems = append(problems, fmt.Sprintf("%s needs a value", args[i]))
			return 0, false
		}
		n, err := strconv.ParseInt(args[i+1], 10, 64)
		if errors.Is(err, strconv.ErrRange) {
			err = nil // n is already saturated at the int64 bound
		}
		if err != nil {
			problems = append(problems, fmt.Sprintf("%s: %q is not a whole number", args[i], clip(args[i+1], 40)))
		}
		return n, err == nil
	}
	// Times saturate instead of wrapping: 9223372036855 ms used to overflow
	// into a negative duration (no limit) or a few milliseconds.
	ms := func(n int64) time.Duration {
		if n > math.MaxInt64/int64(time.Millisecond) {
			return math.MaxInt64
		}
		return time.Duration(max(n, 0)) * time.Millisecond
	}
	// A clock at or below zero (a flag about to fall, a GUI's rounding) means
	// "move now": the smallest clock there is, as 0 itself reads as no clock.
	clock := func(n int64) time.Duration {
		if n <= 0 {
			return time.Nanosecond
		}
		return ms(n)
	}
	for i := 0; i < len(args); i++ {
		switch args[i] {
		case "infinite":
			lim.Infinite = true
		case "ponder":
			lim.Ponder = true
		case "wtime", "btime", "winc", "binc", "movestogo", "depth", "nodes", "mate", "movetime":
			n, ok := number(i)
			i++
			if !ok {
				continue
			}
			switch args[i-1] {
			case "wtime":
				lim.Time[board.White] = clock(n)
			case "btime":
				lim.Time[board.Black] = clock(n)
			case "winc":
				lim.Inc[board.White] = ms(n)
			case "binc":
				lim.Inc[board.Black] = ms(n)
			case "movestogo":
				lim.MovesToGo = int(min(max(n, 0), math.MaxInt32))
			case "depth":
				lim.Depth = int(min(max(n, 1), math.MaxInt32))
			case "nodes":
				lim.Nodes = uint64(max(n, 1))
			case "mate":
				lim.Mate = int(min(max(n, 1), math.MaxInt32))
			case "movetime":
				lim.MoveTime = ms(max(n, 1))
			}
		case "searchmoves":
			for i+1 < len(args) && !isGoKeyword(args[i+1]) {
				i++
				m, err := movegen.ParseUCI(p, args[i])
				if err != nil {
					problems = append(problems, fmt.Sprintf("searchmoves: %v", err))
					continue
				}
				lim.Moves = append(lim.Moves, m)
			}
		default:
			problems = append(problems, fmt.Sprintf("unknown parameter %q", args[i]))
		}
	}
	if len(problems) > maxProblems { // a megabyte of bad moves is one message, not thousands
		problems = append(problems[:maxProblems], fmt.Sprintf("and %d more", len(problems)-maxProblems))
	}
	if len(problems) > 0 {
		return lim, fmt.Errorf("%s (ignored)", strings.Join(problems, "; "))
	}
	return lim, nil
}

func isGoKeyword(s string) bool {
	switch s {
	case "searchmoves", "ponder", "wtime", "btime", "winc", "binc", "movestogo", "depth",
		"nodes", "mate", "movetime", "infinite", "perft":
		return true
	}
	return false
}

// goPerft answers "go perft N" as Stockfish does.
func (e *Engine) goPerft(args []string) {
	if len(args) != 1 {
		e.send("info string go perft: want 'go perft <depth>'")
		return
	}
	depth, err := strconv.Atoi(args[0])
	if err != nil || depth < 1 || depth > 20 {
		e.send("info string go perft: depth must be a whole number from 1 to 20, got %q", args[0])
		return
	}
	pos := e.pos.Clone()
	e.background(func(ctx context.Context, stop *atomic.Bool) {
		if total, complete := perft.WriteDivide(e.lines(), pos, depth, stop); !complete {
			e.send("info string go perft: stopped after %d nodes", total)
		} else {
			e.send("")
		}
	})
}

// sendInfo formats a search report as an "info" line, whichever searcher made
// it: Stockfish's fields, with hashfull only from a searcher that has a hash
// table (Lc0 reports none for its tree either) and tbhits always.
func (e *Engine) sendInfo(pos *board.Position, info mind.Info) {
	if info.CurrMove != board.NoMove {
		e.send("info depth %d currmove %s currmovenumber %d", info.Depth, info.CurrMove.UCI(pos.Chess960()), info.CurrMoveNumber)
		return
	}
	var b strings.Builder
	fmt.Fprintf(&b, "info depth %d seldepth %d multipv %d score %s", info.Depth, info.SelDepth, info.MultiPV, scoreString(info.Score))
	switch info.Score.Bound {
	case mind.Lower:
		b.WriteString(" lowerbound")
	case mind.Upper:
		b.WriteString(" upperbound")
	}
	if e.showWDL {
		w, d, l := wdl(info.Score)
		fmt.Fprintf(&b, " wdl %d %d %d", w, d, l)
	}
	fmt.Fprintf(&b, " nodes %d nps %d", info.Nodes, info.NPS())
	if info.HashFull >= 0 {
		fmt.Fprintf(&b, " hashfull %d", info.HashFull)
	}
	fmt.Fprintf(&b, " tbhits %d time %d pv", info.TBHits, info.Time.Milliseconds())
	for _, m := range info.PV {
		b.WriteByte(' ')
		b.WriteString(m.UCI(pos.Chess960()))
	}
	e.send("%s", b.String())
}

func scoreString(s mind.Score) string {
	if s.Mate {
		return fmt.Sprintf("mate %d", s.Value)
	}
	return fmt.Sprintf("cp %d", s.Value)
}

// wdl turns a score into win/draw/loss permille with a logistic model:
// P(win) = 1/(1+exp((a-x)/b)), P(loss) = 1/(1+exp((a+x)/b)). The constants
// are a rough fit (a 100 cp edge wins about a quarter of games), not a
// measured one.
func wdl(s mind.Score) (w, d, l int) {
	if s.Mate {
		if s.Value > 0 {
			return 1000, 0, 0
		}
		return 0, 0, 1000
	}
	const a, b = 200.0, 90.0
	x := float64(s.Value)
	w = int(math.Round(1000 / (1 + math.Exp((a-x)/b))))
	l = int(math.Round(1000 / (1 + math.Exp((a+x)/b))))
	return w, 1000 - w - l, l
}
