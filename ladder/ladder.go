package ladder

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"text/tabwriter"

	"github.com/twofold-chess/twofold/board"
	"github.com/twofold-chess/twofold/movegen"
	"github.com/twofold-chess/twofold/pgn"
)

// Player is one side of a ladder game. The ladder's own rungs implement it,
// and so must the network being measured.
type Player interface {
	// Name identifies the player in tables and CSV headers.
	Name() string
	// NewGame is called before every game so a player can clear per-game
	// state (a search tree, a history). The rungs keep their random stream
	// running across games so that repeated openings still give new games.
	NewGame()
	// Move returns a legal move in p. p carries the game's history so the
	// repetition rules work inside a search. Move is never called when the
	// game is over, and it must leave p exactly as it found it (make/unmake
	// or work on a Clone): Play checks that and forfeits a player that
	// returns an illegal move or changes the position.
	Move(p *board.Position) board.Move
}

// Result is the outcome of a game from White's point of view.
type Result int

// The three outcomes.
const (
	WhiteWin Result = iota
	Draw
	BlackWin
)

// String writes the result as in PGN.
func (r Result) String() string {
	switch r {
	case WhiteWin:
		return "1-0"
	case BlackWin:
		return "0-1"
	}
	return "1/2-1/2"
}

// Reason is why a game ended.
type Reason int

// The ways a game ends. ReasonPlyCap is the ladder's own adjudication (a
// draw) so a slow or aimless game cannot stall a match; ReasonIllegalMove
// forfeits a player that broke the Player contract instead of panicking.
const (
	ReasonCheckmate Reason = iota
	ReasonStalemate
	ReasonFiftyMove
	ReasonThreefold
	ReasonInsufficientMaterial
	ReasonPlyCap
	ReasonIllegalMove
)

// String names the reason for logs and tables.
func (r Reason) String() string {
	names := [...]string{"checkmate", "stalemate", "fifty-move rule", "threefold repetition",
		"insufficient material", "ply cap", "illegal move"}
	if r < 0 || int(r) >= len(names) {
		return fmt.Sprintf("Reason(%d)", int(r))
	}
	return names[r]
}

// GameResult records one finished game.
type GameResult struct {
	Result Result
	Reason Reason
	// Detail explains a forfeit (which player, which move, in which
	// position); it is empty otherwise.
	Detail string
	// Opening is the UCI move sequence that led from the standard start to
	// StartFEN; empty when the game started from a given position.
	Opening string
	// StartFEN is the position the players started from.
	StartFEN string
	// Moves are the moves the players made from StartFEN, in order. A
	// forfeited illegal move is not included.
	Moves []board.Move
	// Plies is len(Moves).
	Plies int

	chess960 bool
}

// MovesUCI returns the players' moves as space-separated UCI, for logs and
// for replaying a game with movegen.ParseUCI.
func (g GameResult) MovesUCI() string {
	s := make([]string, len(g.Moves))
	for i, m := range g.Moves {
		s[i] = m.UCI(g.chess960)
	}
	return strings.Join(s, " ")
}

// PGN returns the game for a PGN file, with white and black as the players'
// names and the ending as the Termination tag; the caller fills in the
// event, site, date and round.
func (g GameResult) PGN(white, black string) pgn.Game {
	start, err := board.ParseFEN(g.StartFEN)
	if err != nil {
		// StartFEN was written by Position.FEN, so this is a bug here.
		panic("ladder: unreadable StartFEN " + g.StartFEN + ": " + err.Error())
	}
	start.SetChess960(g.chess960)
	return pgn.Game{
		White:       white,
		Black:       black,
		Result:      g.Result.String(),
		Termination: g.Reason.String(),
		Start:       start,
		Moves:       g.Moves,
	}
}

// Play plays one game from the position reached by opening (UCI moves from
// the standard start, space-separated; empty for the start itself). It
// returns an error only when opening is not a legal move sequence; what
// happens during the game is in the GameResult. maxPlies caps the plies the
// players make (a draw when reached); zero or less means no cap, which is
// safe because the fifty-move rule ends every game.
func Play(white, black Player, opening string, maxPlies int) (GameResult, error) {
	p, err := OpeningPosition(opening)
	if err != nil {
		return GameResult{}, err
	}
	g := PlayFrom(white, black, p, maxPlies)
	g.Opening = strings.Join(strings.Fields(opening), " ")
	return g, nil
}

