package uci

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/twofold-chess/twofold/board"
	"github.com/twofold-chess/twofold/book"
	"github.com/twofold-chess/twofold/mind"
	"github.com/twofold-chess/twofold/search"
)

// The opening book: with OwnBook on and BookFile naming a Polyglot book,
// "go" in a position the book knows is answered at once with a book move,
// whichever searcher and strength is set (a user who turns a book on asked for
// its moves, weakened or not). Analysis keeps searching: "go infinite",
// "ponder", "searchmoves" and "mate" never take a book move.

// bookState is the loaded book and the options that choose it.
type bookState struct {
	on     bool
	file   string
	book   *book.Book // nil: none loaded (off, no file, or the file was refused)
	loaded string     // the file book was read from
	warned bool       // "no book" said at a go since the last load attempt
	rng    book.Rand  // tests inject their own; nil = math/rand/v2's global source
}

func (e *Engine) bookOptionList() []*option {
	return []*option{
		{Option: mind.Option{Name: "OwnBook", Kind: mind.Check, Default: "false", Set: func(v string) error {
			e.book.on = v == "true"
			if e.book.on && e.book.book != nil && e.book.loaded == e.book.file {
				return nil // GUIs resend every option before each game: no rereading
			}
			return e.loadBook()
		}}},
		{Option: mind.Option{Name: "BookFile", Kind: mind.String, Default: "", Set: func(v string) error {
			v = strings.TrimSpace(v)
			if v == "<empty>" { // how Stockfish shows an empty string; GUIs may send it back
				v = ""
			}
			e.book.file = v
			return e.loadBook()
		}}},
	}
}

// loadBook reads BookFile when OwnBook is on, and drops the book when it is
// off, so an unused book takes no memory. A file that cannot be used is
// reported and the engine searches every move.
func (e *Engine) loadBook() error {
	e.book.book, e.book.loaded, e.book.warned = nil, "", false
	if !e.book.on || e.book.file == "" {
		return nil
	}
	b, err := book.Open(e.book.file)
	if err != nil {
		return fmt.Errorf("opening book not loaded: %v (every move is searched)", err)
	}
	e.book.book, e.book.loaded = b, e.book.file
	e.send("info string opening book %s: %d entries", e.book.file, b.Len())
	return nil
}

// playBookMove answers "go" from the book when it may and can: it writes
// the book move's bestmove and reports true, or reports false and the
// search runs.
func (e *Engine) playBookMove(lim search.Limits) bool {
	if !e.book.on || lim.Infinite || lim.Ponder || lim.Mate > 0 || len(lim.Moves) > 0 {
		return false
	}
	if e.book.book == nil {
		if !e.book.warned {
			e.book.warned = true
			e.send("info string OwnBook is on but no book is loaded (BookFile %q); searching", clip(e.book.file, 200))
		}
		return false
	}
	var rng book.Rand = globalRand{}
	if e.book.rng != nil {
		rng = e.book.rng
	}
	m, ok := e.book.book.Pick(e.pos, rng)
	if !ok {
		return false
	}
	var weight, total uint32
	for _, c := range e.book.book.Moves(e.pos) {
		total += c.Weight
		if c.Move == m {
			weight = c.Weight
		}
	}
	e.send("info string book move %s (weight %d of %d)", m.UCI(e.pos.Chess960()), weight, total)
	e.sendBestMove(e.pos, m, board.NoMove)
	return true
}

// globalRand draws from math/rand/v2's source, seeded at random per process.
type globalRand struct{}

func (globalRand) Uint64N(n uint64) uint64 { return rand.Uint64N(n) }
