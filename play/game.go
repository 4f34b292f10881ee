package play

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/twofold-chess/twofold/board"
	"github.com/twofold-chess/twofold/movegen"
	"github.com/twofold-chess/twofold/pgn"
	"github.com/twofold-chess/twofold/syzygy"
)

// game is one game on the server. Its mutex guards every field; it is
// never held during a search (a search works on a clone), so reading a
// game's state stays instant while its engine thinks.
type game struct {
	id string
	mu sync.Mutex

	start    *board.Position // the position the game began in
	pos      *board.Position // start plus moves, with the history draws need
	moves    []board.Move
	mind     string
	level    Level
	created  time.Time
	lastUsed time.Time

	// thinking is set while the engine chooses a move for this game; moves
	// and undo are refused meanwhile, so the move it returns still fits.
	thinking    bool
	cancelThink context.CancelFunc
	analysis    *analysis
	review      *review // the last review started, running or not
	gone        bool    // deleted or expired; a search that ends now is dropped

	// From a PGN import, or added on the board: the tags, the comment
	// before the first move, the notes of the mainline's moves (comments,
	// NAGs, variations; at most one per move), and the result the PGN gave
	// (kept until the mainline changes).
	tags    []pgn.Tag
	comment string
	notes   []pgn.Note
	result  string

	events *hub
	tables *syzygy.Tablebase // the server's tablebases, or nil
}

// analysis is a running infinite search; done is closed when it ends.
type analysis struct {
	cancel  context.CancelFunc
	done    chan struct{}
	multiPV int
}

func (a *analysis) running() bool {
	if a == nil {
		return false
	}
	select {
	case <-a.done:
		return false
	default:
		return true
	}
}

// stopAnalysis ends the game's analysis and waits for it (g.mu held; the
// analysis goroutine never takes it, so the wait cannot deadlock).
func (g *game) stopAnalysis() {
	if g.analysis == nil {
		return
	}
	g.analysis.cancel()
	<-g.analysis.done
	g.analysis = nil
}

// State is a game as the API returns it.
type State struct {
	ID       string   `json:"id"`
	FEN      string   `json:"fen"`
	StartFEN string   `json:"startFen"`
	Moves    []string `json:"moves"`    // SAN, from the start position
	UCIMoves []string `json:"uciMoves"` // the same moves in UCI
	Legal    []string `json:"legal"`    // legal moves in UCI (none once the game is over)
	Turn     string   `json:"turn"`     // "white" or "black"
	Check    bool     `json:"check"`
	LastMove string   `json:"lastMove,omitempty"`
	// Status is "ongoing", "checkmate", "stalemate", "threefold",
	// "fifty-move" or "insufficient-material"; Reason says it in words.
	Status    string `json:"status"`
	Reason    string `json:"reason,omitempty"`
	Result    string `json:"result"` // "1-0", "0-1", "1/2-1/2" or "*"
	Mind      string `json:"mind"`
	Level     string `json:"level"`
	Thinking  bool   `json:"thinking"`
	Analysing bool   `json:"analysing"`
	// FENs are the mainline's positions: the start, then the position
	// after each move.
	FENs []string `json:"fens"`
	// Notes are the mainline moves' annotations (one per move), absent
	// when there are none; Comment comes before the first move; Tags are
	// a PGN import's.
	Notes   []Note `json:"notes,omitempty"`
	Comment string `json:"comment,omitempty"`
	Tags    []Tag  `json:"tags,omitempty"`
	// Review is the last review's status: "" (none), "running", "done",
	// "cancelled" or "failed".
	Review string `json:"review"`
	// Tablebase is the tables' verdict, when the position is in them.
	Tablebase *Tablebase `json:"tablebase,omitempty"`
}

var statusNames = map[movegen.Status]string{
	movegen.Ongoing:                  "ongoing",
	movegen.Checkmate:                "checkmate",
	movegen.Stalemate:                "stalemate",
	movegen.ThreefoldDraw:            "threefold",
	movegen.FiftyMoveDraw:            "fifty-move",
	movegen.InsufficientMaterialDraw: "insufficient-material",
}

func colorName(c board.Color) string {
	if c == board.White {
		return "white"
	}
	return "black"
}

// result returns the PGN result and the reason in words.
func result(p *board.Position, st movegen.Status) (string, string) {
	switch st {
	case movegen.Ongoing:
		return "*", ""
	case movegen.Checkmate:
		if p.Side() == board.White {
			return "0-1", "Checkmate: Black wins"
		}
		return "1-0", "Checkmate: White wins"
	case movegen.Stalemate:
		return "1/2-1/2", "Stalemate: draw"
	case movegen.ThreefoldDraw:
		return "1/2-1/2", "Threefold repetition: draw"
	case movegen.FiftyMoveDraw:
		return "1/2-1/2", "Fifty-move rule: draw"
	default:
		return "1/2-1/2", "Insufficient material: draw"
	}
}

