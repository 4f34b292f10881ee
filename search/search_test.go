package search_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twofold-chess/twofold/bench"
	"github.com/twofold-chess/twofold/board"
	"github.com/twofold-chess/twofold/mind"
	"github.com/twofold-chess/twofold/movegen"
	"github.com/twofold-chess/twofold/search"
)

func TestMateScoreHelpers(t *testing.T) {
	assert.True(t, search.IsMate(search.MateScore-1))
	assert.True(t, search.IsMate(-search.MateScore+4))
	assert.True(t, search.IsMate(search.MateBound))
	assert.False(t, search.IsMate(search.MateBound-1))
	assert.False(t, search.IsMate(0))
	assert.False(t, search.IsMate(-2500))
	// Mate in n plies: MateScore - n for the side that mates.
	assert.Equal(t, 1, search.MateIn(search.MateScore-1))
	assert.Equal(t, 2, search.MateIn(search.MateScore-3))
	assert.Equal(t, 3, search.MateIn(search.MateScore-5))
	assert.Equal(t, 0, search.MateIn(-search.MateScore), "checkmated now")
	assert.Equal(t, -1, search.MateIn(-search.MateScore+2))
	assert.Equal(t, -2, search.MateIn(-search.MateScore+4))
}

// Forced mates, each checked by hand; the search must announce the mate
// with its distance and play the mating move.
func TestFindsForcedMates(t *testing.T) {
	for _, c := range []struct {
		name  string
		fen   string
		depth int
		mate  int
		best  []string // any of these starts the fastest mate
	}{
		{"back rank", "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", 4, 1, []string{"d1d8"}},
		{"back rank, black", "3r2k1/5ppp/8/8/8/8/5PPP/6K1 b - - 0 1", 4, 1, []string{"d8d1"}},
		{"smothered", "6rk/6pp/8/6N1/8/8/8/6K1 w - - 0 1", 4, 1, []string{"g5f7"}},
		{"scholar's", "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4", 4, 1, []string{"h5f7"}},
		// Legal's mate: Nf6+ gxf6 Bxf7#.
		{"Legal's mate", "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1", 6, 2, []string{"d5f6"}},
		// The quiet sacrifices below are found only some iterations deeper
		// than their length (low-depth futility pruning also prunes quiet
		// checks), so they run with a mate limit and a node cap instead.
		// Qg8+ Rxg8 (Kxg8 is illegal: Nh6 guards g8) Nf7# smothered.
		{"queen sacrifice, smothered", "5r1k/6pp/7N/3Q4/8/8/8/6K1 w - - 0 1", 0, 2, []string{"d5g8"}},
		// Philidor's legacy: Nh6+ (double check) Kh8 Qg8+ Rxg8 Nf7#.
		{"Philidor's legacy", "5rk1/5Npp/8/3Q4/8/8/8/6K1 w - - 0 1", 0, 3, []string{"f7h6"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := pos(t, c.fen)
			lim := search.Limits{Depth: c.depth}
			if c.depth == 0 {
				lim = search.Limits{Depth: 40, Mate: c.mate, Nodes: 3_000_000}
			}
			rec := &recorder{}
			res := search.New(16, search.Options{Threads: 1}).Search(p, lim, rec.report)
			require.True(t, search.IsMate(search.Value(res.Score)), "score %d is no mate (best %v, depth %d, %d nodes)", search.Value(res.Score), res.Best, res.Depth, res.Nodes)
			assert.Equal(t, c.mate, search.MateIn(search.Value(res.Score)), "score %d", search.Value(res.Score))
			assert.Equal(t, search.MateScore-(2*c.mate-1), search.Value(res.Score))
			var want []board.Move
			for _, s := range c.best {
				want = append(want, mv(t, p, s))
			}
			assert.Contains(t, want, res.Best)
			// The last report's PV plays the mate out.
			lines := rec.lines()
			require.NotEmpty(t, lines)
			last := lines[len(lines)-1]
			require.Len(t, last.PV, 2*c.mate-1, "pv %v", last.PV)
			q := p.Clone()
			for _, m := range last.PV {
				require.True(t, isLegal(q, m))
				q.Make(m)
			}
			assert.Equal(t, movegen.Checkmate, movegen.GameStatus(q), "pv %v ends in %s", last.PV, q.FEN())
		})
	}
}

// The side that is getting mated gets a negative mate score.
func TestMatedScore(t *testing.T) {
	// Black must play Kb8, then Rh8#.
	p := pos(t, "k7/8/1K6/8/8/8/8/7R b - - 0 1")
	res, _ := searchDepth(t, p, 5)
	require.True(t, search.IsMate(search.Value(res.Score)), "score %d", search.Value(res.Score))
	assert.Equal(t, -1, search.MateIn(search.Value(res.Score)))
	assert.Equal(t, mv(t, p, "a8b8"), res.Best)
}

