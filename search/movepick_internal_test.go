package search

import (
	"bufio"
	"math/rand"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twofold-chess/twofold/board"
	"github.com/twofold-chess/twofold/movegen"
)

// suitePositions returns the perft suite's positions and every position
// one move later.
func suitePositions(t *testing.T) []*board.Position {
	f, err := os.Open("../testdata/perft126.epd")
	require.NoError(t, err)
	defer f.Close()
	var out []*board.Position
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fen := strings.TrimSpace(strings.Split(sc.Text(), ";")[0])
		if fen == "" || strings.HasPrefix(fen, "#") {
			continue
		}
		p, err := movegen.ParseFEN(fen)
		require.NoError(t, err, fen)
		out = append(out, p)
		var ml movegen.MoveList
		movegen.Legal(p, &ml)
		for _, m := range ml.Moves() {
			c := p.Clone()
			c.Make(m)
			out = append(out, c)
		}
	}
	require.NoError(t, sc.Err())
	return out
}

// tier is the ordering tier of a score nextMove returned, best first.
func tier(sc int32) int {
	switch {
	case sc == orderTT:
		return 0
	case sc >= orderGood/2:
		return 1
	case sc >= orderCounter:
		return 2
	case sc > orderBad/2:
		return 3
	}
	return 4
}

// pickAll runs the picker of the node at ply 1 of th to the end.
func pickAll(th *thread, ttMove board.Move, inCheck, qs bool) (moves []board.Move, scores []int32) {
	f := &th.stack[1]
	f.initPicker(ttMove, inCheck, qs)
	for {
		m, sc, ok := th.nextMove(f, 1)
		if !ok {
			return moves, scores
		}
		moves = append(moves, m)
		scores = append(scores, sc)
	}
}

