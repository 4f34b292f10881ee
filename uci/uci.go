package uci

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/twofold-chess/twofold/azero"
	"github.com/twofold-chess/twofold/bench"
	"github.com/twofold-chess/twofold/board"
	"github.com/twofold-chess/twofold/eval"
	"github.com/twofold-chess/twofold/mind"
	"github.com/twofold-chess/twofold/movegen"
	"github.com/twofold-chess/twofold/search"
)

// Version is reported in "id name"; release builds set it with
// -ldflags "-X github.com/twofold-chess/twofold/uci.Version=...".
var Version = "dev"

// Engine is the state behind one UCI session.
type Engine struct {
	outMu sync.Mutex // serialises writes so lines never interleave
	out   *bufio.Writer

	pos     *board.Position
	options []*option
	// alphaBeta is the classical searcher; mcts holds the other. Each "go"
	// drives one of them through mind.Searcher (see goCommand).
	alphaBeta mind.Searcher
	// classical is AlphaBeta's own options (hash, strength, network); each
	// change reaches the searcher at once.
	classical *search.Settings
	// shared collects the options both searchers take; they reach the
	// searcher at the next "go".
	shared   mind.Shared
	chess960 bool
	showWDL  bool

	mcts mctsState
	book bookState
	// active is the searcher of the running "go" (stop and ponderhit go there).
	active interface {
		Stop()
		PonderHit()
	}

	searching    sync.WaitGroup // the running search, if any
	busy         bool           // a search was started and not yet waited for
	endsByItself bool           // the running command has a limit (the end of input waits for it)
}

// New returns an engine that writes its answers to out, set to the start position.
func New(out io.Writer) *Engine {
	e := &Engine{out: bufio.NewWriter(out), pos: board.StartPosition()}
	ab := search.New(16, search.Options{})
	e.alphaBeta, e.classical = ab, search.NewSettings(ab, func(msg string) { e.send("info string %s", msg) })
	e.active = e.alphaBeta
	e.mcts.settings, e.mcts.load = azero.NewSettings(), loadONNX
	e.options = e.optionList()
	for _, o := range e.options {
		if o.Kind != mind.Button {
			if err := o.Set(o.Default); err != nil {
				panic(err) // the defaults are valid
			}
		}
	}
	return e
}

// Input bounds: a line up to maxLine bytes is read whole (a "position ...
// moves" line of the longest legal game is far shorter); a longer one is
// read through and skipped with a message, so no line can end the loop or
// grow memory without bound. Messages quote at most maxMessage bytes of it.
const (
	maxLine    = 4 << 20
	maxMessage = 1000
)