func TestTakesHangingQueen(t *testing.T) {
	for _, c := range []struct{ fen, best string }{
		// The queen on h4 is attacked by the knight and defended by nothing.
		{"rnb1kbnr/pppp1ppp/8/4p3/7q/5N2/PPPPPPPP/RNBQKB1R w KQkq - 2 3", "f3h4"},
		// Black: Nf6 takes the queen on e4.
		{"rnbqkb1r/pppppppp/5n2/8/4Q3/8/PPPPPPPP/RNB1KBNR b KQkq - 0 1", "f6e4"},
	} {
		p := pos(t, c.fen)
		res, _ := searchDepth(t, p, 5)
		assert.Equal(t, mv(t, p, c.best), res.Best, c.fen)
		assert.Greater(t, search.Value(res.Score), 500, "a queen up for a knight: %s", c.fen)
	}
}

// A side a queen up must not throw the win away by stalemating: each of
// these positions has a natural-looking queen or king move that stalemates.
func TestAvoidsStalemateWhenWinning(t *testing.T) {
	for _, c := range []struct{ fen, stalemate string }{
		{"k7/8/2K5/8/8/8/8/1Q6 w - - 0 1", "b1b6"},
		{"7k/8/6K1/8/8/8/8/5Q2 w - - 0 1", "f1f7"},
		{"7k/5Q2/5K2/8/8/8/8/8 w - - 0 1", "f6g6"},
		{"8/8/8/8/8/3q4/2k5/K7 b - - 0 1", "d3b3"},
	} {
		p := pos(t, c.fen)
		// The trap is real: the listed move stalemates.
		q := p.Clone()
		play(t, q, c.stalemate)
		require.Equal(t, movegen.Stalemate, movegen.GameStatus(q), "%s after %s", c.fen, c.stalemate)

		for _, depth := range []int{1, 2, 5} {
			res, _ := searchDepth(t, p, depth)
			require.True(t, isLegal(p, res.Best), c.fen)
			q := p.Clone()
			q.Make(res.Best)
			assert.NotEqual(t, movegen.Stalemate, movegen.GameStatus(q), "%s depth %d plays %v", c.fen, depth, res.Best)
			assert.Greater(t, search.Value(res.Score), 500, "%s depth %d", c.fen, depth)
		}
	}
}

// A winning side with a history: the move the engine plays from the bare
// position would now repeat a position for the third time (a draw). It must
// play something else and keep a winning score.
func TestAvoidsRepetitionWhenWinning(t *testing.T) {
	const depth = 7
	for _, fen := range []string{
		"7k/8/8/8/8/8/8/R3K3 w - - 0 1",
		"6k1/8/8/8/8/8/8/4Q1K1 w - - 0 1",
	} {
		fresh := pos(t, fen)
		res, _ := searchDepth(t, fresh, depth)
		first := res.Best

		p := pos(t, fen)
		for _, m := range repetitionCycle(t, p, first) {
			p.Make(m)
		}
		require.Equal(t, movegen.Ongoing, movegen.GameStatus(p), fen)
		q := p.Clone()
		q.Make(first)
		require.Equal(t, movegen.ThreefoldDraw, movegen.GameStatus(q), "precondition: %v is now the third occurrence", first)

		res, _ = searchDepth(t, p, depth)
		require.True(t, isLegal(p, res.Best))
		assert.NotEqual(t, first, res.Best, fen)
		q = p.Clone()
		q.Make(res.Best)
		assert.Equal(t, movegen.Ongoing, movegen.GameStatus(q), "%s: plays %v", fen, res.Best)
		assert.False(t, q.IsRepetition(), "%s: plays %v, which repeats", fen, res.Best)
		assert.Greater(t, search.Value(res.Score), 300, fen)
	}
}

// The losing side, offered the same repetition, takes the draw.
func TestLosingSideTakesRepetition(t *testing.T) {
	const fen = "8/8/3k4/8/8/8/3QK3/8 b - - 0 1" // Black a queen down
	fresh := pos(t, fen)
	res, _ := searchDepth(t, fresh, 6)
	require.Less(t, search.Value(res.Score), -300, "precondition: Black is lost")
	p := pos(t, fen)
	for _, m := range repetitionCycle(t, p, res.Best) {
		p.Make(m)
	}
	res, _ = searchDepth(t, p, 6)
	assert.Equal(t, 0, search.Value(res.Score))
	q := p.Clone()
	q.Make(res.Best)
	assert.True(t, q.IsRepetition(), "plays %v", res.Best)
}

