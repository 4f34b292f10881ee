package ladder

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twofold-chess/twofold/board"
	"github.com/twofold-chess/twofold/movegen"
)

// mustFEN parses and validates fen or stops the test.
func mustFEN(t testing.TB, fen string) *board.Position {
	t.Helper()
	p, err := movegen.ParseFEN(fen)
	require.NoError(t, err, fen)
	return p
}

// mustUCI parses a legal UCI move in p or stops the test.
func mustUCI(t testing.TB, p *board.Position, s string) board.Move {
	t.Helper()
	m, err := movegen.ParseUCI(p, s)
	require.NoError(t, err)
	return m
}

func legalMoves(p *board.Position) []board.Move {
	var ml movegen.MoveList
	movegen.Legal(p, &ml)
	return append([]board.Move(nil), ml.Moves()...)
}

// hasMateInOne reports whether the side to move can mate at once.
func hasMateInOne(p *board.Position) bool {
	for _, m := range legalMoves(p) {
		p.Make(m)
		mate := movegen.GameStatus(p) == movegen.Checkmate
		p.Unmake()
		if mate {
			return true
		}
	}
	return false
}

// isMatedInOne reports whether the side to move, not yet mated, has only
// replies after which the opponent mates at once: a forced mate in one move
// of the opponent, found by brute force independently of the searcher.
func isMatedInOne(p *board.Position) bool {
	replies := legalMoves(p)
	if len(replies) == 0 {
		return false
	}
	for _, m := range replies {
		p.Make(m)
		mate := hasMateInOne(p)
		p.Unmake()
		if !mate {
			return false
		}
	}
	return true
}

// scripted plays a fixed list of UCI moves, then nothing legal.
type scripted struct {
	moves []string
	i     int
}

func (s *scripted) Name() string { return "scripted" }
func (s *scripted) NewGame()     { s.i = 0 }
func (s *scripted) Move(p *board.Position) board.Move {
	if s.i >= len(s.moves) {
		return board.NoMove
	}
	m, err := movegen.ParseUCI(p, s.moves[s.i])
	s.i++
	if err != nil {
		return board.NoMove
	}
	return m
}

// fixedMove always returns the same move, legal or not.
type fixedMove struct{ m board.Move }

func (f fixedMove) Name() string                    { return "fixed" }
func (f fixedMove) NewGame()                        {}
func (f fixedMove) Move(*board.Position) board.Move { return f.m }

// mutator returns a legal move but leaves it made on the position.
type mutator struct{}

func (mutator) Name() string { return "mutator" }
func (mutator) NewGame()     {}
func (mutator) Move(p *board.Position) board.Move {
	m := legalMoves(p)[0]
	p.Make(m)
	return m
}

// TestOpeningsLegal checks the fixed book: every line legal, 1 to 6 plies,
// names and resulting positions distinct, no game already over, and the
// exported copy cannot change the ladder.
func TestOpeningsLegal(t *testing.T) {
	book := Openings()
	require.GreaterOrEqual(t, len(book), 20)
	names := map[string]bool{}
	keys := map[uint64]string{}
	for _, o := range book {
		p, err := o.Position()
		require.NoError(t, err, o.Name)
		n := len(strings.Fields(o.Moves))
		assert.True(t, n >= 1 && n <= 6, "%s has %d plies", o.Name, n)
		assert.Equal(t, n, p.Ply(), o.Name)
		assert.Equal(t, movegen.Ongoing, movegen.GameStatus(p), o.Name)
		assert.False(t, names[o.Name], "duplicate name %s", o.Name)
		names[o.Name] = true
		if other, dup := keys[p.Key()]; dup {
			t.Errorf("%s reaches the same position as %s", o.Name, other)
		}
		keys[p.Key()] = o.Name
	}
	book[0].Moves = "e2e5"
	assert.NotEqual(t, "e2e5", Openings()[0].Moves, "Openings must return a copy")
	assert.Len(t, openingPositions(), len(book))
}

