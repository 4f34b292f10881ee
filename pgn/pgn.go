package pgn

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/twofold-chess/twofold/board"
	"github.com/twofold-chess/twofold/movegen"
)

// Game is one game. The zero values of the optional fields give PGN's
// "unknown" markers.
type Game struct {
	Event, Site  string
	Date         time.Time // zero: "????.??.??" (or the Date of Tags)
	Round        int       // 0: "?" (or the Round of Tags)
	White, Black string
	// Result is "1-0", "0-1", "1/2-1/2" or "*".
	Result string
	// Termination says how the game ended (checkmate, threefold, ...); it
	// is written as a tag when not empty.
	Termination string
	// Start is the position the moves are played from; nil means the
	// standard start. Any other start gets SetUp and FEN tags.
	Start *board.Position
	// Tags are further tag pairs, written after those above in their
	// order. A roster tag (Event ... Result) here gives the value when the
	// field above is zero; SetUp, FEN and PlyCount are always the writer's
	// own, as are Variant and Termination when it writes them. Read keeps
	// every tag of the file here, in the file's order.
	Tags []Tag
	// Comment comes before the first move.
	Comment string
	// Moves are legal moves from Start, in order.
	Moves []board.Move
	// Notes are the moves' annotations: nil, or one per move.
	Notes []Note
}

// Tag is a tag pair.
type Tag struct{ Name, Value string }

// Note is what PGN attaches to a move.
type Note struct {
	// NAGs are Numeric Annotation Glyphs: 1 "!", 2 "?", 3 "!!", 4 "??",
	// 5 "!?", 6 "?!" and the rest of the standard's table up to 255.
	NAGs []int
	// Comment follows the move (several comments read are joined by a
	// space; whitespace is collapsed to single spaces).
	Comment string
	// Variations are alternatives to the move, each played from the
	// position before it.
	Variations []Line
}

// Line is a variation: moves with their notes.
type Line struct {
	Comment string // before the first move
	Moves   []board.Move
	Notes   []Note // nil, or one per move
}

// The NAGs of the usual move assessments.
const (
	NAGGood        = 1 // !
	NAGMistake     = 2 // ?
	NAGBrilliant   = 3 // !!
	NAGBlunder     = 4 // ??
	NAGInteresting = 5 // !?
	NAGDubious     = 6 // ?! (an inaccuracy, as Lichess writes it)
)

// Tag returns the value of the first tag of Tags with the name, and
// whether there is one.
func (g Game) Tag(name string) (string, bool) {
	for _, t := range g.Tags {
		if t.Name == name {
			return t.Value, true
		}
	}
	return "", false
}

// Mainline returns the game's moves as a Line.
func (g Game) Mainline() Line { return Line{Comment: g.Comment, Moves: g.Moves, Notes: g.Notes} }

// StartPosition returns a copy of the position the moves start from.
func (g Game) StartPosition() *board.Position {
	if g.Start == nil {
		return board.StartPosition()
	}
	return g.Start.Clone()
}

// lineWidth keeps movetext lines under PGN's 80-column limit.
const lineWidth = 79

// roster are the seven tags every game has, in order.
var roster = []string{"Event", "Site", "Date", "Round", "White", "Black", "Result"}