// repetitionCycle returns eight reversible moves from p, starting with m
// (a→b) and ending back in p, after which m reaches the same position for
// the third time: m, n, b→c, n⁻¹, c→b, n, b→a, n⁻¹ for some reply n of the
// other side and square c.
func repetitionCycle(t *testing.T, p *board.Position, m board.Move) []board.Move {
	t.Helper()
	reversible := func(p *board.Position, m board.Move) bool {
		return m.Kind() == board.Normal && p.CapturedPiece(m) == board.NoPiece && p.PieceAt(m.From()).Type() != board.Pawn
	}
	require.True(t, reversible(p, m), "precondition: %v is not a reversible move", m)
	a, b := m.From(), m.To()
	after := p.Clone()
	after.Make(m)
	for _, n := range legal(after) {
		if !reversible(after, n) {
			continue
		}
		q := after.Clone()
		q.Make(n)
		for _, bc := range legal(q) {
			if bc.From() != b || bc.To() == a || !reversible(q, bc) {
				continue
			}
			back := board.NewMove(n.To(), n.From())
			seq := []board.Move{m, n, bc, back, board.NewMove(bc.To(), b), n, board.NewMove(b, a), back}
			z := p.Clone()
			ok := true
			for _, x := range seq {
				if !isLegal(z, x) || movegen.GameStatus(z) != movegen.Ongoing {
					ok = false
					break
				}
				z.Make(x)
			}
			if ok && z.Key() == p.Key() && movegen.GameStatus(z) == movegen.Ongoing {
				return seq
			}
		}
	}
	t.Fatalf("no repetition cycle starting with %v in %s", m, p.FEN())
	return nil
}

func TestDepthLimit(t *testing.T) {
	for _, depth := range []int{1, 3, 6} {
		p := board.StartPosition()
		res, rec := searchDepth(t, p, depth)
		assert.Equal(t, depth, res.Depth)
		lines := rec.lines()
		require.NotEmpty(t, lines)
		for i, info := range lines {
			assert.LessOrEqual(t, info.Depth, depth)
			assert.Equal(t, i+1, info.Depth, "one report per completed depth, in order")
			assert.NotEmpty(t, info.PV)
			pvIsLegal(t, p, info.PV)
		}
		assert.Equal(t, depth, lines[len(lines)-1].Depth)
		assert.Equal(t, res.Best, lines[len(lines)-1].PV[0])
	}
}

func TestNodeLimit(t *testing.T) {
	for _, n := range []uint64{5000, 40000} {
		s := search.New(16, search.Options{Threads: 1})
		p := pos(t, "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10")
		res := await(t, s, searchAsync(s, p, search.Limits{Nodes: n}, nil), 20*time.Second)
		assert.GreaterOrEqual(t, res.Nodes, n)
		assert.LessOrEqual(t, res.Nodes, n+2048)
		assert.True(t, isLegal(p, res.Best))
	}
}

// A soft node limit ends the search after the iteration that passes it:
// the same search as one to that iteration's depth, node for node, and one
// iteration deeper than the last that stayed under it. A hard limit below
// it still cuts the search.
func TestSoftNodeLimit(t *testing.T) {
	const fen = "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10"
	run := func(lim search.Limits) mind.Result {
		s := search.New(16, search.Options{Threads: 1})
		return await(t, s, searchAsync(s, pos(t, fen), lim, nil), 20*time.Second)
	}
	for _, soft := range []uint64{3000, 20000} {
		res := run(search.Limits{SoftNodes: soft, Nodes: 10 * soft})
		require.GreaterOrEqual(t, res.Nodes, soft)
		byDepth := run(search.Limits{Depth: res.Depth})
		assert.Equal(t, byDepth.Nodes, res.Nodes, "soft %d: the search to depth %d", soft, res.Depth)
		assert.Equal(t, byDepth.Best, res.Best)
		assert.Less(t, run(search.Limits{Depth: res.Depth - 1}).Nodes, soft, "soft %d: depth %d stays under it", soft, res.Depth-1)

		hard := run(search.Limits{SoftNodes: soft, Nodes: soft / 2})
		assert.LessOrEqual(t, hard.Nodes, soft/2+2048, "the hard limit cuts")
	}
}

func TestMoveTime(t *testing.T) {
	s := search.New(16, search.Options{Threads: 1})
	p := board.StartPosition()
	start := time.Now()
	res := await(t, s, searchAsync(s, p, search.Limits{MoveTime: 500 * time.Millisecond}, nil), 10*time.Second)
	el := time.Since(start)
	assert.True(t, isLegal(p, res.Best))
	assert.GreaterOrEqual(t, el, 400*time.Millisecond, "returned before the move time was used")
	assert.Less(t, el, 1200*time.Millisecond, "overran the move time")
}

