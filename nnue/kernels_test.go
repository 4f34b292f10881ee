package nnue

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twofold-chess/twofold/board"
	"github.com/twofold-chess/twofold/movegen"
)

func TestKernelsListed(t *testing.T) {
	names := Kernels()
	require.NotEmpty(t, names)
	assert.Equal(t, "go", names[len(names)-1], "the Go path is always there, slowest last")
	n := randomNet(t, 16, CReLU, 1)
	assert.Equal(t, names[0], n.Kernel(), "new networks take the fastest")
	for _, name := range names {
		m, err := n.WithKernel(name)
		require.NoError(t, err)
		assert.Equal(t, name, m.Kernel())
		assert.Equal(t, n.Checksum(), m.Checksum())
	}
	_, err := n.WithKernel("neon")
	assert.ErrorContains(t, err, "not available")
	t.Logf("kernels here: %v", names)
}

// extremeNet fills every weight from the whole int16 range, so the
// accumulators, the int16 products of SCReLU and the int32 sums all wrap:
// the paths must still agree bit for bit.
func extremeNet(t testing.TB, r *rand.Rand, h, buckets int, act Activation) *Network {
	fill := func(count int) []int16 {
		out := make([]int16, count)
		for i := range out {
			out[i] = int16(r.Uint32())
		}
		return out
	}
	ob := make([]int32, buckets)
	for i := range ob {
		ob[i] = int32(r.Uint32())
	}
	n, err := New(h, act, fill(Inputs*h), fill(h), fill(buckets*2*h), ob)
	require.NoError(t, err)
	return n
}

// TestKernelsAgree compares every vector path with the Go path on
// thousands of random positions and networks (sizes that are and are not
// multiples of 32, trained-like and wrapping weights): refreshed
// accumulators, every fused update, and the evaluation.
func TestKernelsAgree(t *testing.T) {
	names := Kernels()
	if len(names) == 1 {
		t.Skip("only the Go kernels in this build (GOEXPERIMENT=simd enables the vector ones)")
	}
	r := rand.New(rand.NewPCG(3, 4))
	positions := randomPositions(t, r, 400)
	nets := 0
	compared := 0
	for _, h := range []int{16, 32, 48, 80, 256, 1040} {
		for _, act := range []Activation{CReLU, SCReLU} {
			for _, extreme := range []bool{false, true} {
				var ref *Network
				if extreme {
					ref = extremeNet(t, r, h, 1+r.IntN(MaxBuckets), act)
				} else {
					ref = randomBucketNet(t, h, 1+r.IntN(MaxBuckets), act, r.Uint64())
				}
				ref, _ = ref.WithKernel("go")
				nets++
				for _, name := range names[:len(names)-1] {
					vec, err := ref.WithKernel(name)
					require.NoError(t, err)
					compared += compareKernels(t, r, ref, vec, positions)
				}
			}
		}
	}
	t.Logf("%d networks, %d positions compared on %v", nets, compared, names)
}

func compareKernels(t *testing.T, r *rand.Rand, ref, vec *Network, positions []*board.Position) int {
	t.Helper()
	want, got := NewAccumulators(ref, 2), NewAccumulators(vec, 2)
	count := len(positions)
	if ref.hidden > 256 {
		count /= 4 // the large sizes cost more; fewer positions keep the test quick
	}
	for _, p := range positions[:count] {
		want[0].Refresh(p)
		got[0].Refresh(p)
		require.True(t, equalVals(&want[0], &got[0]), "%s: refresh of %s", vec.Kernel(), p.FEN())
		require.Equal(t, want[0].Evaluate(p), got[0].Evaluate(p), "%s: eval of %s", vec.Kernel(), p.FEN())
		b := r.IntN(ref.buckets)
		require.Equal(t, want[0].evaluate(p.Side().Other(), b), got[0].evaluate(p.Side().Other(), b))

		var ml movegen.MoveList
		movegen.Legal(p, &ml)
		if ml.Len() == 0 {
			continue
		}
		m := ml.At(r.IntN(ml.Len()))
		d := MoveDelta(p, m)
		after := p.Clone()
		after.Make(m)
		want[1].Apply(&want[0], &d, after)
		got[1].Apply(&got[0], &d, after)
		require.True(t, equalVals(&want[1], &got[1]), "%s: %v in %s", vec.Kernel(), m, p.FEN())
		require.Equal(t, want[1].evaluate(p.Side().Other(), b), got[1].evaluate(p.Side().Other(), b))

		// Every fused kernel on arbitrary features, in place as well.
		ps := func() PieceSquare {
			return PieceSquare{board.MakePiece(board.Color(r.IntN(2)), board.PieceType(r.IntN(6))), board.Square(r.IntN(64))}
		}
		a1, a2, s1, s2 := ps(), ps(), ps(), ps()
		want[1].AddAddSubSub(&want[0], a1, a2, s1, s2)
		got[1].AddAddSubSub(&got[0], a1, a2, s1, s2)
		require.True(t, equalVals(&want[1], &got[1]))
		want[1].AddSubSub(&want[1], a1, s1, s2)
		got[1].AddSubSub(&got[1], a1, s1, s2)
		require.True(t, equalVals(&want[1], &got[1]))
		want[1].AddSub(&want[1], a2, s2)
		got[1].AddSub(&got[1], a2, s2)
		want[1].Sub(a1.Piece, a1.Square)
		got[1].Sub(a1.Piece, a1.Square)
		require.True(t, equalVals(&want[1], &got[1]))
		require.Equal(t, want[1].evaluate(board.White, b), got[1].evaluate(board.White, b))
	}
	return count
}

