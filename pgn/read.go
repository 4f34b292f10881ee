package pgn

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/twofold-chess/twofold/board"
	"github.com/twofold-chess/twofold/movegen"
)

// Reading follows the PGN standard's import format and is lenient where
// the tools that write PGN differ: move numbers are optional and not
// checked ("1.e4", "1. e4" and "e4" all read), castling may be written with
// zeros, check marks and the suffixes !, ?, !!, ??, !? and ?! are read (the
// suffixes as NAGs), a game may lack its result, and comments may span
// lines. What cannot be a game is an error that names the line and the
// reason: an illegal or ambiguous move, an unclosed comment or variation,
// a bad tag, a bad FEN.

// MaxDepth bounds how deeply variations may nest.
const MaxDepth = 64

// Error is a reason a PGN cannot be read, with the line (1-based) it was
// found on and the game (1-based) it belongs to.
type Error struct {
	Game, Line int
	Msg        string
}

func (e *Error) Error() string { return fmt.Sprintf("line %d: %s", e.Line, e.Msg) }

// ReadAll reads every game of a PGN text, or fails with an *Error for the
// first game that cannot be read.
func ReadAll(text string) ([]Game, error) {
	r := NewReader(text)
	var games []Game
	for {
		g, err := r.Next()
		if err == io.EOF {
			return games, nil
		}
		if err != nil {
			return nil, err
		}
		games = append(games, g)
	}
}

// Reader reads the games of a PGN text one by one.
type Reader struct {
	lx   lexer
	game int
	peek *token
}

// NewReader returns a reader of the games in text.
func NewReader(text string) *Reader {
	text = strings.TrimPrefix(text, "\ufeff") // a byte order mark
	return &Reader{lx: lexer{src: text, line: 1, bol: true}}
}

// Next returns the next game, io.EOF after the last, or an *Error. After
// an error it goes on with the game after the bad one.
func (r *Reader) Next() (Game, error) {
	if r.peekTok().kind == tEOF {
		return Game{}, io.EOF
	}
	r.game++
	g, err := r.readGame()
	if err != nil {
		r.skipGame()
		return Game{}, err
	}
	return g, nil
}

func (r *Reader) errorf(line int, format string, args ...any) error {
	return &Error{Game: r.game, Line: line, Msg: fmt.Sprintf(format, args...)}
}

func (r *Reader) next() token {
	if r.peek != nil {
		t := *r.peek
		r.peek = nil
		return t
	}
	return r.lx.next()
}

func (r *Reader) peekTok() token {
	if r.peek == nil {
		t := r.lx.next()
		r.peek = &t
	}
	return *r.peek
}

// skipGame passes over the rest of a game that failed: to its result, or
// to the next tag section.
func (r *Reader) skipGame() {
	moves := false
	for {
		t := r.peekTok()
		switch t.kind {
		case tEOF:
			return
		case tTag:
			if moves {
				return
			}
		case tResult:
			r.next()
			return
		case tError:
			// Unreadable text: skip the character.
		default:
			moves = true
		}
		r.next()
	}
}

func (r *Reader) readGame() (Game, error) {
	var g Game
	var fenLine, variantLine int
	fen, setup := "", ""
	for r.peekTok().kind == tTag {
		t := r.next()
		if t.err != "" {
			return g, r.errorf(t.line, "%s", t.err)
		}
		g.Tags = append(g.Tags, Tag{t.name, t.text})
		switch t.name {
		case "Event":
			g.Event = t.text
		case "Site":
			g.Site = t.text
		case "Date":
			if d, err := time.Parse("2006.01.02", t.text); err == nil {
				g.Date = d
			}
		case "Round":
			if n, err := strconv.Atoi(t.text); err == nil && n > 0 {
				g.Round = n
			}
		case "White":
			g.White = t.text
		case "Black":
			g.Black = t.text
		case "Result":
			g.Result = t.text
		case "Termination":
			g.Termination = t.text
		case "FEN":
			fen, fenLine = t.text, t.line
		case "SetUp":
			setup = t.text
		case "Variant":
			variantLine = t.line
		}
	}
	start := board.StartPosition()
	chess960 := false
	if v, ok := g.Tag("Variant"); ok {
		switch strings.ToLower(strings.ReplaceAll(strings.ReplaceAll(v, " ", ""), "-", "")) {
		case "", "standard", "normal", "fromposition":
		case "chess960", "fischerandom", "fischerrandom", "960":
			chess960 = true
		default:
			return g, r.errorf(variantLine, "variant %q is not supported (only standard chess and Chess960)", v)
		}
	}
	if strings.TrimSpace(fen) != "" && setup != "0" {
		p, err := movegen.ParseFEN(strings.TrimSpace(fen))
		if err != nil {
			return g, r.errorf(fenLine, "bad FEN tag: %v", err)
		}
		start = p
		g.Start = p.Clone()
	}
	if chess960 {
		start.SetChess960(true)
		if g.Start == nil {
			g.Start = start.Clone()
		}
		g.Start.SetChess960(true)
	}
	l, res, err := r.line(start, 0, 0)
	if err != nil {
		return g, err
	}
	g.Comment, g.Moves, g.Notes = l.Comment, l.Moves, l.Notes
	if res != "" && (g.Result == "" || g.Result == "?") {
		g.Result = res
	}
	if len(g.Tags) == 0 && len(g.Moves) == 0 && res == "" && g.Comment == "" {
		return g, r.errorf(r.lx.line, "no game here")
	}
	return g, nil
}