// PlayFrom plays one game from start (which is not modified; a Clone is
// played on, history included). White and black are the players of those
// colours, whoever is to move in start. Every move a player returns is
// checked against movegen.Legal before it is made, and the position is
// checked to be unchanged after Move returns; a player that fails either
// check loses at once with ReasonIllegalMove. The other endings are those
// of movegen.GameStatus, tested before every move, and the ply cap.
func PlayFrom(white, black Player, start *board.Position, maxPlies int) GameResult {
	p := start.Clone()
	g := GameResult{StartFEN: p.FEN(), chess960: p.Chess960()}
	players := [2]Player{white, black}
	var ml movegen.MoveList
	for {
		switch st := movegen.GameStatus(p); st {
		case movegen.Ongoing:
		case movegen.Checkmate:
			g.Reason = ReasonCheckmate
			g.Result = winFor(p.Side().Other())
			return g
		default:
			g.Reason = drawReason(st)
			g.Result = Draw
			return g
		}
		if maxPlies > 0 && g.Plies >= maxPlies {
			g.Reason, g.Result = ReasonPlyCap, Draw
			return g
		}
		side := p.Side()
		pl := players[side]
		key, ply := p.Key(), p.Ply()
		m := pl.Move(p)
		if p.Key() != key || p.Ply() != ply {
			return forfeit(g, side, fmt.Sprintf("%s (%s) changed the position it was given, after %d plies from %s",
				colourName(side), pl.Name(), g.Plies, g.StartFEN))
		}
		movegen.Legal(p, &ml)
		if !ml.Contains(m) {
			return forfeit(g, side, fmt.Sprintf("%s (%s) played %s, not legal in %s",
				colourName(side), pl.Name(), m.UCI(p.Chess960()), p.FEN()))
		}
		p.Make(m)
		g.Moves = append(g.Moves, m)
		g.Plies++
	}
}

func forfeit(g GameResult, loser board.Color, detail string) GameResult {
	g.Result = winFor(loser.Other())
	g.Reason = ReasonIllegalMove
	g.Detail = detail
	return g
}

func winFor(c board.Color) Result {
	if c == board.White {
		return WhiteWin
	}
	return BlackWin
}

func drawReason(st movegen.Status) Reason {
	switch st {
	case movegen.Stalemate:
		return ReasonStalemate
	case movegen.FiftyMoveDraw:
		return ReasonFiftyMove
	case movegen.ThreefoldDraw:
		return ReasonThreefold
	}
	return ReasonInsufficientMaterial
}

func colourName(c board.Color) string {
	if c == board.White {
		return "white"
	}
	return "black"
}

// Score counts a player's games: wins, draws and losses from its own view.
type Score struct {
	W, D, L int
}

// Games returns the number of games counted.
func (s Score) Games() int { return s.W + s.D + s.L }

// Points returns the match points, a win counting one and a draw one half.
func (s Score) Points() float64 { return float64(s.W) + float64(s.D)/2 }

// Percent returns the points as a percentage of the games (0 with no games),
// the number the learning curve plots.
func (s Score) Percent() float64 {
	if s.Games() == 0 {
		return 0
	}
	return 100 * s.Points() / float64(s.Games())
}

// String writes the score as "W/D/L".
func (s Score) String() string { return fmt.Sprintf("%d/%d/%d", s.W, s.D, s.L) }

// add counts one game result for the side that played colour c.
func (s *Score) add(r Result, c board.Color) {
	switch {
	case r == Draw:
		s.D++
	case (r == WhiteWin) == (c == board.White):
		s.W++
	default:
		s.L++
	}
}

// Match plays games games between subject and opponent and returns the
// subject's score. Game 2k and game 2k+1 are played from the same opening,
// Openings()[k mod len], with subject White in game 2k and Black in game
// 2k+1, so neither the openings nor the first move favour a side. NewGame is
// called on both players before each game. progress, if not nil, is called
// after every game with the number of games done, the score so far and the
// game itself (for a PGN log).
func Match(subject, opponent Player, games, maxPlies int, progress func(done int, s Score, g GameResult)) Score {
	return MatchFrom(subject, opponent, openingPositions(), games, maxPlies, progress)
}