func TestOpeningPositionRejectsIllegal(t *testing.T) {
	for _, moves := range []string{"e2e5", "e2e4 e2e4", "e2e4 e7e5 zz"} {
		_, err := OpeningPosition(moves)
		assert.Error(t, err, moves)
	}
	p, err := OpeningPosition("")
	require.NoError(t, err)
	assert.Equal(t, board.StartFEN, p.FEN())
	_, err = Play(NewRandom(1), NewRandom(2), "e2e4 e7e4", 10)
	assert.ErrorIs(t, err, movegen.ErrIllegalMove)
}

// TestRandomAndGreedyLegal plays whole games between the two lower rungs and
// replays every recorded move independently: Play's own checks would report
// an illegal move, and the replay must end in the reported state.
func TestRandomAndGreedyLegal(t *testing.T) {
	games := 20
	if testing.Short() {
		games = 8
	}
	book := Openings()
	for i := 0; i < games; i++ {
		r, gr := NewRandom(uint64(i)), NewGreedy(uint64(100+i))
		white, black := r, gr
		if i%2 == 1 {
			white, black = gr, r
		}
		g, err := Play(white, black, book[i%len(book)].Moves, 0)
		require.NoError(t, err)
		require.NotEqual(t, ReasonIllegalMove, g.Reason, g.Detail)
		assert.NotEqual(t, ReasonPlyCap, g.Reason, "no cap was set")
		assert.Equal(t, len(g.Moves), g.Plies)

		p := mustFEN(t, board.StartFEN)
		for _, s := range strings.Fields(g.Opening + " " + g.MovesUCI()) {
			p.Make(mustUCI(t, p, s))
		}
		st := movegen.GameStatus(p)
		want := map[Reason]movegen.Status{
			ReasonCheckmate: movegen.Checkmate, ReasonStalemate: movegen.Stalemate,
			ReasonFiftyMove: movegen.FiftyMoveDraw, ReasonThreefold: movegen.ThreefoldDraw,
			ReasonInsufficientMaterial: movegen.InsufficientMaterialDraw,
		}[g.Reason]
		assert.Equal(t, want, st, "game %d: %s", i, g.Reason)
		if g.Reason == ReasonCheckmate {
			assert.Equal(t, winFor(p.Side().Other()), g.Result)
		} else {
			assert.Equal(t, Draw, g.Result)
		}
	}
}

func TestGreedy(t *testing.T) {
	tests := []struct {
		name string
		fen  string
		want []string // acceptable moves
		all  bool     // every acceptable move must be seen over the seeds
	}{
		{"queen before knight", "4k3/8/2q1n3/3P4/8/8/8/4K3 w - - 0 1", []string{"d5c6"}, false},
		{"defended rook before bishop", "3k4/3b4/8/8/r7/8/8/3QK3 w - - 0 1", []string{"d1a4"}, false},
		{"black takes the queen", "4k3/8/8/8/3p4/2Q1N3/8/6K1 b - - 0 1", []string{"d4c3"}, false},
		{"en passant", "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", []string{"e5d6"}, false},
		{"capture-promotion", "1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1", []string{"a7b8q", "a7b8r", "a7b8b", "a7b8n"}, false},
		{"equal victims at random", "4k3/3q4/8/8/q2R4/8/8/4K3 w - - 0 1", []string{"d4d7", "d4a4"}, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := mustFEN(t, tc.fen)
			fen := p.FEN()
			seen := map[string]bool{}
			for seed := uint64(0); seed < 30; seed++ {
				m := NewGreedy(seed).Move(p)
				require.Contains(t, tc.want, m.String())
				seen[m.String()] = true
				require.Equal(t, fen, p.FEN())
			}
			if tc.all {
				assert.Len(t, seen, len(tc.want))
			}
		})
	}
}