// line reads moves from start until the game's end (depth 0) or the ")"
// that closes the variation (depth > 0, opened on line open). It returns
// the result token that ended a game, if any.
func (r *Reader) line(start *board.Position, depth, open int) (Line, string, error) {
	var l Line
	p := start
	note := func() *Note {
		for len(l.Notes) < len(l.Moves) {
			l.Notes = append(l.Notes, Note{})
		}
		return &l.Notes[len(l.Moves)-1]
	}
	for {
		t := r.peekTok()
		switch t.kind {
		case tEOF:
			if depth > 0 {
				return l, "", r.errorf(open, "the variation opened here is not closed")
			}
			return l.trim(), "", nil
		case tTag:
			if depth > 0 {
				return l, "", r.errorf(open, "the variation opened here is not closed")
			}
			return l.trim(), "", nil // a game without its result
		}
		r.next()
		switch t.kind {
		case tError:
			return l, "", r.errorf(t.line, "%s", t.err)
		case tComment:
			if len(l.Moves) == 0 {
				l.Comment = join(l.Comment, t.text)
			} else {
				n := note()
				n.Comment = join(n.Comment, t.text)
			}
		case tNAG:
			if len(l.Moves) > 0 {
				n := note()
				n.NAGs = append(n.NAGs, t.nag)
			}
		case tNumber:
		case tOpen:
			if len(l.Moves) == 0 {
				return l, "", r.errorf(t.line, "a variation before any move it could replace")
			}
			if depth+1 > MaxDepth {
				return l, "", r.errorf(t.line, "variations nested deeper than %d", MaxDepth)
			}
			last := l.Moves[len(l.Moves)-1]
			p.Unmake()
			v, _, err := r.line(p.Clone(), depth+1, t.line)
			p.Make(last)
			if err != nil {
				return l, "", err
			}
			if len(v.Moves) > 0 {
				n := note()
				n.Variations = append(n.Variations, v)
			}
		case tClose:
			if depth == 0 {
				return l, "", r.errorf(t.line, "a \")\" closes no variation")
			}
			return l.trim(), "", nil
		case tResult:
			if depth > 0 {
				return l, "", r.errorf(t.line, "the result %s inside a variation (opened on line %d)", t.text, open)
			}
			return l.trim(), t.text, nil
		case tMove:
			m, err := movegen.ParseSAN(p, t.text)
			if err != nil {
				var why string
				switch {
				case errors.Is(err, movegen.ErrIllegalMove):
					why = fmt.Sprintf("illegal move %q", t.text)
				case strings.HasPrefix(err.Error(), "ambiguous"):
					why = fmt.Sprintf("ambiguous move %q", t.text)
				default:
					why = fmt.Sprintf("%q is not a move", t.text)
				}
				return l, "", r.errorf(t.line, "%s after %s (position %s)", why, r.describe(p, l, depth), p.FEN())
			}
			p.Make(m)
			l.Moves = append(l.Moves, m)
			if t.nag != 0 {
				n := note()
				n.NAGs = append(n.NAGs, t.nag)
			}
		}
	}
}