// Clock limits (wtime/btime) end the search well within the clock.
func TestClockLimit(t *testing.T) {
	s := search.New(16, search.Options{Threads: 1, MoveOverhead: 10 * time.Millisecond})
	p := pos(t, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")
	var lim search.Limits
	lim.Time[board.White] = time.Hour // the side not to move: irrelevant
	lim.Time[board.Black] = 1 * time.Second
	start := time.Now()
	res := await(t, s, searchAsync(s, p, lim, nil), 10*time.Second)
	assert.True(t, isLegal(p, res.Best))
	assert.Less(t, time.Since(start), 800*time.Millisecond, "used most of a 1 s clock on one move")
}

func TestMateLimitStopsAtMate(t *testing.T) {
	s := search.New(16, search.Options{Threads: 1})
	// Legal's mate, a mate in 2 found at depth 2 or 3.
	p := pos(t, "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1")
	res := await(t, s, searchAsync(s, p, search.Limits{Mate: 2}, nil), 20*time.Second)
	require.True(t, search.IsMate(search.Value(res.Score)), "score %d", search.Value(res.Score))
	assert.Equal(t, 2, search.MateIn(search.Value(res.Score)))
	assert.Equal(t, mv(t, p, "d5f6"), res.Best)
	// It stopped at the first iteration that found the mate, below the
	// iterations a search without the limit runs to prove it.
	mateDepth := res.Depth
	res = await(t, s, searchAsync(s, p, search.Limits{}, nil), 20*time.Second)
	assert.Greater(t, res.Depth, mateDepth, "precondition: unlimited, the search goes on to prove the mate")

	// A mate longer than asked for does not stop the search early.
	res = await(t, s, searchAsync(s, p, search.Limits{Mate: 1, Depth: 12}, nil), 20*time.Second)
	assert.Equal(t, 12, res.Depth)
}

func TestSearchMovesRestriction(t *testing.T) {
	// Without a restriction Nxh4 wins the queen; restricted, the search must
	// stay inside the given moves.
	p := pos(t, "rnb1kbnr/pppp1ppp/8/4p3/7q/5N2/PPPPPPPP/RNBQKB1R w KQkq - 2 3")
	res, _ := searchDepth(t, p, 5)
	require.Equal(t, mv(t, p, "f3h4"), res.Best, "precondition: unrestricted, Nxh4")
	only := []board.Move{mv(t, p, "a2a3"), mv(t, p, "b1c3"), mv(t, p, "f3e5")}
	rec := &recorder{}
	res = search.New(16, search.Options{Threads: 1}).Search(p, search.Limits{Depth: 5, Moves: only}, rec.report)
	assert.Contains(t, only, res.Best)
	for _, info := range rec.lines() {
		require.NotEmpty(t, info.PV)
		assert.Contains(t, only, info.PV[0])
	}
	// A single allowed move is played even when it loses.
	only = []board.Move{mv(t, p, "h2h3")}
	res = search.New(16, search.Options{Threads: 1}).Search(p, search.Limits{Depth: 4, Moves: only}, nil)
	assert.Equal(t, only[0], res.Best)
}

func TestStopEndsInfiniteSearch(t *testing.T) {
	s := search.New(16, search.Options{Threads: 1})
	p := board.StartPosition()
	rec := &recorder{}
	done := searchAsync(s, p, search.Limits{Infinite: true}, rec.report)
	time.Sleep(600 * time.Millisecond)
	select {
	case r := <-done:
		t.Fatalf("infinite search returned by itself: %+v", r)
	default:
	}
	require.NotEmpty(t, rec.lines(), "no report after 600 ms")
	start := time.Now()
	s.Stop()
	res := await(t, s, done, 5*time.Second)
	assert.Less(t, time.Since(start), 300*time.Millisecond, "Stop took too long")
	assert.True(t, isLegal(p, res.Best))
	assert.GreaterOrEqual(t, res.Depth, 1)
}

// An infinite search holds its result until Stop even when it has nothing
// left to search (UCI: no bestmove before "stop").
func TestInfiniteWaitsForStopAfterMate(t *testing.T) {
	s := search.New(16, search.Options{Threads: 1})
	p := pos(t, "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1")
	done := searchAsync(s, p, search.Limits{Infinite: true, Depth: 3}, nil)
	select {
	case r := <-done:
		t.Fatalf("infinite search returned before stop: %+v", r)
	case <-time.After(300 * time.Millisecond):
	}
	s.Stop()
	res := await(t, s, done, 5*time.Second)
	assert.Equal(t, mv(t, p, "d1d8"), res.Best)
}

func TestPonderHitStartsTheClock(t *testing.T) {
	s := search.New(16, search.Options{Threads: 1})
	p := board.StartPosition()
	var lim search.Limits
	lim.Ponder = true
	lim.MoveTime = 200 * time.Millisecond
	done := searchAsync(s, p, lim, nil)
	select {
	case r := <-done:
		t.Fatalf("ponder search returned before ponderhit: %+v", r)
	case <-time.After(400 * time.Millisecond):
	}
	start := time.Now()
	s.PonderHit()
	res := await(t, s, done, 5*time.Second)
	assert.True(t, isLegal(p, res.Best))
	el := time.Since(start)
	assert.GreaterOrEqual(t, el, 150*time.Millisecond, "the move time starts at ponderhit")
	assert.Less(t, el, 1500*time.Millisecond)
}

func TestTwoThreads(t *testing.T) {
	s := search.New(16, search.Options{Threads: 2})
	for _, fen := range []string{
		board.StartFEN,
		"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
	} {
		p := pos(t, fen)
		rec := &recorder{}
		res := await(t, s, searchAsync(s, p, search.Limits{Depth: 6}, rec.report), 60*time.Second)
		assert.True(t, isLegal(p, res.Best), fen)
		assert.Equal(t, 6, res.Depth)
		for _, info := range rec.lines() {
			assert.LessOrEqual(t, info.Depth, 6)
			pvIsLegal(t, p, info.PV)
		}
		if res.Ponder != board.NoMove {
			q := p.Clone()
			q.Make(res.Best)
			assert.True(t, isLegal(q, res.Ponder))
		}
	}
	// Together they still find the mate.
	p := pos(t, "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1")
	res := await(t, s, searchAsync(s, p, search.Limits{Depth: 8}, nil), 60*time.Second)
	assert.Equal(t, mv(t, p, "d5f6"), res.Best)
	assert.True(t, search.IsMate(search.Value(res.Score)))
	assert.Equal(t, 2, search.MateIn(search.Value(res.Score)))
}

func TestMultiPV(t *testing.T) {
	for _, fen := range []string{
		board.StartFEN,
		"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
		"rnb1kbnr/pppp1ppp/8/4p3/7q/5N2/PPPPPPPP/RNBQKB1R w KQkq - 2 3",
		"r1b1kb1r/1pqp1ppp/p1n1pn2/8/3NP3/2N5/PPP1BPPP/R1BQ1RK1 w kq - 2 8",
		"6qk/8/8/8/8/8/8/7K b - - 0 1",
		"K7/b7/1b6/1b6/8/8/8/k6B w - - 0 1",
		"8/8/3k4/3p4/3P4/3K4/8/8 w - - 0 1",
		"r3k2r/8/8/8/8/8/8/2R1K2R w Kkq - 0 1",
	} {
		for _, multiPV := range []int{2, 3} {
			p := pos(t, fen)
			rec := &recorder{}
			const depth = 7
			res := search.New(16, search.Options{Threads: 1, MultiPV: multiPV}).Search(p, search.Limits{Depth: depth}, rec.report)
			byDepth := map[int][]mind.Info{}
			for _, info := range rec.lines() {
				byDepth[info.Depth] = append(byDepth[info.Depth], info)
			}
			require.Len(t, byDepth, depth, fen)
			for d := 1; d <= depth; d++ {
				lines := byDepth[d]
				require.Len(t, lines, multiPV, "%s multipv %d depth %d", fen, multiPV, d)
				seen := map[board.Move]bool{}
				for i, info := range lines {
					assert.Equal(t, i+1, info.MultiPV, "%s depth %d", fen, d)
					require.NotEmpty(t, info.PV)
					pvIsLegal(t, p, info.PV)
					assert.False(t, seen[info.PV[0]], "%s multipv %d depth %d: %v reported twice", fen, multiPV, d, info.PV[0])
					seen[info.PV[0]] = true
					if i > 0 {
						assert.LessOrEqual(t, search.Value(info.Score), search.Value(lines[i-1].Score), "%s multipv %d depth %d: line %d scores above line %d", fen, multiPV, d, i+1, i)
					}
				}
			}
			assert.Equal(t, byDepth[depth][0].PV[0], res.Best, fen)
		}
	}
	// MultiPV larger than the number of legal moves reports each move once.
	p := pos(t, "k7/8/1K6/8/8/8/8/7R b - - 0 1")
	rec := &recorder{}
	search.New(16, search.Options{MultiPV: 5}).Search(p, search.Limits{Depth: 3}, rec.report)
	for _, info := range rec.lines() {
		assert.Equal(t, 1, info.MultiPV)
	}
}

func TestDifficultyStrengths(t *testing.T) {
	for _, name := range []string{"Easy", "medium", "HARD"} {
		st, ok := search.DifficultyStrength(name)
		require.True(t, ok, name)
		assert.Positive(t, st.Depth, name)
	}
	st, ok := search.DifficultyStrength("Max")
	assert.True(t, ok)
	assert.Equal(t, search.Strength{}, st)
	_, ok = search.DifficultyStrength("Grandmaster")
	assert.False(t, ok)

	easy, _ := search.DifficultyStrength("Easy")
	s := search.New(16, search.Options{Strength: easy})
	for i, p := range bench.Positions()[:12] {
		rec := &recorder{}
		res := await(t, s, searchAsync(s, p, search.Limits{}, rec.report), 20*time.Second)
		assert.True(t, isLegal(p, res.Best), "position %d", i)
		assert.LessOrEqual(t, res.Depth, 2)
		assert.Positive(t, res.Depth)
		for _, info := range rec.lines() {
			assert.LessOrEqual(t, info.Depth, 2)
		}
	}
	// Even Easy takes a queen for nothing (the margin is below a queen).
	p := pos(t, "rnb1kbnr/pppp1ppp/8/4p3/7q/5N2/PPPPPPPP/RNBQKB1R w KQkq - 2 3")
	for i := 0; i < 5; i++ {
		res := s.Search(p, search.Limits{}, nil)
		assert.Equal(t, mv(t, p, "f3h4"), res.Best)
	}
}

func TestSkillStrength(t *testing.T) {
	assert.Equal(t, search.Strength{}, search.SkillStrength(20))
	weakest := search.SkillStrength(0)
	assert.Equal(t, 1, weakest.Depth)
	assert.Equal(t, weakest, search.SkillStrength(-5))
	prev := weakest
	for level := 1; level < 20; level++ {
		st := search.SkillStrength(level)
		assert.GreaterOrEqual(t, st.Depth, prev.Depth)
		assert.LessOrEqual(t, st.Margin, prev.Margin)
		prev = st
	}
	s := search.New(16, search.Options{Strength: search.SkillStrength(3)})
	p := board.StartPosition()
	res := s.Search(p, search.Limits{}, nil)
	assert.True(t, isLegal(p, res.Best))
	assert.LessOrEqual(t, res.Depth, search.SkillStrength(3).Depth)
}

func TestNeverReturnsAnIllegalMove(t *testing.T) {
	positions := bench.Positions()
	require.GreaterOrEqual(t, len(positions), 30)
	s := search.New(16, search.Options{Threads: 1})
	for i, p := range positions {
		depth := 4
		if testing.Short() {
			depth = 2
		}
		rec := &recorder{}
		fen := p.FEN()
		res := s.Search(p, search.Limits{Depth: depth}, rec.report)
		assert.Equal(t, fen, p.FEN(), "Search modified its position")
		require.True(t, isLegal(p, res.Best), "position %d %s: %v", i, fen, res.Best)
		if res.Ponder != board.NoMove {
			q := p.Clone()
			q.Make(res.Best)
			assert.True(t, isLegal(q, res.Ponder), "position %d: ponder %v", i, res.Ponder)
		}
		for _, info := range rec.lines() {
			pvIsLegal(t, p, info.PV)
		}
	}
}

func TestNoLegalMoves(t *testing.T) {
	for _, c := range []struct {
		fen   string
		score int
	}{
		{"rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3", -search.MateScore}, // fool's mate
		{"k7/8/1Q6/8/8/8/8/2K5 b - - 0 1", 0},                                                // stalemate
	} {
		p := pos(t, c.fen)
		require.Empty(t, legal(p))
		res, _ := searchDepth(t, p, 5)
		assert.Equal(t, board.NoMove, res.Best, c.fen)
		assert.Equal(t, board.NoMove, res.Ponder, c.fen)
		assert.Equal(t, c.score, search.Value(res.Score), c.fen)

		// Also with no limit at all, and a searchmoves list that matches nothing.
		s := search.New(1, search.Options{})
		res = await(t, s, searchAsync(s, p, search.Limits{}, nil), 5*time.Second)
		assert.Equal(t, board.NoMove, res.Best)
	}
	p := board.StartPosition()
	q := pos(t, "4k3/8/8/8/8/8/8/R3K3 w - - 0 1")
	res := search.New(1, search.Options{}).Search(p, search.Limits{Depth: 3, Moves: []board.Move{mv(t, q, "a1a8")}}, nil)
	assert.Equal(t, board.NoMove, res.Best, "no searchmoves move is legal")
}

// Options survive between searches, and a searcher is reusable: the same
// search from a cleared searcher repeats its node count exactly.
func TestDeterministicAndReusable(t *testing.T) {
	p := pos(t, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
	s := search.New(4, search.Options{Threads: 1})
	a := s.Search(p, search.Limits{Depth: 6}, nil)
	s.Clear()
	b := s.Search(p, search.Limits{Depth: 6}, nil)
	assert.Equal(t, a, b)
	c := search.New(4, search.Options{Threads: 1}).Search(p, search.Limits{Depth: 6}, nil)
	assert.Equal(t, a, c)
	// Without Clear the table helps: fewer nodes the second time.
	d := s.Search(p, search.Limits{Depth: 6}, nil)
	assert.Less(t, d.Nodes, a.Nodes)
	assert.Equal(t, search.Options{Threads: 1, MultiPV: 1}, s.Options())
	s.SetHash(1)
	e := s.Search(p, search.Limits{Depth: 6}, nil)
	assert.True(t, isLegal(p, e.Best))
}

func TestInfoNPS(t *testing.T) {
	assert.Equal(t, uint64(0), mind.Info{Nodes: 100}.NPS())
	assert.Equal(t, uint64(2000), mind.Info{Nodes: 1000, Time: 500 * time.Millisecond}.NPS())
}

// Go sets the search up before it returns: a Stop or PonderHit right after
// it is never lost. A search stopped before its first iteration ends still
// answers with a sensible move: here the mate in one.
func TestGoThenStopAtOnce(t *testing.T) {
	s := search.New(16, search.Options{Threads: 2})
	p := pos(t, "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1")
	for i := 0; i < 20; i++ {
		done := make(chan mind.Result, 1)
		s.Go(p, search.Limits{Infinite: true}, nil, func(r mind.Result) { done <- r })
		s.Stop()
		res := await(t, s, done, 5*time.Second)
		assert.Equal(t, mv(t, p, "d1d8"), res.Best)
		assert.Equal(t, 1, search.MateIn(search.Value(res.Score)))
	}
	for i := 0; i < 10; i++ {
		done := make(chan mind.Result, 1)
		lim := search.Limits{Ponder: true, MoveTime: 20 * time.Millisecond}
		s.Go(board.StartPosition(), lim, nil, func(r mind.Result) { done <- r })
		s.PonderHit()
		res := await(t, s, done, 5*time.Second)
		assert.True(t, isLegal(board.StartPosition(), res.Best))
	}
	// A normal search through Go reports and ends by itself.
	rec := &recorder{}
	done := make(chan mind.Result, 1)
	s.Go(p, search.Limits{Depth: 4}, rec.report, func(r mind.Result) { done <- r })
	res := await(t, s, done, 10*time.Second)
	assert.Equal(t, 4, res.Depth)
	assert.NotEmpty(t, rec.lines())
}

// Depth 1 of a position with many queens takes tens of seconds; the clock,
// stop and the node limit must still end the search at once (they used to
// wait for the first iteration), with a legal move, for every mode.
func TestLimitsHoldInsideTheFirstIteration(t *testing.T) {
	const queens = "1rbr1q1b/q4n1N/2k1q3/1qqq1q1n/1QQQ2q1/Q1B2QQB/4QQ2/2R2KR1 b - - 5 39"
	for _, c := range []struct {
		name string
		lim  search.Limits
		opts search.Options
		stop bool
	}{
		{"movetime", search.Limits{MoveTime: 10 * time.Millisecond}, search.Options{}, false},
		{"clock", search.Limits{Time: [2]time.Duration{50 * time.Millisecond, 50 * time.Millisecond}}, search.Options{}, false},
		{"nodes", search.Limits{Nodes: 5000}, search.Options{}, false},
		{"stop", search.Limits{Infinite: true}, search.Options{}, true},
		{"stop, two threads", search.Limits{Infinite: true}, search.Options{Threads: 2}, true},
		{"stop, weakened", search.Limits{Infinite: true}, search.Options{Strength: search.SkillStrength(5)}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := pos(t, queens)
			s := search.New(16, c.opts)
			done := make(chan mind.Result, 1)
			s.Go(p, c.lim, nil, func(r mind.Result) { done <- r })
			if c.stop {
				time.Sleep(20 * time.Millisecond)
				s.Stop()
			}
			// Generous against scheduling noise, far below the 30 s of depth 1.
			res := await(t, s, done, 3*time.Second)
			assert.True(t, isLegal(p, res.Best), "a legal move even when depth 1 was cut short")
		})
	}
}

// Once the result is proven (a mate held at twice its distance, or a tree
// that never nears the horizon, as in K v K), iterative deepening stops
// instead of printing the same line up to the maximum depth; an infinite
// search then waits for stop. An explicit depth is still searched in full.
func TestProvenResultsStopDeepening(t *testing.T) {
	for _, c := range []struct {
		name, fen string
		maxDepth  int
	}{
		{"mate in one", "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", 6},
		{"mate in two", "r1bq2r1/b4pk1/p1pp1p2/1p2pP2/1P2P1PB/3P4/1PPQ2P1/R3K2R w - - 0 1", 12},
		{"getting mated", "k7/8/1K6/8/8/8/8/7R b - - 0 1", 8},
		{"K v K", "4k3/8/8/8/8/8/8/4K3 w - - 0 1", 12},
		{"K+N v K", "4k3/8/8/8/8/8/8/4KN2 w - - 0 1", 12},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := pos(t, c.fen)
			s := search.New(16, search.Options{})
			rec := &recorder{}
			done := make(chan mind.Result, 1)
			s.Go(p, search.Limits{Infinite: true}, rec.report, func(r mind.Result) { done <- r })
			time.Sleep(300 * time.Millisecond)
			lines := rec.lines()
			require.NotEmpty(t, lines)
			assert.LessOrEqual(t, lines[len(lines)-1].Depth, c.maxDepth, "deepening went on")
			select {
			case <-done:
				t.Fatal("an infinite search must wait for stop")
			default:
			}
			s.Stop()
			res := await(t, s, done, 5*time.Second)
			assert.True(t, isLegal(p, res.Best))
			assert.Len(t, rec.lines(), len(lines), "nothing more after deepening ended")

			// With a clock it answers at once instead of using its time.
			res = s.Search(p, search.Limits{Time: [2]time.Duration{time.Hour, time.Hour}}, nil)
			assert.LessOrEqual(t, res.Depth, c.maxDepth)
			// An explicit depth is honoured.
			res = s.Search(p, search.Limits{Depth: 20}, nil)
			assert.Equal(t, 20, res.Depth)
		})
	}
}

