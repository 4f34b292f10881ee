package nnue

import (
	"bufio"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twofold-chess/twofold/board"
	"github.com/twofold-chess/twofold/movegen"
)

// suitePositions reads the FENs of the perft suites (standard and Chess960).
func suitePositions(t testing.TB) []*board.Position {
	t.Helper()
	var ps []*board.Position
	for _, name := range []string{"perft126.epd", "frc_perft.epd", "cpw_perft6.epd"} {
		f, err := os.Open("../testdata/" + name)
		require.NoError(t, err)
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			fen, _, _ := strings.Cut(sc.Text(), ";")
			if fen = strings.TrimSpace(fen); fen == "" {
				continue
			}
			p, err := movegen.ParseFEN(fen)
			require.NoError(t, err, fen)
			ps = append(ps, p)
		}
		require.NoError(t, sc.Err())
		f.Close()
	}
	return ps
}

// referenceEval computes the package comment's formula directly from the
// pieces, without accumulators or kernels.
func referenceEval(n *Network, p *board.Position) int {
	h := n.hidden
	var acc [2][]int16
	for persp := board.White; persp <= board.Black; persp++ {
		acc[persp] = append([]int16(nil), n.featureBiases...)
		for sq := board.Square(0); sq < 64; sq++ {
			pc := p.PieceAt(sq)
			if pc == board.NoPiece {
				continue
			}
			f := FeatureIndex(persp, pc, sq)
			if n.shape.KingRelative { // the package comment's version 3 rule, spelled out
				k := p.KingSquare(persp)
				if persp == board.Black {
					k ^= 56
				}
				flip := board.Square(0)
				if k%8 >= 4 {
					k, flip = k^7, 7
				}
				f = Inputs*int(n.shape.KingBuckets[k/8*4+k%8]) + FeatureIndex(persp, pc, sq^flip)
			}
			for i := range h {
				acc[persp][i] += n.featureWeights[f*h+i] // int16 wrap-around, as specified
			}
		}
	}
	b := n.Bucket(p.Occupied().Count())
	ow := n.outputWeights[b*2*h:]
	var sum int32
	for side, a := range [2][]int16{acc[p.Side()], acc[p.Side().Other()]} {
		for i, x := range a {
			c := int32(min(max(x, 0), QA))
			w := int32(ow[side*h+i])
			if n.activation == SCReLU {
				sum += int32(int16(c*w)) * c
			} else {
				sum += c * w
			}
		}
	}
	s := int64(sum)
	if n.activation == SCReLU {
		s = int64(sum / QA)
	}
	return int((s + int64(n.outputBiases[b])) * Scale / (QA * QB))
}

// walk visits every node of a perft tree of the given depth below p,
// updating stack[ply+1] from stack[ply] with the move's Delta, and calls
// visit at each node with the incrementally updated accumulator.
func walk(p *board.Position, stack []Accumulator, ply, depth int, visit func(*board.Position, *Accumulator)) {
	visit(p, &stack[ply])
	if depth == 0 {
		return
	}
	var ml movegen.MoveList
	movegen.Legal(p, &ml)
	for _, m := range ml.Moves() {
		d := MoveDelta(p, m)
		p.Make(m)
		stack[ply+1].Apply(&stack[ply], &d, p)
		walk(p, stack, ply+1, depth-1, visit)
		p.Unmake()
	}
}

// TestIncrementalEqualsRefresh walks perft trees of the suites' positions
// (castling of both kinds, Chess960, en passant, promotions with and
// without capture) and checks at every node that the incremental
// accumulator equals a fresh one and evaluates as the reference does.
func TestIncrementalEqualsRefresh(t *testing.T) {
	depth := 2
	if testing.Short() {
		depth = 1
	}
	for _, n := range []*Network{randomNet(t, 32, CReLU, 11), randomNet(t, 32, SCReLU, 11), kingNet(t, 32, 4, 11)} {
		stack := NewAccumulators(n, depth+1)
		fresh := NewAccumulator(n)
		nodes := 0
		for _, p := range suitePositions(t) {
			stack[0].Refresh(p)
			walk(p, stack, 0, depth, func(q *board.Position, a *Accumulator) {
				nodes++
				fresh.Refresh(q)
				if !a.Equal(fresh) {
					require.Failf(t, "incremental accumulator differs from a refresh", "%s after %v", q.FEN(), q.LastMove())
				}
				if nodes%7 == 0 { // the reference is slow; a sample suffices
					require.Equal(t, referenceEval(n, q), a.Evaluate(q), q.FEN())
				}
			})
		}
		t.Logf("%v: %d nodes", n, nodes)
	}
}