// describe names where a line stands, for errors: "12. Nf3", "the start".
func (r *Reader) describe(p *board.Position, l Line, depth int) string {
	where := "the start"
	if len(l.Moves) > 0 {
		q := p.Clone()
		q.Unmake()
		san := movegen.SAN(q, l.Moves[len(l.Moves)-1])
		if q.Side() == board.White {
			where = fmt.Sprintf("%d. %s", q.FullmoveNumber(), san)
		} else {
			where = fmt.Sprintf("%d... %s", q.FullmoveNumber(), san)
		}
	} else if depth > 0 {
		where = "the start of a variation"
	}
	return where
}

// trim drops the notes of a line that has none.
func (l Line) trim() Line {
	for _, n := range l.Notes {
		if len(n.NAGs) > 0 || n.Comment != "" || len(n.Variations) > 0 {
			for len(l.Notes) < len(l.Moves) {
				l.Notes = append(l.Notes, Note{})
			}
			return l
		}
	}
	l.Notes = nil
	return l
}

func join(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + " " + b
}

// The lexer cuts PGN text into tokens, counting lines.

type tokKind int

const (
	tEOF     tokKind = iota
	tTag             // [Name "value"]: name, text
	tComment         // {...} or ;... : text
	tNAG             // $n: nag
	tNumber          // a move number, with or without dots
	tOpen            // (
	tClose           // )
	tResult          // 1-0 0-1 1/2-1/2 *
	tMove            // SAN: text, with nag from a suffix
	tError           // err
)

type token struct {
	kind       tokKind
	line       int
	name, text string
	nag        int
	err        string
}

type lexer struct {
	src  string
	pos  int
	line int
	bol  bool // at the beginning of a line (for "%" escape lines)
}

var suffixNAGs = map[string]int{"!": NAGGood, "?": NAGMistake, "!!": NAGBrilliant, "??": NAGBlunder, "!?": NAGInteresting, "?!": NAGDubious}

func isSymbolChar(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
		strings.IndexByte("_+#=:-/", c) >= 0
}

func (lx *lexer) next() token {
	for lx.pos < len(lx.src) {
		c := lx.src[lx.pos]
		if lx.bol && c == '%' { // an escape line: skipped
			lx.skipLine()
			continue
		}
		switch c {
		case '\n':
			lx.line++
			lx.pos++
			lx.bol = true
			continue
		case ' ', '\t', '\r', '\v', '\f':
			lx.pos++
			continue
		}
		lx.bol = false
		line := lx.line
		switch {
		case c == '[':
			return lx.tag()
		case c == '{':
			end := strings.IndexByte(lx.src[lx.pos:], '}')
			if end < 0 {
				lx.pos = len(lx.src)
				return token{kind: tError, line: line, err: "a comment \"{\" that is never closed"}
			}
			text := lx.src[lx.pos+1 : lx.pos+end]
			lx.line += strings.Count(text, "\n")
			lx.pos += end + 1
			return token{kind: tComment, line: line, text: strings.Join(strings.Fields(text), " ")}
		case c == ';':
			start := lx.pos + 1
			lx.skipLine()
			return token{kind: tComment, line: line, text: strings.Join(strings.Fields(strings.TrimRight(lx.src[start:lx.pos], "\n")), " ")}
		case c == '(':
			lx.pos++
			return token{kind: tOpen, line: line}
		case c == ')':
			lx.pos++
			return token{kind: tClose, line: line}
		case c == '*':
			lx.pos++
			return token{kind: tResult, line: line, text: "*"}
		case c == '$':
			start := lx.pos + 1
			lx.pos++
			for lx.pos < len(lx.src) && lx.src[lx.pos] >= '0' && lx.src[lx.pos] <= '9' {
				lx.pos++
			}
			n, err := strconv.Atoi(lx.src[start:lx.pos])
			if err != nil || n > 255 {
				return token{kind: tError, line: line, err: fmt.Sprintf("bad NAG %q (want $0 to $255)", lx.src[start-1:lx.pos])}
			}
			return token{kind: tNAG, line: line, nag: n}
		case c == '!' || c == '?':
			start := lx.pos
			for lx.pos < len(lx.src) && (lx.src[lx.pos] == '!' || lx.src[lx.pos] == '?') {
				lx.pos++
			}
			if n, ok := suffixNAGs[lx.src[start:lx.pos]]; ok {
				return token{kind: tNAG, line: line, nag: n}
			}
			return token{kind: tError, line: line, err: fmt.Sprintf("bad annotation %q", lx.src[start:lx.pos])}
		case c == '.':
			lx.pos++ // dots apart from a number ("1 ... e5")
			continue
		case isSymbolChar(c):
			return lx.symbol()
		}
		lx.pos++
		r := []rune(lx.src[lx.pos-1 : min(len(lx.src), lx.pos+3)])
		return token{kind: tError, line: line, err: fmt.Sprintf("unexpected character %q", r[0])}
	}
	return token{kind: tEOF, line: lx.line}
}