// A search cut short inside an iteration ends with a report of the move it
// plays, with fresh node counts (GUIs show the last line as the verdict).
func TestFinalReportAtStop(t *testing.T) {
	p := pos(t, "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4")
	for _, multiPV := range []int{1, 3} {
		s := search.New(16, search.Options{MultiPV: multiPV})
		for i := 0; i < 5; i++ {
			rec := &recorder{}
			done := make(chan mind.Result, 1)
			s.Go(p, search.Limits{Infinite: true}, rec.report, func(r mind.Result) { done <- r })
			time.Sleep(time.Duration(20+37*i) * time.Millisecond)
			s.Stop()
			res := await(t, s, done, 5*time.Second)
			lines := rec.lines()
			require.NotEmpty(t, lines)
			var first mind.Info
			for _, l := range lines {
				if l.MultiPV == 1 {
					first = l
				}
			}
			require.NotEmpty(t, first.PV)
			assert.Equal(t, res.Best, first.PV[0], "the last line 1 names the bestmove")
			last := lines[len(lines)-1]
			assert.Equal(t, res.Nodes, last.Nodes, "the last report carries the final node count")
			pvIsLegal(t, p, first.PV)
		}
	}
}

// In weakened modes the last line reported is the line of the move played.
func TestWeakenedReportsThePlayedLine(t *testing.T) {
	p := board.StartPosition()
	s := search.New(16, search.Options{Strength: search.SkillStrength(0)})
	differed := false
	for i := 0; i < 30; i++ {
		rec := &recorder{}
		res := s.Search(p, search.Limits{}, rec.report)
		lines := rec.lines()
		require.NotEmpty(t, lines)
		last := lines[len(lines)-1]
		require.NotEmpty(t, last.PV)
		assert.Equal(t, res.Best, last.PV[0])
		differed = differed || lines[0].PV[0] != res.Best
	}
	assert.True(t, differed, "skill 0 plays other moves than the best in 30 tries")
}

