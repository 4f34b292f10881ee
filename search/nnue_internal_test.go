package search

import (
	"bufio"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twofold-chess/twofold/board"
	"github.com/twofold-chess/twofold/movegen"
	"github.com/twofold-chess/twofold/nnue"
)

// suiteFENs returns every n-th position of the perft suites (standard and
// Chess960: castling of both kinds, en passant, promotions).
func suiteFENs(t *testing.T, every int) []string {
	t.Helper()
	var fens []string
	for _, name := range []string{"perft126.epd", "frc_perft.epd", "cpw_perft6.epd"} {
		f, err := os.Open("../testdata/" + name)
		require.NoError(t, err)
		sc := bufio.NewScanner(f)
		for i := 0; sc.Scan(); i++ {
			if fen, _, _ := strings.Cut(sc.Text(), ";"); i%every == 0 && strings.TrimSpace(fen) != "" {
				fens = append(fens, strings.TrimSpace(fen))
			}
		}
		require.NoError(t, sc.Err())
		f.Close()
	}
	return fens
}

// TestNNUEAccumulatorsMatchRefresh searches the suites' positions with a
// network and verifyNNUE on: at every node entered, in the main search,
// quiescence and after null moves, of every thread, the lazily updated
// accumulator must equal one computed from the position.
func TestNNUEAccumulatorsMatchRefresh(t *testing.T) {
	verifyNNUE = true
	defer func() { verifyNNUE = false }()
	depth, every := 6, 1
	if testing.Short() {
		depth, every = 4, 4
	}
	// The suites have no en-passant square; these put e.p., promotions
	// and Chess960 castling at the root too (rootSearch makes the root
	// moves, the stack derives their changes).
	fens := append([]string{
		"4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1",
		"rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
		"8/8/8/8/k2Pp2Q/8/8/3K4 b - d3 0 1",
		"1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1",
		"4k3/8/8/8/8/8/8/6KR w H - 0 1",
	}, suiteFENs(t, every)...)
	var nodes uint64
	for i, fen := range fens {
		// Every third network has king buckets (four by the king's rank,
		// mirrored), so kings crossing them at every ply are verified too.
		shape := nnue.Shape{Hidden: 32, Activation: nnue.Activation(i % 2), OutputBuckets: 1 + i%8}
		if i%3 == 0 {
			shape.KingRelative = true
			for sq := range shape.KingBuckets {
				shape.KingBuckets[sq] = uint8(min(sq/4, 3))
			}
		}
		net, err := nnue.RandomShaped(shape, uint64(i))
		require.NoError(t, err)
		p, err := movegen.ParseFEN(fen)
		require.NoError(t, err)
		before := p.FEN()
		threads := 1 + i%2
		s := New(4, Options{Threads: threads, Network: net})
		res := s.Search(p, Limits{Depth: depth}, nil)
		nodes += res.Nodes
		for _, th := range s.threads {
			require.Empty(t, th.nn.bad, "%s (threads %d): accumulator differs from a refresh", fen, threads)
		}
		// The root position is untouched and the stack is back at the root.
		assert.Equal(t, before, p.FEN())
	}
	t.Logf("%d nodes verified", nodes)
	require.Greater(t, nodes, uint64(10000))
}

// TestNNUEStackAcrossSearches reuses a searcher for successive positions
// of a game and switches the network between searches.
func TestNNUEStackAcrossSearches(t *testing.T) {
	verifyNNUE = true
	defer func() { verifyNNUE = false }()
	a, err := nnue.Random(16, 1, nnue.CReLU, 1)
	require.NoError(t, err)
	b, err := nnue.Random(48, 1, nnue.SCReLU, 2)
	require.NoError(t, err)
	s := New(4, Options{Network: a})
	p := board.StartPosition()
	for i, mv := range []string{"e2e4", "c7c5", "g1f3", "d7d6", "d2d4", "c5d4", "f3d4", "g8f6"} {
		if i == 4 {
			s.SetOptions(Options{Network: b})
		}
		res := s.Search(p, Limits{Depth: 5}, nil)
		require.NotEqual(t, board.NoMove, res.Best)
		require.Empty(t, s.threads[0].nn.bad, "after %d moves", i)
		m, err := movegen.ParseUCI(p, mv)
		require.NoError(t, err)
		p.Make(m)
	}
	// The weakened modes make the root moves themselves.
	for _, st := range []Strength{{Depth: 4, Margin: 50}, {Nodes: 5000}} {
		s.SetOptions(Options{Network: a, Strength: st})
		res := s.Search(p, Limits{}, nil)
		require.NotEqual(t, board.NoMove, res.Best)
		require.Empty(t, s.threads[0].nn.bad, "strength %+v", st)
	}
	s.SetOptions(Options{})
	s.Search(p, Limits{Depth: 3}, nil)
	assert.Nil(t, s.threads[0].nn.acc, "no network: no accumulators kept")
}