// TestRandomIsUniformish checks that without captures the greedy player and
// the random player spread their choices instead of always taking the same
// move.
func TestRandomIsUniformish(t *testing.T) {
	p := board.StartPosition()
	for _, mk := range []func(uint64) Player{NewRandom, NewGreedy} {
		seen := map[board.Move]int{}
		for seed := uint64(0); seed < 200; seed++ {
			seen[mk(seed).Move(p)]++
		}
		assert.Greater(t, len(seen), 15, "%d distinct first moves out of 20", len(seen))
	}
}

func TestAlphaBetaTakesHangingQueen(t *testing.T) {
	tests := []struct{ fen, want string }{
		{"4k3/8/8/3q4/8/8/8/3RK3 w - - 0 1", "d1d5"},
		{"3rk3/8/8/8/3Q4/8/8/4K3 b - - 0 1", "d8d4"},
		{"4k3/8/8/8/3q4/8/4N3/4K3 w - - 0 1", "e2d4"},
	}
	for _, tc := range tests {
		for depth := 1; depth <= 4; depth++ {
			p := mustFEN(t, tc.fen)
			assert.Equal(t, tc.want, NewAlphaBeta(depth, 1).Move(p).String(), "d%d %s", depth, tc.fen)
		}
	}
}

func TestAlphaBetaMateInOne(t *testing.T) {
	// Rd8# beats taking the queen on c3; ...Rd1# needs no distractor.
	for _, fen := range []string{
		"6k1/5ppp/8/1N6/8/2q5/5PPP/3R2K1 w - - 0 1",
		"3r2k1/5ppp/8/8/8/8/Q4PPP/6K1 b - - 0 1",
	} {
		for depth := 1; depth <= 4; depth++ {
			a := NewAlphaBeta(depth, 1).(*alphaBeta)
			p := mustFEN(t, fen)
			p.Make(a.Move(p))
			assert.Equal(t, movegen.Checkmate, movegen.GameStatus(p), "d%d %s", depth, fen)
			assert.Equal(t, mateScore-1, a.score, "d%d", depth)
		}
	}
}

func TestAlphaBetaAvoidsMateInOne(t *testing.T) {
	// Rxc7 wins a knight but gives up the back rank: ...Re1#.
	const fen = "4r1k1/2n2ppp/8/8/8/8/5PPP/2R3K1 w - - 0 1"
	p := mustFEN(t, fen)
	assert.Equal(t, "c1c7", NewAlphaBeta(1, 1).Move(p).String(), "the trap must tempt a one-ply search")
	for depth := 2; depth <= 4; depth++ {
		for seed := uint64(0); seed < 5; seed++ {
			m := NewAlphaBeta(depth, seed).Move(p)
			p.Make(m)
			assert.False(t, hasMateInOne(p), "d%d played %s, allowing mate", depth, m)
			p.Unmake()
		}
	}
}

func TestAlphaBetaMateInTwo(t *testing.T) {
	for _, fen := range []string{
		"r5k1/5ppp/8/8/8/8/3R1PPP/3R2K1 w - - 0 1", // 1.Rd8+ Rxd8 2.Rxd8#
		"3r2k1/3r1ppp/8/8/8/8/5PPP/R5K1 b - - 0 1", // 1...Rd1+ 2.Rxd1 Rxd1#
	} {
		p := mustFEN(t, fen)
		require.False(t, hasMateInOne(p), "not a mate in two: %s", fen)
		for depth := 3; depth <= 4; depth++ {
			a := NewAlphaBeta(depth, 1).(*alphaBeta)
			m := a.Move(p)
			p.Make(m)
			assert.True(t, isMatedInOne(p), "d%d played %s in %s", depth, m, fen)
			p.Unmake()
			assert.Equal(t, mateScore-3, a.score, "d%d", depth)
		}
		// Two plies cannot see it: the score stays a material one.
		a := NewAlphaBeta(2, 1).(*alphaBeta)
		a.Move(p)
		assert.Less(t, a.score, mateScore-100)
	}
}