// The fifty-move rule ends the game on the hundredth ply unless that ply
// mates: no PV may go on past it (GUIs and fastchess check the PV), and a
// mate on it still wins.
func TestFiftyMoveRuleEndsThePV(t *testing.T) {
	for _, c := range []struct {
		fen, move string
		mate      bool
	}{
		{"7k/8/8/8/8/8/8/1R4K1 w - - 99 80", "b1b8", false}, // Rb8+ checks but does not mate
		{"7k/8/6K1/8/8/8/8/R7 w - - 99 80", "a1a8", true},   // Ra8# mates on the hundredth ply
	} {
		p := pos(t, c.fen)
		rec := &recorder{}
		m := mv(t, p, c.move)
		res := search.New(16, search.Options{Threads: 1}).Search(p, search.Limits{Depth: 6, Moves: []board.Move{m}}, rec.report)
		assert.Equal(t, m, res.Best, c.fen)
		if c.mate {
			assert.True(t, search.IsMate(search.Value(res.Score)), "%s: score %d", c.fen, search.Value(res.Score))
		} else {
			assert.Equal(t, 0, search.Value(res.Score), c.fen)
		}
		for _, info := range rec.lines() {
			q := p.Clone()
			for i, m := range info.PV {
				require.True(t, isLegal(q, m), "%s: PV %v", c.fen, info.PV)
				q.Make(m)
				if q.FiftyMoveRule() && movegen.GameStatus(q) != movegen.Checkmate {
					assert.Len(t, info.PV, i+1, "%s: the PV goes on after the fifty-move rule: %v", c.fen, info.PV)
					break
				}
			}
		}
	}
}
