// Package uci speaks the Universal Chess Interface: it reads commands from a
// GUI, keeps the game position and options, and writes answers. Bad input is
// answered with an "info string" and never ends the loop.
package uci

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"

	"github.com/twofold-chess/twofold/board"
	"github.com/twofold-chess/twofold/movegen"
	"github.com/twofold-chess/twofold/perft"
)

// Version is reported in "id name"; release builds set it with
// -ldflags "-X github.com/twofold-chess/twofold/uci.Version=...".
var Version = "dev"

// Engine is the state behind one UCI session.
type Engine struct {
	mu       sync.Mutex // serialises writes so lines never interleave
	out      *bufio.Writer
	pos      *board.Position
	chess960 bool
}

// New returns an engine that writes its answers to out, set to the start position.
func New(out io.Writer) *Engine {
	return &Engine{out: bufio.NewWriter(out), pos: board.StartPosition()}
}

// Run reads commands line by line until "quit" or the end of input.
func (e *Engine) Run(in io.Reader) error {
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 64*1024), 1024*1024) // long "position ... moves" lines
	for sc.Scan() {
		if !e.Execute(sc.Text()) {
			return nil
		}
	}
	return sc.Err()
}

// Execute runs one command line and reports whether the session goes on
// (false after "quit"). A panic while handling a command is reported as an
// info string instead of ending the session.
func (e *Engine) Execute(line string) (goOn bool) {
	defer func() {
		if r := recover(); r != nil {
			e.send("info string internal error on %q: %v", line, r)
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
		e.send("option name UCI_Chess960 type check default false")
		e.send("uciok")
	case "isready":
		e.send("readyok")
	case "ucinewgame":
		e.setPosition(board.StartPosition())
	case "position":
		e.position(args)
	case "setoption":
		e.setOption(args)
	case "go":
		e.goCommand(args)
	case "d":
		e.display()
	case "quit":
		return false
	default:
		e.send("info string unknown command %q; supported: uci, isready, ucinewgame, position, setoption, go perft, d, quit", cmd)
	}
	return true
}

// send writes one line and flushes it, so a GUI on a pipe sees it at once.
func (e *Engine) send(format string, args ...any) {
	e.mu.Lock()
	defer e.mu.Unlock()
	fmt.Fprintf(e.out, format, args...)
	e.out.WriteByte('\n')
	e.out.Flush()
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
	switch strings.ToLower(name) {
	case "uci_chess960":
		on, err := strconv.ParseBool(value)
		if err != nil {
			e.send("info string setoption: UCI_Chess960 wants true or false, got %q", value)
			return
		}
		e.chess960 = on
		e.pos.SetChess960(on)
	default:
		e.send("info string setoption: unknown option %q", name)
	}
}

// goCommand handles "go". Only "go perft N" is served until the searchers
// arrive; any other "go" still ends in a legal bestmove so no GUI waits forever.
func (e *Engine) goCommand(args []string) {
	if len(args) >= 1 && args[0] == "perft" {
		if len(args) != 2 {
			e.send("info string go perft: want 'go perft <depth>'")
			return
		}
		depth, err := strconv.Atoi(args[1])
		if err != nil || depth < 1 || depth > 20 {
			e.send("info string go perft: depth must be a whole number from 1 to 20, got %q", args[1])
			return
		}
		e.mu.Lock()
		perft.WriteDivide(e.out, e.pos, depth)
		e.out.WriteByte('\n')
		e.out.Flush()
		e.mu.Unlock()
		return
	}
	var ml movegen.MoveList
	movegen.Legal(e.pos, &ml)
	e.send("info string no searcher is built in yet; answering with the first legal move")
	if ml.Len() == 0 {
		e.send("bestmove 0000")
		return
	}
	e.send("bestmove %s", ml.At(0).UCI(e.pos.Chess960()))
}

// display prints the board, FEN and key (Stockfish's "d").
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
	e.send("%s\nFen: %s\nKey: %016X\nCheckers: %s", b.String(), e.pos.FEN(), e.pos.Key(), checkers(e.pos))
}

func checkers(p *board.Position) string {
	var names []string
	for bb := movegen.Checkers(p); bb != 0; {
		names = append(names, bb.PopLSB().String())
	}
	return strings.Join(names, " ")
}