// TestAlphaBetaLeavesPositionUnchanged checks the Player contract on
// positions with castling, en passant and promotions about.
func TestAlphaBetaLeavesPositionUnchanged(t *testing.T) {
	for _, fen := range []string{
		board.StartFEN,
		"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
		"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
		"n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
	} {
		for depth := 1; depth <= 4; depth++ {
			p := mustFEN(t, fen)
			before, key, ply := p.FEN(), p.Key(), p.Ply()
			m := NewAlphaBeta(depth, 3).Move(p)
			assert.Contains(t, legalMoves(p), m)
			assert.Equal(t, before, p.FEN())
			assert.Equal(t, key, p.Key())
			assert.Equal(t, ply, p.Ply())
		}
	}
}

// minimax is the searcher's tree without pruning or ordering: the scores
// alpha-beta must reproduce exactly.
func minimax(p *board.Position, depth, ply int) int {
	if ply > 0 && (p.IsRepetition() || p.InsufficientMaterial()) {
		return 0
	}
	moves := legalMoves(p)
	if len(moves) == 0 {
		if movegen.InCheck(p) {
			return -(mateScore - ply)
		}
		return 0
	}
	if ply > 0 && p.FiftyMoveRule() {
		return 0
	}
	if depth == 0 {
		return evaluate(p)
	}
	best := -infinity
	for _, m := range moves {
		p.Make(m)
		best = max(best, -minimax(p, depth-1, ply+1))
		p.Unmake()
	}
	return best
}

// TestAlphaBetaMatchesMinimax checks that pruning and move ordering change
// nothing: the root score is the minimax score, every move chosen over many
// seeds is a minimax-best move, and ties are really drawn at random.
func TestAlphaBetaMatchesMinimax(t *testing.T) {
	maxD := 3
	if testing.Short() {
		maxD = 2
	}
	for _, fen := range []string{
		board.StartFEN,
		"r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
		"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
		"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
	} {
		p := mustFEN(t, fen)
		for depth := 1; depth <= maxD; depth++ {
			scores := map[board.Move]int{}
			best := -infinity
			for _, m := range legalMoves(p) {
				p.Make(m)
				scores[m] = -minimax(p, depth-1, 1)
				p.Unmake()
				best = max(best, scores[m])
			}
			ties := 0
			for _, s := range scores {
				if s == best {
					ties++
				}
			}
			chosen := map[board.Move]bool{}
			for seed := uint64(0); seed < 12; seed++ {
				a := NewAlphaBeta(depth, seed).(*alphaBeta)
				m := a.Move(p)
				require.Equal(t, best, a.score, "d%d %s", depth, fen)
				require.Equal(t, best, scores[m], "d%d chose %s in %s", depth, m, fen)
				chosen[m] = true
			}
			if ties > 1 {
				assert.Greater(t, len(chosen), 1, "d%d: %d tied moves, always the same chosen in %s", depth, ties, fen)
			}
		}
	}
}

func TestAlphaBetaSeesRepetitionAsDraw(t *testing.T) {
	// Black is a queen down. Nf6-g8 repeats the starting position, which the
	// searcher scores as a draw, so the losing side heads for it although the
	// tables prefer the knight on f6.
	p := mustFEN(t, "4k1n1/8/8/8/8/8/8/Q3K1N1 w - - 0 1")
	for _, s := range strings.Fields("g1f3 g8f6 f3g1") {
		p.Make(mustUCI(t, p, s))
	}
	for depth := 1; depth <= 4; depth++ {
		a := NewAlphaBeta(depth, 1).(*alphaBeta)
		assert.Equal(t, "f6g8", a.Move(p).String(), "d%d", depth)
		assert.Equal(t, 0, a.score, "d%d", depth)
	}
	// Without the history the same placement is just lost.
	fresh := mustFEN(t, p.FEN())
	a := NewAlphaBeta(1, 1).(*alphaBeta)
	assert.NotEqual(t, "f6g8", a.Move(fresh).String())
	assert.Less(t, a.score, -500)
}