// equalVals compares accumulators of different networks (same weights).
func equalVals(a, b *Accumulator) bool {
	return a.net.hidden == b.net.hidden && (&Accumulator{vals: a.vals}).Equal(&Accumulator{vals: b.vals})
}

// TestPureKernelsDirectly pins the Go dot kernels on a case small enough
// to check by hand, including the int16 wrap of SCReLU's c*w.
func TestPureKernelsDirectly(t *testing.T) {
	us := make([]int16, 16)
	them := make([]int16, 16)
	w := make([]int16, 32)
	us[0], us[1], us[2] = -5, 300, 100 // clamps to 0, 255, 100
	them[3] = 255
	w[0], w[1], w[2] = 7, 2, -3
	w[16+3] = 200 // 255*200 = 51000 wraps to 51000-65536 = -14536 in int16
	assert.Equal(t, int32(255*2+100*-3+255*200), dotCReLUGo(us, them, w))
	assert.Equal(t, int32(255*2*255+100*-3*100+(-14536)*255), dotSCReLUGo(us, them, w))
	for _, name := range Kernels() {
		k := kernelsByName(name)
		assert.Equal(t, dotCReLUGo(us, them, w), k.dotCReLU(us, them, w), name)
		assert.Equal(t, dotSCReLUGo(us, them, w), k.dotSCReLU(us, them, w), name)
	}
}

// TestGoUpdateKernels checks the Go update kernels lane by lane against
// plain int16 arithmetic on values from the whole range, so every lane
// wraps somewhere, on slices that start at and off an 8-byte boundary.
func TestGoUpdateKernels(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	const n = 64
	for iter := 0; iter < 200; iter++ {
		var in [6][]int16
		for k := range in {
			in[k] = make([]int16, n+1)
			for i := range in[k] {
				in[k][i] = int16(r.Uint32())
			}
		}
		for _, off := range []int{0, 1} {
			v := func(k int) []int16 { return in[k][off : off+n-off*16] } // 64 or 48 lanes
			src, a1, a2, s1, s2 := v(0), v(1), v(2), v(3), v(4)
			dst := v(5)
			want := make([]int16, len(dst))
			check := func(name string, f func(i int) int16) {
				t.Helper()
				for i := range want {
					want[i] = f(i)
				}
				require.Equal(t, want, dst, "%s, offset %d", name, off)
			}
			copyAddGo(dst, src, a1)
			check("copyAdd", func(i int) int16 { return src[i] + a1[i] })
			copySubGo(dst, src, s1)
			check("copySub", func(i int) int16 { return src[i] - s1[i] })
			addSubGo(dst, src, a1, s1)
			check("addSub", func(i int) int16 { return src[i] + a1[i] - s1[i] })
			addSubSubGo(dst, src, a1, s1, s2)
			check("addSubSub", func(i int) int16 { return src[i] + a1[i] - s1[i] - s2[i] })
			addAddSubSubGo(dst, src, a1, a2, s1, s2)
			check("addAddSubSub", func(i int) int16 { return src[i] + a1[i] + a2[i] - s1[i] - s2[i] })
		}
	}
}