// constantNet returns a network whose every evaluation is cp for the side
// to move: only the output bias is set.
func constantNet(t *testing.T, cp int) *nnue.Network {
	t.Helper()
	h := 16
	n, err := nnue.New(h, nnue.CReLU, make([]int16, nnue.Inputs*h), make([]int16, h), make([]int16, 2*h),
		[]int32{int32(cp * nnue.QA * nnue.QB / nnue.Scale)})
	require.NoError(t, err)
	return n
}

// TestNNUEIsTheStaticEval: with a network that says +100 for the side to
// move in every position, a quiet position scores -100 at odd depths (the
// opponent's view one ply down) and +100 at even ones, whatever the
// hand-crafted evaluation thinks; weighed by the material (two pawns) and
// faded by the fifty-move count, which every (king) move here raises by one.
func TestNNUEIsTheStaticEval(t *testing.T) {
	p, err := movegen.ParseFEN("4k3/4p3/4P3/8/8/8/8/4K3 w - - 0 1") // no captures for either side
	require.NoError(t, err)
	weighed := func(v, halfmoves int) int { return v * (915 + 2*9) / materialScaleDiv * (200 - halfmoves) / 200 }
	// Deeper, the correction history (correction.go) moves the evaluation
	// by what the shallower iterations found.
	for depth, want := range map[int]int{1: weighed(-100, 1), 2: weighed(100, 2)} {
		res := New(4, Options{Network: constantNet(t, 100)}).Search(p, Limits{Depth: depth}, nil)
		assert.Equal(t, want, Value(res.Score), "depth %d", depth)
	}
	hce := New(4, Options{}).Search(p, Limits{Depth: 1}, nil)
	assert.NotEqual(t, -100, Value(hce.Score), "the hand-crafted eval gives something else")
}

// TestMaterialScale: the network's evaluation counts for more with more
// material on the board, and the scale's unit sits in the middlegame.
func TestMaterialScale(t *testing.T) {
	for _, tc := range []struct {
		name, fen string
		want      int
	}{
		{"start", board.StartFEN, 915 + 8*12 + 4*20 + 2*40 + 16*9},
		{"a rook ending", "8/5pk1/6p1/8/8/6P1/5PK1/r3R3 w - - 0 1", 915 + 2*20 + 4*9},
		{"a bishop and a rook pawn", "7k/8/8/7P/8/8/8/1B4K1 w - - 0 1", 915 + 12 + 9},
		{"bare kings", "7k/8/8/8/8/8/8/6K1 w - - 0 1", 915},
	} {
		p, err := movegen.ParseFEN(tc.fen)
		require.NoError(t, err, tc.name)
		assert.Equal(t, tc.want, materialScale(p), tc.name)
	}
	start, err := movegen.ParseFEN(board.StartFEN)
	require.NoError(t, err)
	middlegame, err := movegen.ParseFEN("r3k2r/pp3ppp/2n1b3/3p4/3P4/2N1B3/PP3PPP/R3K2R w KQkq - 0 1")
	require.NoError(t, err)
	assert.Greater(t, materialScale(start), materialScaleDiv, "the opening weighs more than the unit")
	assert.InDelta(t, materialScaleDiv, materialScale(middlegame), 60, "a middlegame about the unit")
}

// TestNetworkUnits: the network's output comes back from the weighed
// evaluation the search sees, whatever the material and the fifty-move
// count (within the weighing's rounding: a few centipawns where the weight
// is small); decisive scores are kept, and the others stay below them.
func TestNetworkUnits(t *testing.T) {
	for _, fen := range []string{
		board.StartFEN,
		"8/5pk1/6p1/8/8/6P1/5PK1/r3R3 w - - 37 60",
		"7k/8/8/7P/8/8/8/1B4K1 b - - 99 80",
	} {
		for _, cp := range []int{-700, -35, 0, 12, 250, 1800} {
			p, err := movegen.ParseFEN(fen)
			require.NoError(t, err)
			s := New(1, Options{Threads: 1, Network: constantNet(t, cp)})
			th := s.threads[0]
			th.prepare(p, nil)
			raw := th.nn.net.Evaluate(p) // the network's output itself
			assert.InDelta(t, raw, NetworkUnits(p, th.evaluate(0)), 4, "%s, %d cp", fen, cp)
		}
	}
	p, err := movegen.ParseFEN(board.StartFEN)
	require.NoError(t, err)
	for _, score := range []int{MateScore - 3, -MateScore + 8, TBWin - 5, -TBWin} {
		assert.Equal(t, score, NetworkUnits(p, score))
	}
	bare, err := movegen.ParseFEN("7k/8/8/7P/8/8/8/1B4K1 b - - 99 80")
	require.NoError(t, err)
	assert.Equal(t, TBWinBound-1, NetworkUnits(bare, TBWinBound-200), "kept below the decisive scores")
	assert.Equal(t, -TBWinBound+1, NetworkUnits(bare, -TBWinBound+200))
}