func TestAlphaBetaNames(t *testing.T) {
	assert.Equal(t, "alphabeta-d2", NewAlphaBeta(2, 0).Name())
	assert.Equal(t, "alphabeta-d1", NewAlphaBeta(0, 0).Name(), "depth clamps to 1")
	var names []string
	for _, r := range Rungs(7) {
		names = append(names, r.Name())
	}
	assert.Equal(t, []string{"random", "greedy", "alphabeta-d1", "alphabeta-d2", "alphabeta-d3", "alphabeta-d4"}, names)
	assert.Equal(t, names, RungNames())
}

func TestEvaluateSymmetric(t *testing.T) {
	assert.Equal(t, 0, evaluate(board.StartPosition()))
	// The same position with colours swapped scores the same for the mover.
	a := mustFEN(t, "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
	b := mustFEN(t, "rnbqkb1r/pppp1ppp/5n2/4p3/4P3/2N5/PPPP1PPP/R1BQKBNR b KQkq - 2 3")
	assert.Equal(t, evaluate(a), evaluate(b))
	// A knight in the centre is worth more than one on the rim, to both sides.
	assert.Greater(t, evaluate(mustFEN(t, "4k3/8/8/8/3N4/8/8/4K3 w - - 0 1")), evaluate(mustFEN(t, "4k3/8/8/8/N7/8/8/4K3 w - - 0 1")))
	assert.Equal(t, -320-20, evaluate(mustFEN(t, "4k3/8/8/8/3N4/8/8/4K3 b - - 0 1")))
}

func TestAlphaBetaBeatsRandom(t *testing.T) {
	games := 10
	if testing.Short() {
		games = 4
	}
	s := Match(NewAlphaBeta(2, 1), NewRandom(2), games, 200, nil)
	assert.Equal(t, games, s.Games())
	assert.GreaterOrEqual(t, s.Percent(), 80.0, "d2 vs random %s", s)
}

func TestPlayEndings(t *testing.T) {
	knights := func() Player { return &scripted{moves: strings.Fields("g1f3 f3g1 g1f3 f3g1")} }
	knightsB := func() Player { return &scripted{moves: strings.Fields("g8f6 f6g8 g8f6 f6g8")} }
	tests := []struct {
		name         string
		white, black Player
		fen          string
		maxPlies     int
		result       Result
		reason       Reason
		plies        int
	}{
		{"mate delivered", NewAlphaBeta(1, 1), NewRandom(1), "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", 0, WhiteWin, ReasonCheckmate, 1},
		{"already mated", NewRandom(1), NewRandom(2), "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3", 0, BlackWin, ReasonCheckmate, 0},
		{"black mates", NewRandom(1), NewAlphaBeta(2, 1), "3r2k1/5ppp/8/8/8/8/5PPP/6K1 b - - 0 1", 0, BlackWin, ReasonCheckmate, 1},
		{"stalemate", NewRandom(1), NewRandom(2), "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", 0, Draw, ReasonStalemate, 0},
		{"stalemate delivered", fixedMoveUCI(t, "7k/8/6K1/8/8/8/8/5Q2 w - - 0 1", "f1f7"), NewRandom(1), "7k/8/6K1/8/8/8/8/5Q2 w - - 0 1", 0, Draw, ReasonStalemate, 1},
		{"insufficient material", NewGreedy(1), NewRandom(1), "4k3/8/8/8/8/8/3p4/4K3 w - - 0 1", 0, Draw, ReasonInsufficientMaterial, 1},
		{"fifty moves", NewRandom(1), NewRandom(1), "4k3/8/8/8/8/8/8/R3K3 w - - 99 80", 0, Draw, ReasonFiftyMove, 1},
		{"threefold", knights(), knightsB(), board.StartFEN, 0, Draw, ReasonThreefold, 8},
		{"ply cap", NewRandom(1), NewRandom(2), board.StartFEN, 10, Draw, ReasonPlyCap, 10},
		{"white plays no move", fixedMove{board.NoMove}, NewRandom(1), board.StartFEN, 0, BlackWin, ReasonIllegalMove, 0},
		{"white moves into nothing", fixedMove{board.NewMove(board.NewSquare(4, 1), board.NewSquare(4, 4))}, NewRandom(1), board.StartFEN, 0, BlackWin, ReasonIllegalMove, 0},
		{"black plays a white move", NewRandom(1), fixedMove{board.NewMove(board.NewSquare(3, 1), board.NewSquare(3, 3))}, board.StartFEN, 0, WhiteWin, ReasonIllegalMove, 1},
		{"black changes the position", NewRandom(1), mutator{}, board.StartFEN, 0, WhiteWin, ReasonIllegalMove, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			start := mustFEN(t, tc.fen)
			fen := start.FEN()
			g := PlayFrom(tc.white, tc.black, start, tc.maxPlies)
			assert.Equal(t, tc.result, g.Result, "%s %s", g.Reason, g.Detail)
			assert.Equal(t, tc.reason, g.Reason, g.Detail)
			assert.Equal(t, tc.plies, g.Plies)
			assert.Len(t, g.Moves, tc.plies)
			assert.Equal(t, fen, g.StartFEN)
			assert.Equal(t, fen, start.FEN(), "PlayFrom must not change its start")
			assert.Equal(t, tc.reason == ReasonIllegalMove, g.Detail != "", g.Detail)
		})
	}
}