func TestMoveDelta(t *testing.T) {
	P := func(c board.Color, pt board.PieceType) board.Piece { return board.MakePiece(c, pt) }
	sq := func(s string) board.Square { q, _ := board.ParseSquare(s); return q }
	for _, c := range []struct {
		name, fen, move string
		adds, subs      []PieceSquare
	}{
		{"quiet", "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", "e2e4",
			[]PieceSquare{{P(0, board.Pawn), sq("e4")}}, []PieceSquare{{P(0, board.Pawn), sq("e2")}}},
		{"capture", "4k3/8/8/3p4/4N3/8/8/4K3 w - - 0 1", "e4d6",
			[]PieceSquare{{P(0, board.Knight), sq("d6")}}, []PieceSquare{{P(0, board.Knight), sq("e4")}}},
		{"en passant", "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6",
			[]PieceSquare{{P(0, board.Pawn), sq("d6")}}, []PieceSquare{{P(0, board.Pawn), sq("e5")}, {P(1, board.Pawn), sq("d5")}}},
		{"capture promotion", "1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7b8n",
			[]PieceSquare{{P(0, board.Knight), sq("b8")}}, []PieceSquare{{P(0, board.Pawn), sq("a7")}, {P(1, board.Rook), sq("b8")}}},
		{"black castles long", "r3k3/8/8/8/8/8/8/4K3 b q - 0 1", "e8c8",
			[]PieceSquare{{P(1, board.King), sq("c8")}, {P(1, board.Rook), sq("d8")}},
			[]PieceSquare{{P(1, board.King), sq("e8")}, {P(1, board.Rook), sq("a8")}}},
		// Chess960: the king stays on g1, only the rook moves.
		{"960 castling, king stays", "4k3/8/8/8/8/8/8/6KR w H - 0 1", "g1h1",
			[]PieceSquare{{P(0, board.King), sq("g1")}, {P(0, board.Rook), sq("f1")}},
			[]PieceSquare{{P(0, board.King), sq("g1")}, {P(0, board.Rook), sq("h1")}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			p, err := movegen.ParseFEN(c.fen)
			require.NoError(t, err)
			if c.name == "960 castling, king stays" {
				p.SetChess960(true)
			}
			m, err := movegen.ParseUCI(p, c.move)
			require.NoError(t, err)
			d := MoveDelta(p, m)
			assert.Equal(t, c.adds, d.add[:d.adds])
			assert.Equal(t, c.subs, d.sub[:d.subs])
		})
	}
}

// TestPrimitives checks Add, Sub and CopyFrom against refreshes of edited
// positions, and Apply of an unusual delta (the generic branch).
func TestPrimitives(t *testing.T) {
	n := randomNet(t, 48, CReLU, 5)
	p := board.StartPosition()
	a, b := NewAccumulator(n), NewAccumulator(n)
	a.Refresh(p)
	b.CopyFrom(a)
	assert.True(t, a.Equal(b))
	wn := board.MakePiece(board.White, board.Knight)
	b.Sub(wn, board.B1)
	b.Add(wn, board.B1)
	assert.True(t, a.Equal(b), "add after sub restores")
	var d Delta
	d.Add(wn, board.Square(20))
	d.Add(wn, board.Square(21))
	d.Sub(wn, board.B1) // two adds and one sub: the generic branch
	c := NewAccumulator(n)
	c.Apply(a, &d, p)
	want := NewAccumulator(n)
	want.CopyFrom(a)
	want.Sub(wn, board.B1)
	want.Add(wn, board.Square(20))
	want.Add(wn, board.Square(21))
	assert.True(t, c.Equal(want))
	a.Apply(a, &d, p) // in place
	assert.True(t, a.Equal(want))
	assert.Same(t, n, a.Network())
	assert.Len(t, a.Values(board.Black), 48)
}

// randomPositions plays random games from the start and the suites'
// positions and returns count of the positions reached.
func randomPositions(t testing.TB, r *rand.Rand, count int) []*board.Position {
	starts := suitePositions(t)
	var out []*board.Position
	for len(out) < count {
		p := starts[r.IntN(len(starts))].Clone()
		for ply := 0; ply < 80 && len(out) < count; ply++ {
			var ml movegen.MoveList
			movegen.Legal(p, &ml)
			if ml.Len() == 0 {
				break
			}
			p.Make(ml.At(r.IntN(ml.Len())))
			if r.IntN(4) == 0 {
				out = append(out, p.Clone())
			}
		}
	}
	return out
}

func TestEvaluateMatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	ps := randomPositions(t, r, 300)
	for _, act := range []Activation{CReLU, SCReLU} {
		for _, h := range []int{16, 48, 256} {
			for _, n := range []*Network{randomNet(t, h, act, uint64(h)), kingNet(t, h, 8, uint64(h))} {
				for _, p := range ps {
					require.Equal(t, referenceEval(n, p), n.Evaluate(p), "%v %s", n, p.FEN())
				}
			}
		}
	}
}

func TestEvaluateDoesNotAllocate(t *testing.T) {
	for _, n := range []*Network{randomNet(t, 256, SCReLU, 9), kingNet(t, 256, 4, 9)} {
		p := board.StartPosition()
		stack := NewAccumulators(n, 2)
		stack[0].Refresh(p)
		m, err := movegen.ParseUCI(p, "g1f3")
		require.NoError(t, err)
		d := MoveDelta(p, m)
		allocs := testing.AllocsPerRun(100, func() {
			stack[1].Apply(&stack[0], &d, p)
			stack[1].ApplyPerspective(&stack[0], &d, board.Black)
			_ = stack[1].Evaluate(p)
			stack[0].Refresh(p)
		})
		assert.Zero(t, allocs, n.String())
	}
}

// TestNeedsRefresh pins which king moves recompute a perspective in a
// version 3 network: into another bucket or across the d/e files, for the
// king's own side only; never without king buckets.
func TestNeedsRefresh(t *testing.T) {
	kn := kingNet(t, 16, 4, 1) // testKingBuckets(4): by rank, 1 / 2 / 3-4 / 5-8
	plain := randomNet(t, 16, CReLU, 1)
	for _, c := range []struct {
		fen, move    string
		white, black bool
	}{
		{"4k3/8/8/8/8/8/8/4K3 w - - 0 1", "e1f1", false, false},  // e and f: the same half, rank 1
		{"4k3/8/8/8/8/8/8/4K3 w - - 0 1", "e1d1", true, false},   // across the middle
		{"4k3/8/8/8/8/8/8/4K3 w - - 0 1", "e1e2", true, false},   // rank 1 to rank 2
		{"4k3/8/8/8/8/8/2K5/8 w - - 0 1", "c2c3", true, false},   // rank 2 to rank 3
		{"4k3/8/8/8/8/2K5/8/8 w - - 0 1", "c3c4", false, false},  // ranks 3-4 are one bucket
		{"4k3/8/8/8/8/8/8/4K3 b - - 0 1", "e8e7", false, true},   // Black's rank 2
		{"r3k3/8/8/8/8/8/8/4K3 b q - 0 1", "e8c8", false, true},  // castling long crosses the middle
		{"4k2r/8/8/8/8/8/8/4K3 b k - 0 1", "e8g8", false, false}, // castling short stays
		{"4k3/8/8/8/8/8/8/4K2R w K - 0 1", "h1h8", false, false}, // not a king move
	} {
		p, err := movegen.ParseFEN(c.fen)
		require.NoError(t, err)
		m, err := movegen.ParseUCI(p, c.move)
		require.NoError(t, err, c.move)
		d := MoveDelta(p, m)
		assert.Equal(t, c.white, kn.NeedsRefresh(&d, board.White), "%s %s, White", c.fen, c.move)
		assert.Equal(t, c.black, kn.NeedsRefresh(&d, board.Black), "%s %s, Black", c.fen, c.move)
		assert.False(t, plain.NeedsRefresh(&d, board.White))
		assert.False(t, plain.NeedsRefresh(&d, board.Black))
	}
}

// TestPrimitivesMoveKingWithinSlot: with king buckets, Sub and Add of a
// king within its slot follow the king, as a refresh of the moved position.
func TestPrimitivesMoveKingWithinSlot(t *testing.T) {
	n := kingNet(t, 32, 4, 6) // ranks 3-4 are one bucket
	p, err := movegen.ParseFEN("4k3/8/8/8/8/2K5/8/8 w - - 0 1")
	require.NoError(t, err)
	a := NewAccumulator(n)
	a.Refresh(p)
	wk := board.MakePiece(board.White, board.King)
	a.Sub(wk, board.Square(18)) // c3
	a.Add(wk, board.Square(26)) // c4
	m, err := movegen.ParseUCI(p, "c3c4")
	require.NoError(t, err)
	p.Make(m)
	want := NewAccumulator(n)
	want.Refresh(p)
	assert.True(t, a.Equal(want))
	assert.Equal(t, want.Evaluate(p), a.Evaluate(p))
}