// String renders the game: the seven-tag roster, the optional tags, and the
// movetext in SAN with move numbers, comments, NAGs and variations,
// followed by a blank line.
func (g Game) String() string {
	var b strings.Builder
	tag := func(name, value string) {
		fmt.Fprintf(&b, "[%s \"%s\"]\n", name, escape(value))
	}
	given := func(name, field string) string {
		if field != "" {
			return field
		}
		if v, ok := g.Tag(name); ok && v != "" {
			return v
		}
		return "?"
	}
	tag("Event", given("Event", g.Event))
	tag("Site", given("Site", g.Site))
	date := ""
	if !g.Date.IsZero() {
		date = g.Date.UTC().Format("2006.01.02")
	} else if v, ok := g.Tag("Date"); ok {
		date = v
	}
	tag("Date", cmp(date, "????.??.??"))
	round := ""
	if g.Round > 0 {
		round = strconv.Itoa(g.Round)
	}
	tag("Round", given("Round", round))
	tag("White", given("White", g.White))
	tag("Black", given("Black", g.Black))
	result := g.Result
	if result == "" {
		result, _ = g.Tag("Result")
	}
	if result == "" || result == "?" {
		result = "*"
	}
	tag("Result", result)
	written := map[string]bool{"SetUp": true, "FEN": true, "PlyCount": true}
	for _, n := range roster {
		written[n] = true
	}
	p := g.StartPosition()
	if g.Start != nil {
		if fen := p.FEN(); fen != board.StartFEN {
			tag("SetUp", "1")
			tag("FEN", fen)
		}
		if p.Chess960() {
			tag("Variant", "Chess960")
			written["Variant"] = true
		}
	}
	tag("PlyCount", strconv.Itoa(len(g.Moves)))
	if g.Termination != "" {
		tag("Termination", g.Termination)
		written["Termination"] = true
	}
	for _, t := range g.Tags {
		if !written[t.Name] && validTagName(t.Name) {
			tag(t.Name, t.Value)
		}
	}
	b.WriteByte('\n')

	w := &movetext{}
	w.line(p, g.Mainline())
	w.emit(result)
	w.write(&b)
	b.WriteString("\n\n")
	return b.String()
}

// movetext collects tokens, then lays them out within lineWidth columns.
type movetext struct {
	toks []string
	glue string // prefixed to the next token ("(", "{")
}

// emit adds a token.
func (w *movetext) emit(tok string) {
	w.toks = append(w.toks, w.glue+tok)
	w.glue = ""
}

// close appends tok (")" or "}") to the last token.
func (w *movetext) close(tok string) {
	if n := len(w.toks); n > 0 {
		w.toks[n-1] += tok
	} else {
		w.emit(tok)
	}
}

// write lays the tokens out in lines of at most lineWidth columns (a
// longer token stands alone on its line).
func (w *movetext) write(b *strings.Builder) {
	col := 0
	for _, tok := range w.toks {
		if col > 0 && col+1+len(tok) > lineWidth {
			b.WriteByte('\n')
			col = 0
		} else if col > 0 {
			b.WriteByte(' ')
			col++
		}
		b.WriteString(tok)
		col += len(tok)
	}
}

// comment writes {text} word by word, so that it wraps like the moves.
func (w *movetext) comment(text string) {
	words := strings.Fields(strings.ReplaceAll(text, "}", ")"))
	if len(words) == 0 {
		w.emit("{}")
		return
	}
	w.glue += "{"
	for _, word := range words {
		w.emit(word)
	}
	w.close("}")
}

// line writes l's moves from p (which it does not change).
func (w *movetext) line(start *board.Position, l Line) {
	p := start.Clone()
	if l.Comment != "" {
		w.comment(l.Comment)
	}
	number := true // the next Black move needs "N..."
	for i, m := range l.Moves {
		switch {
		case p.Side() == board.White:
			w.emit(fmt.Sprintf("%d.", p.FullmoveNumber()))
		case number:
			w.emit(fmt.Sprintf("%d...", p.FullmoveNumber()))
		}
		number = false
		w.emit(movegen.SAN(p, m))
		if i < len(l.Notes) {
			n := l.Notes[i]
			for _, nag := range n.NAGs {
				if nag >= 0 && nag <= 255 {
					w.emit("$" + strconv.Itoa(nag))
				}
			}
			if n.Comment != "" {
				w.comment(n.Comment)
				number = true
			}
			for _, v := range n.Variations {
				if len(v.Moves) == 0 {
					continue
				}
				w.glue += "("
				w.line(p, v)
				w.close(")")
				number = true
			}
		}
		p.Make(m)
	}
}

func cmp(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// validTagName: letters, digits and underscores, as PGN's tag names.
func validTagName(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

// escape quotes a tag value as PGN requires.
func escape(s string) string {
	return strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", " ", "\r", " ").Replace(s)
}