// fixedMoveUCI is a player that always plays move s of position fen.
func fixedMoveUCI(t *testing.T, fen, s string) Player {
	return fixedMove{mustUCI(t, mustFEN(t, fen), s)}
}

func TestPlayRecordsOpening(t *testing.T) {
	g, err := Play(NewRandom(1), NewRandom(2), " e2e4  c7c5 ", 6)
	require.NoError(t, err)
	assert.Equal(t, "e2e4 c7c5", g.Opening)
	assert.Equal(t, "rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2", g.StartFEN)
	assert.Equal(t, 6, g.Plies)
	assert.Len(t, strings.Fields(g.MovesUCI()), 6)
}

// colourLog records, per game of a match, the subject's colour and the
// position the first mover was given.
type colourLog struct {
	colour []board.Color
	first  []string
}

// logged wraps a player to fill a colourLog. The subject's NewGame opens a
// new game entry (Match calls it before the opponent's).
type logged struct {
	Player
	log     *colourLog
	subject bool
}

func (l logged) NewGame() {
	l.Player.NewGame()
	if l.subject {
		l.log.colour = append(l.log.colour, 255)
		l.log.first = append(l.log.first, "")
	}
}

func (l logged) Move(p *board.Position) board.Move {
	g := len(l.log.first) - 1
	if l.log.first[g] == "" {
		l.log.first[g] = p.FEN()
	}
	if l.subject && l.log.colour[g] == 255 {
		l.log.colour[g] = p.Side()
	}
	return l.Player.Move(p)
}

func TestMatchAlternatesColours(t *testing.T) {
	log := &colourLog{}
	subject := logged{NewRandom(1), log, true}
	opponent := logged{NewRandom(2), log, false}
	const games = 8
	var done []int
	s := Match(subject, opponent, games, 6, func(n int, s Score, _ GameResult) {
		done = append(done, n)
		assert.Equal(t, n, s.Games())
	})
	assert.Equal(t, games, s.Games())
	assert.Equal(t, []int{1, 2, 3, 4, 5, 6, 7, 8}, done)
	require.Len(t, log.colour, games)
	book := Openings()
	for i := 0; i < games; i++ {
		want := board.White
		if i%2 == 1 {
			want = board.Black
		}
		assert.Equal(t, want, log.colour[i], "game %d", i)
		start, err := book[i/2].Position()
		require.NoError(t, err)
		assert.Equal(t, start.FEN(), log.first[i], "game %d starts from opening %d", i, i/2)
	}
}