// state builds the game's State (g.mu held).
func (g *game) state() State {
	p := g.pos
	st := movegen.GameStatus(p)
	res, reason := result(p, st)
	s := State{
		ID: g.id, FEN: p.FEN(), StartFEN: g.start.FEN(),
		Moves: g.san(), UCIMoves: make([]string, 0, len(g.moves)), Legal: []string{},
		Turn: colorName(p.Side()), Check: movegen.InCheck(p),
		Status: statusNames[st], Reason: reason, Result: res,
		Mind: g.mind, Level: g.level.String(),
		Thinking: g.thinking, Analysing: g.analysis.running(),
		FENs:      make([]string, 0, len(g.moves)+1),
		Notes:     notesJSON(g.start, g.moves, g.notes, 0),
		Comment:   g.comment,
		Review:    g.review.status(),
		Tablebase: probeTablebase(g.tables, p),
	}
	if st == movegen.Ongoing && g.result != "" {
		s.Result = g.result
	}
	for _, t := range g.tags {
		s.Tags = append(s.Tags, Tag{t.Name, t.Value})
	}
	q := g.start.Clone()
	s.FENs = append(s.FENs, q.FEN())
	for _, m := range g.moves {
		s.UCIMoves = append(s.UCIMoves, m.UCI(p.Chess960()))
		q.Make(m)
		s.FENs = append(s.FENs, q.FEN())
	}
	if n := len(g.moves); n > 0 {
		s.LastMove = s.UCIMoves[n-1]
	}
	if !st.Over() {
		var ml movegen.MoveList
		movegen.Legal(p, &ml)
		for _, m := range ml.Moves() {
			s.Legal = append(s.Legal, m.UCI(p.Chess960()))
		}
	}
	return s
}

// san writes the game's moves in SAN, replaying them from the start.
func (g *game) san() []string {
	p := g.start.Clone()
	out := make([]string, 0, len(g.moves))
	for _, m := range g.moves {
		out = append(out, movegen.SAN(p, m))
		p.Make(m)
	}
	return out
}

// sanLine writes a line of moves from p in SAN (p is not changed).
func sanLine(p *board.Position, pv []board.Move) []string {
	q := p.Clone()
	out := make([]string, 0, len(pv))
	for _, m := range pv {
		out = append(out, movegen.SAN(q, m))
		q.Make(m)
	}
	return out
}

// play makes a move given in UCI (g.mu held). A malformed move and an
// illegal one are told apart so the API can answer 400 or 422.
func (g *game) play(uci string) error {
	if st := movegen.GameStatus(g.pos); st.Over() {
		return &apiError{status: 409, msg: fmt.Sprintf("the game is over (%s)", st)}
	}
	m, err := movegen.ParseUCI(g.pos, strings.TrimSpace(uci))
	if err != nil {
		if errors.Is(err, movegen.ErrIllegalMove) {
			return &apiError{status: 422, msg: fmt.Sprintf("illegal move %q in this position", uci)}
		}
		return &apiError{status: 400, msg: err.Error()}
	}
	g.pos.Make(m)
	g.moves = append(g.moves, m)
	g.result = ""
	return nil
}

// undo takes back n plies (g.mu held).
func (g *game) undo(n int) error {
	if n < 1 || n > len(g.moves) {
		return &apiError{status: 409, msg: fmt.Sprintf("cannot undo %d plies: the game has %d", n, len(g.moves))}
	}
	g.truncate(len(g.moves) - n)
	return nil
}

// pgnGame is the game for the PGN writer (g.mu held): an imported game
// keeps its tags, comments and variations.
func (g *game) pgnGame() pgn.Game {
	st := movegen.GameStatus(g.pos)
	res, reason := result(g.pos, st)
	if st == movegen.Ongoing && g.result != "" {
		res = g.result
	}
	gm := pgn.Game{Result: res, Termination: reason, Moves: g.moves, Comment: g.comment, Tags: g.tags}
	if len(g.notes) > 0 {
		gm.Notes = append([]pgn.Note(nil), g.notes...)
		for len(gm.Notes) < len(gm.Moves) {
			gm.Notes = append(gm.Notes, pgn.Note{})
		}
	}
	if g.tags == nil {
		gm.Event, gm.Site, gm.Date = "Twofold in the browser", "engine serve", g.created
	}
	if g.start.FEN() != board.StartPosition().FEN() || g.start.Chess960() {
		gm.Start = g.start
	}
	return gm
}

// pgn renders the game (g.mu held).
func (g *game) pgn() string { return g.pgnGame().String() }
