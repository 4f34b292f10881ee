package pgn

import (
	"fmt"
	"strings"
	"time"

	"github.com/twofold-chess/twofold/board"
	"github.com/twofold-chess/twofold/movegen"
)

// Game is one finished game. The zero values of the optional fields give
// PGN's "unknown" markers.
type Game struct {
	Event, Site  string
	Date         time.Time // zero: "????.??.??"
	Round        int       // 0: "?"
	White, Black string
	// Result is "1-0", "0-1", "1/2-1/2" or "*".
	Result string
	// Termination says how the game ended (checkmate, threefold, ...); it
	// is written as a tag when not empty.
	Termination string
	// Start is the position the moves are played from; nil means the
	// standard start. Any other start gets SetUp and FEN tags.
	Start *board.Position
	// Moves are legal moves from Start, in order.
	Moves []board.Move
}

// lineWidth keeps movetext lines under PGN's 80-column limit.
const lineWidth = 79

// String renders the game: the seven-tag roster, the optional tags, and the
// movetext in SAN with move numbers, followed by a blank line.
func (g Game) String() string {
	var b strings.Builder
	tag := func(name, value string) {
		fmt.Fprintf(&b, "[%s \"%s\"]\n", name, escape(value))
	}
	tag("Event", orUnknown(g.Event))
	tag("Site", orUnknown(g.Site))
	date := "????.??.??"
	if !g.Date.IsZero() {
		date = g.Date.UTC().Format("2006.01.02")
	}
	tag("Date", date)
	round := "?"
	if g.Round > 0 {
		round = fmt.Sprint(g.Round)
	}
	tag("Round", round)
	tag("White", orUnknown(g.White))
	tag("Black", orUnknown(g.Black))
	result := g.Result
	if result == "" {
		result = "*"
	}
	tag("Result", result)
	p := board.StartPosition()
	if g.Start != nil {
		p = g.Start.Clone()
		if fen := p.FEN(); fen != board.StartFEN {
			tag("SetUp", "1")
			tag("FEN", fen)
		}
		if p.Chess960() {
			tag("Variant", "Chess960")
		}
	}
	tag("PlyCount", fmt.Sprint(len(g.Moves)))
	if g.Termination != "" {
		tag("Termination", g.Termination)
	}
	b.WriteByte('\n')

	line := 0
	emit := func(tok string) {
		if line > 0 && line+1+len(tok) > lineWidth {
			b.WriteByte('\n')
			line = 0
		} else if line > 0 {
			b.WriteByte(' ')
			line++
		}
		b.WriteString(tok)
		line += len(tok)
	}
	for i, m := range g.Moves {
		switch {
		case p.Side() == board.White:
			emit(fmt.Sprintf("%d.", p.FullmoveNumber()))
		case i == 0:
			emit(fmt.Sprintf("%d...", p.FullmoveNumber()))
		}
		emit(movegen.SAN(p, m))
		p.Make(m)
	}
	emit(result)
	b.WriteString("\n\n")
	return b.String()
}

func orUnknown(s string) string {
	if s == "" {
		return "?"
	}
	return s
}

// escape quotes a tag value as PGN requires.
func escape(s string) string {
	return strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s)
}