// MatchFrom is Match from the given start positions instead of the fixed
// openings: game 2k and 2k+1 start from starts[k mod len(starts)].
func MatchFrom(subject, opponent Player, starts []*board.Position, games, maxPlies int, progress func(done int, s Score, g GameResult)) Score {
	var s Score
	for i := 0; i < games && len(starts) > 0; i++ {
		start := starts[(i/2)%len(starts)]
		subject.NewGame()
		opponent.NewGame()
		var g GameResult
		if i%2 == 0 {
			g = PlayFrom(subject, opponent, start, maxPlies)
			s.add(g.Result, board.White)
		} else {
			g = PlayFrom(opponent, subject, start, maxPlies)
			s.add(g.Result, board.Black)
		}
		if progress != nil {
			progress(i+1, s, g)
		}
	}
	return s
}

// RandomStarts returns n start positions, each one of the fixed openings
// (in turn) followed by plies uniformly random legal moves drawn from seed.
// A line that ends the game is drawn again. Matches between two versions of
// one network use them (a new seed each time), so that two near-identical,
// near-deterministic players do not replay the same few lines every time.
func RandomStarts(n, plies int, seed uint64) []*board.Position {
	rng := newRNG(seed)
	book := openingPositions()
	starts := make([]*board.Position, 0, n)
	var ml movegen.MoveList
	for len(starts) < n {
		p := book[len(starts)%len(book)].Clone()
		for range plies {
			movegen.Legal(p, &ml)
			if ml.Len() == 0 {
				break
			}
			p.Make(ml.At(rng.IntN(ml.Len())))
		}
		if movegen.GameStatus(p) == movegen.Ongoing {
			starts = append(starts, p)
		}
	}
	return starts
}

// openingPositions parses the fixed openings once. They are a constant
// table whose legality the tests check, so a failure here is a bug in this
// package and panics like a bad regexp.MustCompile.
var openingPositions = sync.OnceValue(func() []*board.Position {
	ps := make([]*board.Position, len(openings))
	for i, o := range openings {
		p, err := o.Position()
		if err != nil {
			panic("ladder: bad fixed opening: " + err.Error())
		}
		ps[i] = p
	}
	return ps
})

// RungResult is the subject's score against one rung.
type RungResult struct {
	Name string
	Score
}

// Run plays subject against every rung of Rungs(seed), games games each
// (see Match), weakest rung first, and returns one RungResult per rung in
// that order. progress, if not nil, is called after every game with the
// rung's name, the games done against it and the score so far.
func Run(subject Player, games, maxPlies int, seed uint64, progress func(rung string, done int, s Score, g GameResult)) []RungResult {
	rungs := Rungs(seed)
	results := make([]RungResult, 0, len(rungs))
	for _, r := range rungs {
		name := r.Name()
		var cb func(int, Score, GameResult)
		if progress != nil {
			cb = func(done int, s Score, g GameResult) { progress(name, done, s, g) }
		}
		results = append(results, RungResult{Name: name, Score: Match(subject, r, games, maxPlies, cb)})
	}
	return results
}

// FormatTable writes results as an aligned table: rung, games, W/D/L and
// score percentage.
func FormatTable(w io.Writer, results []RungResult) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "rung\tgames\tW\tD\tL\tscore %\t")
	for _, r := range results {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%.1f\t\n", r.Name, r.Games(), r.W, r.D, r.L, r.Percent())
	}
	return tw.Flush()
}

// CSVHeader returns the header line of the learning-curve CSV (no newline):
// "iteration" and then the name of every rung in ladder order.
func CSVHeader() string {
	return "iteration," + strings.Join(RungNames(), ",")
}

// CSVRow returns one learning-curve line (no newline): the iteration and the
// score percentage against every rung, in the columns of CSVHeader. Rungs
// are matched by name, so results may come in any order; a rung missing from
// results leaves its field empty rather than shifting the columns.
func CSVRow(iteration int, results []RungResult) string {
	byName := make(map[string]Score, len(results))
	for _, r := range results {
		byName[r.Name] = r.Score
	}
	fields := []string{fmt.Sprint(iteration)}
	for _, name := range RungNames() {
		if s, ok := byName[name]; ok {
			fields = append(fields, fmt.Sprintf("%.1f", s.Percent()))
		} else {
			fields = append(fields, "")
		}
	}
	return strings.Join(fields, ",")
}
