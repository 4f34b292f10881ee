package azero

import (
	"bytes"
	"math"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twofold-chess/twofold/azero/chunk"
	"github.com/twofold-chess/twofold/azero/encoding"
	"github.com/twofold-chess/twofold/board"
	"github.com/twofold-chess/twofold/movegen"
)

// pgnGame is a game read back from the self-play PGN.
type pgnGame struct {
	result    int // +1 White won, 0 draw, -1 Black won
	positions []*board.Position
}

// readPGN replays every game of a self-play PGN from the standard start.
func readPGN(t *testing.T, text string) []pgnGame {
	t.Helper()
	var games []pgnGame
	for _, block := range strings.Split(text, "[Event ")[1:] {
		movetext := block[strings.Index(block, "\n\n")+2:]
		p := board.StartPosition()
		g := pgnGame{positions: []*board.Position{p.Clone()}}
		for _, tok := range strings.Fields(movetext) {
			switch {
			case strings.HasSuffix(tok, "."):
			case tok == "1-0", tok == "0-1", tok == "1/2-1/2":
				g.result = map[string]int{"1-0": 1, "0-1": -1, "1/2-1/2": 0}[tok]
			default:
				m, err := movegen.ParseSAN(p, tok)
				require.NoError(t, err, tok)
				p.Make(m)
				g.positions = append(g.positions, p.Clone())
			}
		}
		games = append(games, g)
	}
	return games
}

// Self-play writes one sample per position searched in full (every
// position, or a share of them under playout cap randomization), labelled
// with the game's result for the side to move and a visit distribution over
// that position's legal moves; the PGN and the chunks tell the same story.
// The uniform evaluator drives it: this is self-play's logic, not the
// network's (package onnx plays it with the real one).
func TestSelfPlaySamplesMatchGames(t *testing.T) {
	for _, tc := range []struct {
		name      string
		fast      int
		fullShare float64
		gumbel    int
	}{
		{"every move recorded", 0, 0, 0},
		{"playout cap randomization", 3, 0.3, 0},
		{"Gumbel root", 0, 0, 4},
		{"Gumbel root and playout cap randomization", 3, 0.3, 4},
	} {
		t.Run(tc.name, func(t *testing.T) { testSelfPlaySamples(t, &Uniform{}, tc.fast, tc.fullShare, tc.gumbel) })
	}
}

func testSelfPlaySamples(t *testing.T, net Backend, fast int, fullShare float64, gumbel int) {
	dir := t.TempDir()
	var pgn bytes.Buffer
	var progress []SelfPlayStats
	cfg := DefaultSelfPlay
	cfg.FastPlayouts, cfg.FullShare, cfg.GumbelActions = fast, fullShare, gumbel
	cfg.Games, cfg.Workers, cfg.Parallel, cfg.Playouts, cfg.MaxPlies = 6, 2, 3, 8, 300
	cfg.ChunkDir, cfg.ChunkGames, cfg.ChunkPrefix, cfg.PGN, cfg.Seed = dir, 1, "t-", &pgn, 7
	cfg.Progress = func(s SelfPlayStats) { progress = append(progress, s) }
	stats, err := SelfPlay(net, cfg)
	require.NoError(t, err)

	assert.Equal(t, 6, stats.Games)
	assert.Equal(t, 6, stats.WhiteWins+stats.Draws+stats.Losses)
	if fast == 0 {
		assert.Equal(t, stats.Plies, stats.Positions, "every position played is a sample")
	} else {
		share := float64(stats.Positions) / float64(stats.Plies)
		assert.InDelta(t, fullShare, share, 0.1, "a share of the positions are samples")
	}
	require.NotEmpty(t, progress)
	assert.Equal(t, stats.Games, progress[len(progress)-1].Games)

	games := readPGN(t, pgn.String())
	require.Len(t, games, 6)
	// Every position before a move, with the results it may carry (a
	// position can occur in more than one game).
	type want struct {
		pos     *board.Position
		results map[int8]bool
	}
	wants := map[encoding.Features]*want{}
	plies := 0
	for _, g := range games {
		assert.LessOrEqual(t, len(g.positions)-1, 300)
		plies += len(g.positions) - 1
		for _, p := range g.positions[:len(g.positions)-1] {
			f := encoding.Extract(p)
			w := wants[f]
			if w == nil {
				w = &want{pos: p, results: map[int8]bool{}}
				wants[f] = w
			}
			r := g.result
			if p.Side() == board.Black {
				r = -r
			}
			w.results[int8(r)] = true
		}
	}
	assert.Equal(t, stats.Plies, plies)

	files, err := filepath.Glob(filepath.Join(dir, "t-*"+chunk.Ext))
	require.NoError(t, err)
	assert.Len(t, files, 6, "one chunk per game with ChunkGames 1")
	leftovers, _ := filepath.Glob(filepath.Join(dir, ".tmp-*"))
	assert.Empty(t, leftovers, "no temporary files left behind")
	samples, unvalued := 0, 0
	for _, f := range files {
		ss, err := chunk.Read(f)
		require.NoError(t, err)
		for _, s := range ss {
			samples++
			w := wants[s.Features]
			require.NotNil(t, w, "a sample's position was played in a game")
			assert.True(t, w.results[s.Result], "result %d for %s", s.Result, w.pos.FEN())
			var ml movegen.MoveList
			movegen.Legal(w.pos, &ml)
			if math.IsNaN(float64(s.Q)) {
				unvalued++
			} else {
				assert.True(t, s.Q >= -1 && s.Q <= 1, "search value %v", s.Q)
			}
			sum := 0.0
			for _, e := range s.Policy {
				m, ok := encoding.MoveFromIndex(w.pos, int(e.Index))
				require.True(t, ok, "policy index %d is a legal move in %s", e.Index, w.pos.FEN())
				assert.True(t, ml.Contains(m))
				assert.GreaterOrEqual(t, e.Prob, float32(0))
				sum += float64(e.Prob)
			}
			assert.InDelta(t, 1, sum, 1e-4)
		}
	}
	assert.Equal(t, stats.Positions, samples)
	// Only roots the search did not value (one legal move, or every visited
	// move mated at once) go without the search's value.
	assert.Less(t, unvalued, samples/10, "samples without a search value")
}