// Run reads commands line by line until "quit" or the end of input, then
// stops any search (its bestmove is still written) and returns.
func (e *Engine) Run(in io.Reader) error {
	r := bufio.NewReaderSize(in, 64*1024)
	defer e.stopSearch()
	for {
		line, skipped, err := readLine(r)
		if skipped > 0 {
			e.send("info string line of %d bytes skipped: lines may be at most %d bytes", skipped, maxLine)
		} else if (err == nil || line != "") && !e.Execute(line) {
			return nil
		}
		if err == io.EOF {
			// "echo 'go depth 12' | engine" wants its answer: what ends by
			// itself (a limited search, perft, bench) runs to its end; an
			// infinite or ponder search is stopped (and quit stops all).
			if e.busy && e.endsByItself {
				e.searching.Wait()
				e.busy = false
			}
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// readLine reads one line without its end. A line over maxLine is consumed
// and dropped: skipped is then its length.
func readLine(r *bufio.Reader) (line string, skipped int, err error) {
	var buf []byte
	n := 0
	for {
		chunk, err := r.ReadSlice('\n')
		n += len(chunk)
		if n <= maxLine+1 { // +1: the newline
			buf = append(buf, chunk...)
		} else {
			buf = nil
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if n > maxLine+1 || (n == maxLine+1 && err != nil) {
			return "", n, err
		}
		return strings.TrimRight(string(buf), "\r\n"), 0, err
	}
}

// Execute runs one command line and reports whether the session goes on
// (false after "quit"). A panic while handling a command is reported as an
// info string instead of ending the session.
func (e *Engine) Execute(line string) (goOn bool) {
	defer func() {
		if r := recover(); r != nil {
			e.send("info string internal error on %q: %v", clip(line, 200), r)
			goOn = true
		}
	}()
	fields := strings.Fields(line)
	if len(fields) == 0 {
		return true
	}
	cmd, args := fields[0], fields[1:]
	switch cmd {
	case "uci":
		e.send("id name Twofold %s", Version)
		e.send("id author the Twofold developers")
		e.send("")
		for _, o := range e.options {
			e.send("%s", o.declaration())
		}
		e.send("uciok")
	case "isready":
		e.send("readyok") // answered at once, also while searching
	case "debug", "register":
		// Accepted and ignored, as the protocol allows.
	case "ucinewgame":
		e.stopSearch()
		e.alphaBeta.Clear()
		if e.mcts.searcher != nil {
			e.mcts.searcher.Clear()
		}
		e.setPosition(board.StartPosition())
	case "position":
		e.stopSearch()
		e.position(args)
	case "setoption":
		e.stopSearch()
		e.setOption(args)
	case "go":
		e.stopSearch()
		e.goCommand(args)
	case "stop":
		e.active.Stop()
	case "ponderhit":
		e.active.PonderHit()
	case "d":
		e.display()
	case "eval":
		e.send("%s\n%s", eval.Breakdown(e.pos), e.nnueEval(e.pos))
	case "bench":
		e.stopSearch()
		e.bench(args)
	case "quit":
		return false
	default:
		e.send("info string unknown command %q; supported: uci, isready, ucinewgame, position, setoption, go, stop, ponderhit, d, eval, bench, quit", cmd)
	}
	return true
}

// send writes one line and flushes it, so a GUI on a pipe sees it at once.
// An "info string" is cut to maxMessage bytes: messages quote the input,
// and a megabyte of bad moves must not come back as 22 MB of complaint.
func (e *Engine) send(format string, args ...any) {
	line := fmt.Sprintf(format, args...)
	if len(line) > maxMessage && strings.HasPrefix(line, "info string ") {
		line = clip(line, maxMessage)
	}
	e.outMu.Lock()
	defer e.outMu.Unlock()
	e.out.WriteString(line)
	e.out.WriteByte('\n')
	e.out.Flush()
}

// clip cuts s to about n bytes, on a rune boundary, saying how much it cut.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return fmt.Sprintf("%s... (%d more bytes)", s[:cut], len(s)-cut)
}

// stopSearch stops a running search and waits for its bestmove to be written.
func (e *Engine) stopSearch() {
	if e.busy {
		e.active.Stop()
		e.searching.Wait()
		e.busy = false
	}
}

func (e *Engine) setPosition(p *board.Position) {
	p.SetChess960(e.chess960)
	e.pos = p
}

// position handles "position startpos|fen <FEN> [moves m1 m2 ...]". Any error
// leaves the previous position in place.
func (e *Engine) position(args []string) {
	if len(args) == 0 {
		e.send("info string position: want 'startpos' or 'fen <FEN>', optionally followed by 'moves ...'")
		return
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
			e.send("info string position: unexpected %q after startpos", args[1])
			return
		}
		p = board.StartPosition()
	case "fen":
		var err error
		if p, err = movegen.ParseFEN(strings.Join(args[1:movesAt], " ")); err != nil {
			e.send("info string position: %v; position unchanged", err)
			return
		}
	default:
		e.send("info string position: want 'startpos' or 'fen <FEN>', got %q", args[0])
		return
	}
	p.SetChess960(e.chess960)
	if movesAt < len(args) {
		for _, s := range args[movesAt+1:] {
			m, err := movegen.ParseUCI(p, s)
			if err != nil {
				e.send("info string position: %v; position unchanged", err)
				return
			}
			p.Make(m)
		}
	}
	e.pos = p
}

// setOption handles "setoption name <name> [value <value>]"; option names
// may contain spaces and are matched case-insensitively.
func (e *Engine) setOption(args []string) {
	if len(args) < 2 || args[0] != "name" {
		e.send("info string setoption: want 'setoption name <name> [value <value>]'")
		return
	}
	name, value := strings.Join(args[1:], " "), ""
	for i, a := range args {
		if a == "value" {
			name, value = strings.Join(args[1:i], " "), strings.Join(args[i+1:], " ")
			break
		}
	}
	for _, o := range e.options {
		if !strings.EqualFold(o.Name, name) {
			continue
		}
		v, err := o.parse(value)
		if err == nil {
			err = o.Set(v)
		}
		if err != nil {
			e.send("info string setoption: %v", err)
		}
		return
	}
	e.send("info string setoption: unknown option %q", name)
}

// display prints the board, FEN, key and checkers (Stockfish's "d") and
// the network AlphaBeta has loaded.
func (e *Engine) display() {
	var b strings.Builder
	for rank := 7; rank >= 0; rank-- {
		b.WriteString("\n +---+---+---+---+---+---+---+---+\n |")
		for file := 0; file < 8; file++ {
			c := byte(' ')
			if pc := e.pos.PieceAt(board.NewSquare(file, rank)); pc != board.NoPiece {
				c = pc.FENLetter()
			}
			fmt.Fprintf(&b, " %c |", c)
		}
		fmt.Fprintf(&b, " %d", rank+1)
	}
	b.WriteString("\n +---+---+---+---+---+---+---+---+\n   a   b   c   d   e   f   g   h\n")
	var names []string
	for bb := movegen.Checkers(e.pos); bb != 0; {
		names = append(names, bb.PopLSB().String())
	}
	e.send("%s\nFen: %s\nKey: %016X\nCheckers: %s\nNetwork: %s", b.String(), e.pos.FEN(), e.pos.Key(), strings.Join(names, " "), e.classical.DescribeNetwork())
}

// bench runs the fixed benchmark ("bench [depth]") and prints its report.
func (e *Engine) bench(args []string) {
	depth := bench.DefaultDepth
	if len(args) > 0 {
		if d := atoi(args[0]); d > 0 && d < search.MaxPly {
			depth = d
		} else {
			e.send("info string bench: want 'bench [depth]' with depth from 1 to %d", search.MaxPly-1)
			return
		}
	}
	net := e.classical.Evaluator() // AlphaBeta's evaluation, as a "go" would search
	e.background(func(ctx context.Context, _ *atomic.Bool) {
		if _, err := bench.Run(ctx, e.lines(), depth, net); err != nil {
			e.send("info string bench: stopped")
		}
	})
}

// background runs a long command ("go perft", "bench") beside the input
// loop, as a search runs: isready is still answered, and stop, a new
// command that needs the engine, or quit ends it.
func (e *Engine) background(run func(ctx context.Context, stop *atomic.Bool)) {
	ctx, cancel := context.WithCancel(context.Background())
	j := &job{cancel: cancel}
	e.active = j
	e.busy, e.endsByItself = true, true
	e.searching.Add(1)
	go func() {
		defer e.searching.Done()
		defer cancel()
		run(ctx, &j.stop)
	}()
}

// job is the handle of a background command.
type job struct {
	cancel context.CancelFunc
	stop   atomic.Bool
}

func (j *job) Stop() {
	j.stop.Store(true)
	j.cancel()
}

func (j *job) PonderHit() {}

// lines returns a writer that sends each line written to it (for output
// produced by other packages), so it interleaves whole with other lines.
func (e *Engine) lines() io.Writer { return &lineWriter{e: e} }

type lineWriter struct {
	e       *Engine
	pending []byte
}

func (w *lineWriter) Write(b []byte) (int, error) {
	w.pending = append(w.pending, b...)
	for {
		i := bytes.IndexByte(w.pending, '\n')
		if i < 0 {
			return len(b), nil
		}
		w.e.send("%s", w.pending[:i])
		w.pending = w.pending[i+1:]
	}
}

func msec(n int) time.Duration { return time.Duration(n) * time.Millisecond }
