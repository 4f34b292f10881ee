package play

import (
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/twofold-chess/twofold/board"
	"github.com/twofold-chess/twofold/movegen"
	"github.com/twofold-chess/twofold/pgn"
)

// A game is a tree, as in PGN: the mainline (g.moves, which the engine
// plays on and the review reviews) and, in the notes of its moves,
// variations, which hold variations of their own. A position in the tree
// is named by its path: the moves (UCI) that lead to it from the start.

// parsePath replays a path of UCI moves from start and returns the moves
// and the position they reach (with the history draws need). A malformed
// move is a 400, an illegal one a 422.
func parsePath(start *board.Position, path []string) ([]board.Move, *board.Position, error) {
	p := start.Clone()
	moves := make([]board.Move, 0, len(path))
	for i, s := range path {
		m, err := movegen.ParseUCI(p, strings.TrimSpace(s))
		if err != nil {
			if errors.Is(err, movegen.ErrIllegalMove) {
				return nil, nil, &apiError{status: http.StatusUnprocessableEntity, msg: fmt.Sprintf("at: move %d (%q) is illegal there", i+1, s)}
			}
			return nil, nil, &apiError{status: http.StatusBadRequest, msg: fmt.Sprintf("at: move %d: %v", i+1, err)}
		}
		p.Make(m)
		moves = append(moves, m)
	}
	return moves, p, nil
}

// cursor is a place in the tree: a line (the mainline or a variation) and
// the index of the next move in it.
type cursor struct {
	moves *[]board.Move
	notes *[]pgn.Note
	i     int
	main  bool
}

// walk follows path through the tree (g.mu held); ok is false when the
// path leaves it.
func (g *game) walk(path []board.Move) (c cursor, ok bool) {
	c = cursor{moves: &g.moves, notes: &g.notes, main: true}
	for _, m := range path {
		moves := *c.moves
		switch {
		case c.i < len(moves) && moves[c.i] == m:
			c.i++
			continue
		case c.i >= len(moves) || c.i >= len(*c.notes):
			return c, false
		}
		found := false
		vars := (*c.notes)[c.i].Variations
		for k := range vars {
			if len(vars[k].Moves) > 0 && vars[k].Moves[0] == m {
				c = cursor{moves: &vars[k].Moves, notes: &vars[k].Notes, i: 1}
				found = true
				break
			}
		}
		if !found {
			return c, false
		}
	}
	return c, true
}

// padNotes makes notes one per move.
func padNotes(notes *[]pgn.Note, n int) {
	for len(*notes) < n {
		*notes = append(*notes, pgn.Note{})
	}
}

// addVariation plays m at c without changing the line c is in: it is the
// next move there already, or a variation starting with it exists, or it
// extends a variation that ends at c, or it starts a new variation.
// Mainline ends are the caller's (they move g.pos).
func (c cursor) addVariation(m board.Move) {
	moves := *c.moves
	if c.i == len(moves) {
		*c.moves = append(moves, m)
		return
	}
	if moves[c.i] == m {
		return
	}
	padNotes(c.notes, len(moves))
	n := &(*c.notes)[c.i]
	for _, v := range n.Variations {
		if len(v.Moves) > 0 && v.Moves[0] == m {
			return
		}
	}
	n.Variations = append(n.Variations, pgn.Line{Moves: []board.Move{m}})
}

// truncate cuts the mainline to n moves (g.mu held): the moves after it
// and their notes go, and the imported result with them.
func (g *game) truncate(n int) {
	for len(g.moves) > n {
		g.pos.Unmake()
		g.moves = g.moves[:len(g.moves)-1]
	}
	if len(g.notes) > n {
		g.notes = g.notes[:n]
	}
	g.result = ""
}

// Note is a move's annotation as the API gives it.
type Note struct {
	NAGs       []int       `json:"nags,omitempty"`
	Comment    string      `json:"comment,omitempty"`
	Variations []Variation `json:"variations,omitempty"`
}

// Variation is an alternative to a move, played from the position before
// it.
type Variation struct {
	Comment string    `json:"comment,omitempty"`
	Moves   []VarMove `json:"moves"`
}

// VarMove is a move of a variation, with the position after it and its
// own annotation.
type VarMove struct {
	SAN string `json:"san"`
	UCI string `json:"uci"`
	FEN string `json:"fen"`
	Note
}

// maxNoteDepth bounds how deep the state shows variations (the PGN
// reader's own bound).
const maxNoteDepth = pgn.MaxDepth

// notesJSON renders the notes of a line whose moves are played from p (p
// is not changed); nil when there are none.
func notesJSON(p *board.Position, moves []board.Move, notes []pgn.Note, depth int) []Note {
	if len(notes) == 0 || depth > maxNoteDepth {
		return nil
	}
	q := p.Clone()
	out := make([]Note, 0, len(moves))
	any := false
	for i, m := range moves {
		var n Note
		if i < len(notes) {
			pn := notes[i]
			n.NAGs, n.Comment = pn.NAGs, pn.Comment
			for _, v := range pn.Variations {
				n.Variations = append(n.Variations, variationJSON(q, v, depth+1))
			}
			any = any || len(n.NAGs) > 0 || n.Comment != "" || len(n.Variations) > 0
		}
		out = append(out, n)
		q.Make(m)
	}
	if !any {
		return nil
	}
	return out
}

func variationJSON(p *board.Position, l pgn.Line, depth int) Variation {
	v := Variation{Comment: l.Comment, Moves: make([]VarMove, 0, len(l.Moves))}
	q := p.Clone()
	notes := notesJSON(q, l.Moves, l.Notes, depth)
	for i, m := range l.Moves {
		vm := VarMove{SAN: movegen.SAN(q, m), UCI: m.UCI(q.Chess960())}
		q.Make(m)
		vm.FEN = q.FEN()
		if i < len(notes) {
			vm.Note = notes[i]
		}
		v.Moves = append(v.Moves, vm)
	}
	return v
}

// Tag is a PGN tag pair as the API gives it.
type Tag struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}