// A game's result is written for the side to move of each sample: the
// winner's positions get +1, the loser's -1.
func TestFinishGamesLabelsResults(t *testing.T) {
	dir := t.TempDir()
	run := &selfPlayRun{cfg: SelfPlayConfig{ChunkDir: dir}}
	p := board.StartPosition()
	g := &spGame{winner: -1, reason: "checkmate"} // Black won
	var ml movegen.MoveList
	for range 3 {
		g.samples = append(g.samples, chunk.Sample{Features: encoding.Extract(p), Policy: []chunk.PolicyEntry{{Index: 0, Prob: 1}}})
		g.sides = append(g.sides, p.Side())
		movegen.Legal(p, &ml)
		g.moves = append(g.moves, ml.At(0))
		p.Make(ml.At(0))
	}
	require.NoError(t, run.finishGames(0, []*spGame{g}))
	files, err := filepath.Glob(filepath.Join(dir, "*"+chunk.Ext))
	require.NoError(t, err)
	require.Len(t, files, 1)
	ss, err := chunk.Read(files[0])
	require.NoError(t, err)
	require.Len(t, ss, 3)
	assert.Equal(t, []int8{-1, 1, -1}, []int8{ss[0].Result, ss[1].Result, ss[2].Result}, "White to move, Black to move, White to move")
	run.stats.Elapsed = 0
	assert.Equal(t, SelfPlayStats{Games: 1, Positions: 3, Losses: 1, Plies: 3}, run.stats)
}

// Only full searches get root noise; without --fast-playouts every search
// is full.
func TestNextSearchNoiseOnlyWhenFull(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, fast := range []int{0, 4} {
		run := &selfPlayRun{cfg: DefaultSelfPlay}
		run.cfg.FastPlayouts, run.cfg.FullShare = fast, 0.5
		g := run.newGame(rng)
		full := 0
		for range 200 {
			g.full = run.fullSearch(rng)
			run.nextSearch(g, rng)
			assert.Equal(t, g.full, g.t.noise != nil)
			if g.full {
				full++
				assert.Equal(t, run.cfg.Playouts, run.playouts(g))
			} else {
				assert.Equal(t, fast, run.playouts(g))
			}
		}
		if fast == 0 {
			assert.Equal(t, 200, full)
		} else {
			assert.InDelta(t, 100, full, 30)
		}
	}
}

// A root proven on expansion (a mate in one among its moves) is played
// without a playout through its children: its sample teaches the move
// played, not whichever move came first.
func TestSampleOfAnUnsearchedRootIsTheMovePlayed(t *testing.T) {
	ev, err := (&Uniform{}).NewEvaluator(1)
	require.NoError(t, err)
	b := newBatch(ev, newCache(0), 1)
	tr := newTree(mustFEN(t, "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1"), DefaultParams)
	b.add(tr, tr.pos.Clone())
	require.NoError(t, b.evaluate())
	b.apply(0)
	require.Equal(t, provenLoss, tr.at(root).proven, "the side to move mates")
	best := tr.at(tr.bestChild(root)).move
	require.Equal(t, "a1a8", best.String())
	require.NotEqual(t, best, tr.children(root)[0].move)
	s := sample(tr.pos, tr.children(root), 0, nil, best, searchValue(tr, tr.bestChild(root)))
	assert.Equal(t, []chunk.PolicyEntry{{Index: uint16(encoding.MoveIndexFor(board.White, best)), Prob: 1}}, s.Policy)
	assert.Equal(t, float32(1), s.Q, "the search's value: a proven win")
}

// Play flattens the priors; self-play keeps the network's own, as every
// shipped network's games were played: the recipe's rounds must not change
// with the play default.
func TestSelfPlaySearchesWithTheNetworksOwnPriors(t *testing.T) {
	assert.Equal(t, 1.0, DefaultSelfPlay.Params.PolicyTemp)
	assert.Equal(t, 1.0, DefaultSelfPlay.Params.RootPolicyTemp, "the root's priors make Gumbel's target")
	assert.Equal(t, 1.4, DefaultParams.PolicyTemp)
	assert.Equal(t, 0.0, DefaultParams.RootPolicyTemp, "play: the root as every node")
}