// TestPickerReturnsEveryMoveOnceInTierOrder runs the staged picker on every
// suite position and every position one move later, with random histories,
// killers and countermoves (legal here or not, quiet or not) and each kind
// of table move: it must return every legal move exactly once (as many as
// movegen.Legal lists), tier after tier (table move, good captures,
// killers and countermove, quiet moves, losing captures), each tier best
// first, every capture on the side of SEE its tier says. Quiescence must
// return exactly the captures and queen promotions that SEE does not
// find losing (in check, every evasion), after the table's move when one
// is given.
func TestPickerReturnsEveryMoveOnceInTierOrder(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	th := new(thread)
	randomize := func() {
		for c := range th.history {
			for from := range th.history[c] {
				for to := range th.history[c][from] {
					th.history[c][from][to] = int32(rng.Intn(2*historyLimit+1) - historyLimit)
				}
			}
		}
		for i := range th.captHist {
			for j := range th.captHist[i] {
				for k := range th.captHist[i][j] {
					th.captHist[i][j][k] = int16(rng.Intn(2*historyLimit+1) - historyLimit)
				}
			}
		}
		row := &th.cont[rng.Intn(16)][rng.Intn(64)]
		for pc := range row {
			for to := range row[pc] {
				row[pc][to] = int16(rng.Intn(2*historyLimit+1) - historyLimit)
			}
		}
	}
	var others []board.Move // moves of earlier positions: killers and countermoves
	var ml movegen.MoveList
	var nodes, checks, refutationsTried, badCaptures, qsTTMoves int
	for n, p := range suitePositions(t) {
		if n%50 == 0 {
			randomize()
		}
		th.pos = p
		movegen.Legal(p, &ml)
		legalMoves := append([]board.Move(nil), ml.Moves()...)
		others = append(others, legalMoves...)
		if len(others) > 4000 {
			others = others[len(others)-4000:]
		}
		pickOther := func() board.Move {
			if rng.Intn(3) == 0 && len(legalMoves) > 0 {
				return legalMoves[rng.Intn(len(legalMoves))]
			}
			return others[rng.Intn(len(others))]
		}
		// The previous move, for the countermove and continuation rows.
		prev := &th.stack[0]
		prev.move, prev.piece = board.NewMove(sq("e2"), sq("e4")), board.Piece(rng.Intn(6))|board.Piece(p.Side().Other())<<3
		th.counters[prev.piece&15][prev.move.To()] = pickOther()
		f := &th.stack[1]
		f.killers = [2]board.Move{pickOther(), pickOther()}
		if rng.Intn(4) == 0 {
			f.killers[1] = th.counters[prev.piece&15][prev.move.To()]
		}
		inCheck := movegen.InCheck(p)
		checks += boolInt(inCheck)

		ttMoves := []board.Move{board.NoMove}
		if len(legalMoves) > 0 {
			ttMoves = append(ttMoves, legalMoves[rng.Intn(len(legalMoves))], legalMoves[0])
		}
		for _, tm := range ttMoves {
			nodes++
			moves, scores := pickAll(th, tm, inCheck, false)
			require.ElementsMatch(t, legalMoves, moves, "%s, table move %s", p.FEN(), tm)
			for i, m := range moves {
				sc := scores[i]
				if i == 0 && tm != board.NoMove {
					require.Equal(t, tm, m, p.FEN())
					require.Equal(t, int32(orderTT), sc, p.FEN())
					continue
				}
				require.NotEqual(t, int32(orderTT), sc, "%s: %s", p.FEN(), m)
				if i > 0 {
					require.GreaterOrEqual(t, tier(sc), tier(scores[i-1]), "%s: %s after %s", p.FEN(), m, moves[i-1])
					if !inCheck && tier(sc) == tier(scores[i-1]) && tier(sc) != 2 {
						require.LessOrEqual(t, sc, scores[i-1], "%s: %s after %s", p.FEN(), m, moves[i-1])
					}
				}
				noisy := p.CapturedPiece(m) != board.NoPiece || m.Kind() == board.Promotion
				switch tier(sc) {
				case 1:
					require.True(t, noisy, "%s: %s", p.FEN(), m)
					require.GreaterOrEqual(t, SEE(p, m), 0, "%s: %s", p.FEN(), m)
				case 2:
					require.False(t, noisy, "%s: %s", p.FEN(), m)
					require.True(t, m == f.killers[0] || m == f.killers[1] || m == th.counters[prev.piece&15][prev.move.To()], "%s: %s", p.FEN(), m)
					refutationsTried++
				case 3:
					require.False(t, noisy, "%s: %s", p.FEN(), m)
				case 4:
					require.True(t, noisy, "%s: %s", p.FEN(), m)
					under := m.Kind() == board.Promotion && m.PromotionType() != board.Queen && p.CapturedPiece(m) == board.NoPiece
					require.True(t, under || SEE(p, m) < 0, "%s: %s", p.FEN(), m)
					badCaptures++
				}
			}
		}

		// Quiescence.
		var want []board.Move
		for _, m := range legalMoves {
			captured := p.CapturedPiece(m)
			if inCheck || (captured != board.NoPiece || m.Kind() == board.Promotion && m.PromotionType() == board.Queen) && SEE(p, m) >= 0 {
				want = append(want, m)
			}
		}
		moves, scores := pickAll(th, board.NoMove, inCheck, true)
		require.ElementsMatch(t, want, moves, p.FEN())
		for i := 1; i < len(scores); i++ {
			require.LessOrEqual(t, scores[i], scores[i-1], p.FEN())
		}
		// With a table move (a capture or promotion, a losing one too; in
		// check any evasion) it comes first and only once, then the rest.
		for _, tm := range legalMoves {
			if !inCheck && isQuiet(p, tm) {
				continue
			}
			qsTTMoves++
			moves, scores := pickAll(th, tm, inCheck, true)
			require.NotEmpty(t, moves, p.FEN())
			require.Equal(t, tm, moves[0], p.FEN())
			require.Equal(t, int32(orderTT), scores[0], p.FEN())
			rest := slices.DeleteFunc(slices.Clone(want), func(m board.Move) bool { return m == tm })
			require.ElementsMatch(t, rest, moves[1:], "%s, table move %s", p.FEN(), tm)
			break
		}
	}
	assert.Greater(t, nodes, 4000)
	assert.Greater(t, qsTTMoves, 500)
	assert.Positive(t, checks)
	assert.Positive(t, refutationsTried)
	assert.Positive(t, badCaptures)
}

func TestPickerAllocatesNothing(t *testing.T) {
	p, err := movegen.ParseFEN("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
	require.NoError(t, err)
	th := new(thread)
	th.pos = p
	n := 0
	assert.Zero(t, testing.AllocsPerRun(100, func() {
		moves, _ := pickAllNoAlloc(th)
		n = moves
	}))
	assert.Equal(t, 48, n)
}

// pickAllNoAlloc counts the moves the picker returns at ply 1.
func pickAllNoAlloc(th *thread) (int, int32) {
	f := &th.stack[1]
	f.initPicker(board.NoMove, false, false)
	n, last := 0, int32(0)
	for {
		_, sc, ok := th.nextMove(f, 1)
		if !ok {
			return n, last
		}
		n, last = n+1, sc
	}
}