// TestMatchScoresFromSubjectView uses players that always forfeit, so the
// outcome of every game is known whichever colour the subject has.
func TestMatchScoresFromSubjectView(t *testing.T) {
	loser := fixedMove{board.NoMove}
	assert.Equal(t, Score{W: 0, D: 0, L: 6}, Match(loser, NewRandom(1), 6, 0, nil))
	assert.Equal(t, Score{W: 6, D: 0, L: 0}, Match(NewRandom(1), loser, 6, 0, nil))
	assert.Equal(t, Score{W: 0, D: 6, L: 0}, Match(NewRandom(1), NewRandom(2), 6, 1, nil), "capped at one ply")
	assert.Equal(t, Score{}, Match(NewRandom(1), NewRandom(2), 0, 0, nil))
}

func TestMatchReproducible(t *testing.T) {
	run := func() (Score, string) {
		var moves []string
		s := Match(NewAlphaBeta(1, 5), NewGreedy(6), 4, 60, nil)
		g, err := Play(NewRandom(3), NewAlphaBeta(2, 4), "d2d4 d7d5", 40)
		require.NoError(t, err)
		moves = append(moves, g.MovesUCI())
		return s, strings.Join(moves, "|")
	}
	s1, m1 := run()
	s2, m2 := run()
	assert.Equal(t, s1, s2)
	assert.Equal(t, m1, m2)
	// A different seed gives a different game.
	g1, _ := Play(NewRandom(3), NewRandom(4), "", 40)
	g2, _ := Play(NewRandom(5), NewRandom(4), "", 40)
	assert.NotEqual(t, g1.MovesUCI(), g2.MovesUCI())
}

func TestScore(t *testing.T) {
	tests := []struct {
		s       Score
		points  float64
		percent float64
		str     string
	}{
		{Score{}, 0, 0, "0/0/0"},
		{Score{W: 1}, 1, 100, "1/0/0"},
		{Score{W: 3, D: 2, L: 5}, 4, 40, "3/2/5"},
		{Score{D: 4}, 2, 50, "0/4/0"},
	}
	for _, tc := range tests {
		assert.Equal(t, tc.points, tc.s.Points())
		assert.InDelta(t, tc.percent, tc.s.Percent(), 1e-9)
		assert.Equal(t, tc.str, tc.s.String())
	}
	var s Score
	s.add(WhiteWin, board.White)
	s.add(WhiteWin, board.Black)
	s.add(BlackWin, board.Black)
	s.add(Draw, board.White)
	assert.Equal(t, Score{W: 2, D: 1, L: 1}, s)
}

func TestRun(t *testing.T) {
	type call struct {
		rung string
		done int
	}
	var calls []call
	results := Run(NewRandom(9), 2, 30, 1, func(rung string, done int, s Score, g GameResult) {
		calls = append(calls, call{rung, done})
		assert.Equal(t, done, s.Games())
		assert.LessOrEqual(t, g.Plies, 30)
	})
	require.Len(t, results, 6)
	for i, r := range results {
		assert.Equal(t, RungNames()[i], r.Name)
		assert.Equal(t, 2, r.Games())
	}
	assert.Len(t, calls, 12)
	assert.Equal(t, call{"random", 1}, calls[0])
	assert.Equal(t, call{"alphabeta-d4", 2}, calls[11])
	assert.NotPanics(t, func() { Run(NewRandom(9), 1, 2, 1, nil) })
}

func TestFormatTableAndCSV(t *testing.T) {
	results := []RungResult{
		{"random", Score{W: 9, D: 1}},
		{"greedy", Score{W: 5, D: 2, L: 3}},
		{"alphabeta-d2", Score{L: 10}},
	}
	var b bytes.Buffer
	require.NoError(t, FormatTable(&b, results))
	lines := strings.Split(strings.TrimRight(b.String(), "\n"), "\n")
	require.Len(t, lines, 4)
	assert.Equal(t, []string{"rung", "games", "W", "D", "L", "score", "%"}, strings.Fields(lines[0]))
	assert.Equal(t, []string{"random", "10", "9", "1", "0", "95.0"}, strings.Fields(lines[1]))
	assert.Equal(t, []string{"greedy", "10", "5", "2", "3", "60.0"}, strings.Fields(lines[2]))
	assert.Equal(t, []string{"alphabeta-d2", "10", "0", "0", "10", "0.0"}, strings.Fields(lines[3]))

	assert.Equal(t, "iteration,random,greedy,alphabeta-d1,alphabeta-d2,alphabeta-d3,alphabeta-d4", CSVHeader())
	assert.Equal(t, "7,95.0,60.0,,0.0,,", CSVRow(7, results))
}