func (lx *lexer) skipLine() {
	if end := strings.IndexByte(lx.src[lx.pos:], '\n'); end >= 0 {
		lx.pos += end
	} else {
		lx.pos = len(lx.src)
	}
}

// symbol reads a move, a move number or a result.
func (lx *lexer) symbol() token {
	line := lx.line
	start := lx.pos
	// A move number: digits, then dots (possibly glued to the move: "1.e4").
	i := lx.pos
	for i < len(lx.src) && lx.src[i] >= '0' && lx.src[i] <= '9' {
		i++
	}
	if i < len(lx.src) && lx.src[i] == '.' {
		for i < len(lx.src) && lx.src[i] == '.' {
			i++
		}
		lx.pos = i
		return token{kind: tNumber, line: line}
	}
	for lx.pos < len(lx.src) && isSymbolChar(lx.src[lx.pos]) {
		lx.pos++
	}
	s := lx.src[start:lx.pos]
	switch s {
	case "1-0", "0-1", "1/2-1/2":
		return token{kind: tResult, line: line, text: s}
	case "--", "Z0", "0000", "@@@@":
		return token{kind: tError, line: line, err: fmt.Sprintf("null move %q is not supported", s)}
	}
	if strings.Trim(s, "0123456789") == "" {
		return token{kind: tNumber, line: line}
	}
	t := token{kind: tMove, line: line, text: s}
	// "e.p." after an en-passant capture, glued or after a space.
	if rest := strings.TrimLeft(lx.src[lx.pos:], " \t"); strings.HasPrefix(rest, "e.p.") {
		lx.pos = len(lx.src) - len(rest) + 4
	}
	if j := lx.pos; j < len(lx.src) && (lx.src[j] == '!' || lx.src[j] == '?') {
		for lx.pos < len(lx.src) && (lx.src[lx.pos] == '!' || lx.src[lx.pos] == '?') {
			lx.pos++
		}
		n, ok := suffixNAGs[lx.src[j:lx.pos]]
		if !ok {
			return token{kind: tError, line: line, err: fmt.Sprintf("bad annotation %q after %s", lx.src[j:lx.pos], s)}
		}
		t.nag = n
	}
	return t
}

// tag reads [Name "value"].
func (lx *lexer) tag() token {
	line := lx.line
	bad := func(why string) token {
		lx.skipLine()
		return token{kind: tTag, line: line, err: why}
	}
	lx.pos++ // [
	lx.spaces()
	start := lx.pos
	for lx.pos < len(lx.src) && validTagName(lx.src[lx.pos:lx.pos+1]) {
		lx.pos++
	}
	name := lx.src[start:lx.pos]
	if name == "" {
		return bad("a tag without a name")
	}
	lx.spaces()
	if lx.pos >= len(lx.src) || lx.src[lx.pos] != '"' {
		return bad(fmt.Sprintf("tag %s: its value must be in double quotes", name))
	}
	lx.pos++
	var v strings.Builder
	for {
		if lx.pos >= len(lx.src) || lx.src[lx.pos] == '\n' {
			return bad(fmt.Sprintf("tag %s: the value's closing quote is missing", name))
		}
		c := lx.src[lx.pos]
		lx.pos++
		if c == '"' {
			break
		}
		if c == '\\' && lx.pos < len(lx.src) && (lx.src[lx.pos] == '"' || lx.src[lx.pos] == '\\') {
			c = lx.src[lx.pos]
			lx.pos++
		}
		v.WriteByte(c)
	}
	lx.spaces()
	if lx.pos >= len(lx.src) || lx.src[lx.pos] != ']' {
		return bad(fmt.Sprintf("tag %s: \"]\" is missing", name))
	}
	lx.pos++
	return token{kind: tTag, line: line, name: name, text: v.String()}
}

// spaces skips blanks within a line.
func (lx *lexer) spaces() {
	for lx.pos < len(lx.src) && (lx.src[lx.pos] == ' ' || lx.src[lx.pos] == '\t' || lx.src[lx.pos] == '\r') {
		lx.pos++
	}
}