func BenchmarkAlphaBetaDepth4(b *testing.B) {
	p := board.StartPosition()
	a := NewAlphaBeta(4, 1).(*alphaBeta)
	nodes := 0
	for b.Loop() {
		a.Move(p)
		nodes += a.nodes
	}
	b.ReportMetric(float64(nodes)/float64(b.N), "nodes/op")
}

// TestGameResultPGN replays the PGN's movetext from its FEN tag and must
// reach the game's final position.
func TestGameResultPGN(t *testing.T) {
	g, err := Play(NewGreedy(3), NewRandom(4), "e2e4 e7e5 g1f3", 40)
	require.NoError(t, err)
	game := g.PGN("greedy", "random")
	text := game.String()
	assert.Contains(t, text, `[White "greedy"]`)
	assert.Contains(t, text, `[Black "random"]`)
	assert.Contains(t, text, `[Result "`+g.Result.String()+`"]`)
	assert.Contains(t, text, `[Termination "`+g.Reason.String()+`"]`)
	assert.Contains(t, text, `[FEN "`+g.StartFEN+`"]`)
	assert.Contains(t, text, "\n2... ", "Black moves first after the opening's 1. e4 e5 2. Nf3")

	p, err := board.ParseFEN(g.StartFEN)
	require.NoError(t, err)
	want, err := board.ParseFEN(g.StartFEN)
	require.NoError(t, err)
	for _, m := range g.Moves {
		want.Make(m)
	}
	movetext := text[strings.Index(text, "\n\n")+2:]
	for _, tok := range strings.Fields(movetext) {
		if strings.HasSuffix(tok, ".") || tok == g.Result.String() {
			continue
		}
		m, err := movegen.ParseSAN(p, tok)
		require.NoError(t, err, tok)
		p.Make(m)
	}
	assert.Equal(t, want.FEN(), p.FEN())
}

func TestRandomStarts(t *testing.T) {
	a := RandomStarts(30, 8, 5)
	b := RandomStarts(30, 8, 5)
	c := RandomStarts(30, 8, 6)
	require.Len(t, a, 30)
	book := Openings()
	differ := 0
	for i := range a {
		assert.Equal(t, a[i].FEN(), b[i].FEN(), "same seed, same starts")
		if a[i].FEN() != c[i].FEN() {
			differ++
		}
		assert.Equal(t, movegen.Ongoing, movegen.GameStatus(a[i]))
		open, err := book[i%len(book)].Position()
		require.NoError(t, err)
		assert.Equal(t, open.Ply()+8, a[i].Ply(), "eight plies after opening %d", i%len(book))
	}
	assert.Greater(t, differ, 25, "another seed, other starts")
	assert.Empty(t, RandomStarts(0, 8, 1))
}

func TestMatchFrom(t *testing.T) {
	starts := RandomStarts(3, 6, 1)
	var firsts []string
	s := MatchFrom(NewRandom(1), NewRandom(2), starts, 6, 10, func(done int, _ Score, g GameResult) {
		firsts = append(firsts, g.StartFEN)
	})
	assert.Equal(t, 6, s.Games())
	for i, fen := range firsts {
		assert.Equal(t, starts[i/2].FEN(), fen, "game %d", i+1)
	}
	assert.Equal(t, Score{}, MatchFrom(NewRandom(1), NewRandom(2), nil, 4, 10, nil), "no starts, no games")
}
