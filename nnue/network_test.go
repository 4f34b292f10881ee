package nnue

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twofold-chess/twofold/board"
)

func randomNet(t testing.TB, hidden int, act Activation, seed uint64) *Network {
	t.Helper()
	return randomBucketNet(t, hidden, 1, act, seed)
}

func randomBucketNet(t testing.TB, hidden, buckets int, act Activation, seed uint64) *Network {
	t.Helper()
	n, err := Random(hidden, buckets, act, seed)
	require.NoError(t, err)
	return n
}

// testKingBuckets returns a king bucket map of k buckets (4 or 8): by the
// king's rank (1, 2, 3-4, 5-8), and with 8 also split into files a-b and
// c-d.
func testKingBuckets(k int) KingBuckets {
	var kb KingBuckets
	if k == 1 {
		return kb
	}
	byRank := [8]uint8{0, 1, 2, 2, 3, 3, 3, 3}
	for i := range kb {
		rank, file := i/4, i%4
		kb[i] = byRank[rank]
		if k == 8 {
			kb[i] = 2*byRank[rank] + uint8(file/2)
		}
	}
	return kb
}

func kingNet(t testing.TB, hidden, k int, seed uint64) *Network {
	t.Helper()
	n, err := RandomShaped(Shape{Hidden: hidden, Activation: SCReLU, OutputBuckets: 8, KingRelative: true,
		KingBuckets: testKingBuckets(k)}, seed)
	require.NoError(t, err)
	return n
}

func encoded(t testing.TB, n *Network) []byte {
	t.Helper()
	var buf bytes.Buffer
	require.NoError(t, n.Write(&buf))
	return buf.Bytes()
}

func TestWriteParseRoundTrip(t *testing.T) {
	for _, c := range []struct {
		hidden, buckets int
		act             Activation
	}{{16, 1, CReLU}, {32, 1, SCReLU}, {256, 1, CReLU}, {MaxHidden, 1, SCReLU}, {16, 2, CReLU}, {128, 8, SCReLU}, {MaxHidden, MaxBuckets, SCReLU}} {
		n := randomBucketNet(t, c.hidden, c.buckets, c.act, uint64(c.hidden))
		data := encoded(t, n)
		require.Len(t, data, FileSize(c.hidden, c.buckets))
		assert.Equal(t, Magic, string(data[:8]))
		assert.Equal(t, crc32.ChecksumIEEE(data[:len(data)-4]), binary.LittleEndian.Uint32(data[len(data)-4:]))

		m, err := Parse(data)
		require.NoError(t, err)
		assert.Equal(t, c.hidden, m.Hidden())
		assert.Equal(t, c.act, m.Activation())
		assert.Equal(t, c.buckets, m.Buckets())
		assert.Equal(t, n.Checksum(), m.Checksum())
		assert.Equal(t, n.featureWeights, m.featureWeights)
		assert.Equal(t, n.featureBiases, m.featureBiases)
		assert.Equal(t, n.outputWeights, m.outputWeights)
		assert.Equal(t, n.outputBiases, m.outputBiases)
		assert.Equal(t, data, encoded(t, m))
	}
}

// TestHeaderLayout pins the byte offsets the trainer writes.
func TestHeaderLayout(t *testing.T) {
	n := randomNet(t, 48, SCReLU, 7)
	data := encoded(t, n)
	le := binary.LittleEndian
	for i, want := range []uint32{1, 768, 48, 255, 64, 400, 1} {
		assert.Equal(t, want, le.Uint32(data[8+4*i:]), "field %d", i)
	}
	w := func(off int) int16 { return int16(le.Uint16(data[off:])) }
	assert.Equal(t, n.featureWeights[0], w(36))
	assert.Equal(t, n.featureWeights[5*48+3], w(36+2*(5*48+3)), "row 5, neuron 3")
	bias := 36 + 2*768*48
	assert.Equal(t, n.featureBiases[7], w(bias+2*7))
	out := bias + 2*48
	assert.Equal(t, n.outputWeights[48+1], w(out+2*(48+1)), "first weight of the other side")
	assert.Equal(t, n.outputBiases[0], int32(le.Uint32(data[out+2*96:])))
}

// TestHeaderLayoutBuckets pins version 2: the bucket count after the
// activation, the buckets' output weights one after another, then their
// int32 biases.
func TestHeaderLayoutBuckets(t *testing.T) {
	n := randomBucketNet(t, 32, 8, SCReLU, 7)
	data := encoded(t, n)
	require.Len(t, data, FileSize(32, 8))
	le := binary.LittleEndian
	for i, want := range []uint32{2, 768, 32, 255, 64, 400, 1, 8} {
		assert.Equal(t, want, le.Uint32(data[8+4*i:]), "field %d", i)
	}
	w := func(off int) int16 { return int16(le.Uint16(data[off:])) }
	assert.Equal(t, n.featureWeights[5*32+3], w(40+2*(5*32+3)), "row 5, neuron 3")
	out := 40 + 2*768*32 + 2*32
	assert.Equal(t, n.outputWeights[3*64+32+1], w(out+2*(3*64+32+1)), "bucket 3, the other side's second weight")
	biases := out + 2*8*64
	for b := range 8 {
		assert.Equal(t, n.outputBiases[b], int32(le.Uint32(data[biases+4*b:])), "bias of bucket %d", b)
	}
	assert.Equal(t, len(data)-4, biases+4*8)
	m, err := Parse(data)
	require.NoError(t, err)
	assert.Equal(t, 8, m.Buckets())
	assert.Equal(t, "(768->32)x2->1x8 SCReLU, crc "+fmt.Sprintf("%08x", n.Checksum()), m.String())
	assert.Equal(t, data, encoded(t, m))

	// A version 2 header naming one bucket (which is version 1's layout)
	// or more than MaxBuckets is refused.
	for _, b := range []uint32{0, 1, MaxBuckets + 1} {
		bad := append([]byte(nil), data...)
		le.PutUint32(bad[36:], b)
		_, err := Parse(withCRC(bad))
		assert.Error(t, err, "%d buckets", b)
	}
}

// TestBucket pins the piece-count buckets: (pieces-2) / ceil(32/B).
func TestBucket(t *testing.T) {
	for _, c := range []struct {
		buckets int
		want    map[int]int // pieces -> bucket
	}{
		{1, map[int]int{2: 0, 17: 0, 32: 0}},
		{2, map[int]int{2: 0, 17: 0, 18: 1, 32: 1}},
		{8, map[int]int{2: 0, 5: 0, 6: 1, 9: 1, 10: 2, 29: 6, 30: 7, 32: 7}},
		{16, map[int]int{2: 0, 3: 0, 4: 1, 31: 14, 32: 15}},
		{3, map[int]int{2: 0, 12: 0, 13: 1, 24: 2, 32: 2}},
	} {
		n := randomBucketNet(t, 16, c.buckets, CReLU, 1)
		for pieces, want := range c.want {
			assert.Equal(t, want, n.Bucket(pieces), "%d buckets, %d pieces", c.buckets, pieces)
		}
	}
}

// TestBucketsEvaluateApart: each position is scored with its own bucket's
// weights, so a network whose buckets differ only in their bias scores the
// start position (32 pieces) with the last bucket's and K v K with the
// first's.
func TestBucketsEvaluateApart(t *testing.T) {
	h := 16
	ob := []int32{QA * QB / 4, QA * QB / 2} // 100 cp and 200 cp
	n, err := New(h, SCReLU, make([]int16, Inputs*h), make([]int16, h), make([]int16, 2*2*h), ob)
	require.NoError(t, err)
	kk, err := board.ParseFEN("4k3/8/8/8/8/8/8/4K3 w - - 0 1")
	require.NoError(t, err)
	for _, kn := range Kernels() {
		nk, err := n.WithKernel(kn)
		require.NoError(t, err)
		assert.Equal(t, 200, nk.Evaluate(board.StartPosition()), kn)
		assert.Equal(t, 100, nk.Evaluate(kk), kn)
	}
}

// withCRC fixes the checksum after a test edits the body, so the intended
// check (not the checksum) is what refuses the file.
func withCRC(data []byte) []byte {
	binary.LittleEndian.PutUint32(data[len(data)-4:], crc32.ChecksumIEEE(data[:len(data)-4]))
	return data
}

func TestParseRefusesBadFiles(t *testing.T) {
	good := encoded(t, randomNet(t, 32, CReLU, 1))
	edit := func(f func(d []byte) []byte) []byte { return f(append([]byte(nil), good...)) }
	setField := func(i int, v uint32) []byte {
		return edit(func(d []byte) []byte {
			binary.LittleEndian.PutUint32(d[8+4*i:], v)
			return withCRC(d)
		})
	}
	for _, c := range []struct {
		name string
		data []byte
		want string
	}{
		{"empty", nil, "truncated"},
		{"short header", good[:20], "truncated"},
		{"magic", edit(func(d []byte) []byte { copy(d, "TWFNNUE2"); return withCRC(d) }), "not a Twofold network"},
		{"onnx file", append([]byte("\x08\x07\x12\x04onnx"), good[8:]...), "not a Twofold network"},
		{"version", setField(0, 4), "version 4"},
		{"version 2 body of version 1", setField(0, 2), "output buckets"},
		{"inputs", setField(1, 769), "inputs 769"},
		{"hidden zero", setField(2, 0), "hidden size 0"},
		{"hidden not a multiple of 16", setField(2, 40), "hidden size 40"},
		{"hidden too large", setField(2, 4096), "hidden size 4096"},
		{"hidden huge", setField(2, 0xFFFFFFF0), "hidden size 4294967280"},
		{"QA", setField(3, 127), "QA 127"},
		{"QB", setField(4, 128), "QB 128"},
		{"scale", setField(5, 600), "scale 600"},
		{"activation", setField(6, 2), "unknown activation 2"},
		{"hidden says larger", setField(2, 48), "truncated"},
		{"hidden says smaller", setField(2, 16), "longer than"},
		{"truncated body", good[:len(good)-5], "truncated"},
		{"no checksum", good[:len(good)-4], "truncated"},
		{"trailing byte", append(append([]byte(nil), good...), 0), "longer than"},
		{"flipped weight", edit(func(d []byte) []byte { d[1000] ^= 4; return d }), "checksum mismatch"},
		{"flipped checksum", edit(func(d []byte) []byte { d[len(d)-1] ^= 1; return d }), "checksum mismatch"},
	} {
		t.Run(c.name, func(t *testing.T) {
			n, err := Parse(c.data)
			require.Error(t, err)
			assert.Nil(t, n)
			assert.Contains(t, err.Error(), c.want)
		})
	}
}

func TestLoad(t *testing.T) {
	dir := t.TempDir()
	n := randomNet(t, 64, SCReLU, 3)
	path := filepath.Join(dir, "net.nnue")
	require.NoError(t, os.WriteFile(path, encoded(t, n), 0o644))
	m, err := Load(path)
	require.NoError(t, err)
	assert.Equal(t, n.Checksum(), m.Checksum())

	bad := filepath.Join(dir, "bad.nnue")
	require.NoError(t, os.WriteFile(bad, encoded(t, n)[:100], 0o644))
	_, err = Load(bad)
	require.Error(t, err)
	assert.Contains(t, err.Error(), bad)
	assert.Contains(t, err.Error(), "truncated")

	_, err = Load(filepath.Join(dir, "missing.nnue"))
	assert.ErrorIs(t, err, os.ErrNotExist)

	_, err = Load(dir)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "directory")

	fifo := filepath.Join(dir, "fifo")
	if syscall.Mkfifo(fifo, 0o644) == nil { // must not block
		_, err = Load(fifo)
		require.Error(t, err)
		assert.Contains(t, err.Error(), "named pipe")
	}

	// A file larger than any network is refused before it is read.
	big := filepath.Join(dir, "big.nnue")
	f, err := os.Create(big)
	require.NoError(t, err)
	require.NoError(t, f.Truncate(int64(MaxFileSize)+1))
	require.NoError(t, f.Close())
	_, err = Load(big)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "larger than")
}

func TestNewChecksSizes(t *testing.T) {
	h := 16
	fw, fb, ow := make([]int16, Inputs*h), make([]int16, h), make([]int16, 2*h)
	_, err := New(h, CReLU, fw, fb, ow, []int32{0})
	require.NoError(t, err)
	_, err = New(h, CReLU, fw, fb, append(ow, ow...), []int32{0, 0})
	require.NoError(t, err)
	for _, c := range []struct {
		name string
		err  func() error
	}{
		{"hidden", func() error { _, err := New(24, CReLU, fw, fb, ow, []int32{0}); return err }},
		{"activation", func() error { _, err := New(h, 3, fw, fb, ow, []int32{0}); return err }},
		{"feature weights", func() error { _, err := New(h, CReLU, fw[1:], fb, ow, []int32{0}); return err }},
		{"biases", func() error { _, err := New(h, CReLU, fw, fb[1:], ow, []int32{0}); return err }},
		{"output weights", func() error { _, err := New(h, CReLU, fw, fb, ow[1:], []int32{0}); return err }},
		{"output weights of two buckets", func() error { _, err := New(h, CReLU, fw, fb, ow, []int32{0, 0}); return err }},
		{"no bucket", func() error { _, err := New(h, CReLU, fw, fb, nil, nil); return err }},
		{"too many buckets", func() error {
			_, err := New(h, CReLU, fw, fb, make([]int16, 17*2*h), make([]int32, 17))
			return err
		}},
	} {
		assert.Error(t, c.err(), c.name)
	}
	_, err = Random(17, 1, CReLU, 1)
	assert.Error(t, err)
}

func TestFeatureIndex(t *testing.T) {
	wp, bk := board.MakePiece(board.White, board.Pawn), board.MakePiece(board.Black, board.King)
	e2, e8 := board.Square(12), board.Square(60)
	assert.Equal(t, 12, FeatureIndex(board.White, wp, e2))
	assert.Equal(t, 384+52, FeatureIndex(board.Black, wp, e2), "e2 is e7 seen from Black")
	assert.Equal(t, 384+5*64+60, FeatureIndex(board.White, bk, e8))
	assert.Equal(t, 5*64+4, FeatureIndex(board.Black, bk, e8), "Black's own king on its back rank")
	seen := map[int]bool{}
	for persp := board.White; persp <= board.Black; persp++ {
		clear(seen)
		for c := board.White; c <= board.Black; c++ {
			for pt := board.Pawn; pt <= board.King; pt++ {
				for sq := board.Square(0); sq < 64; sq++ {
					f := FeatureIndex(persp, board.MakePiece(c, pt), sq)
					require.True(t, f >= 0 && f < Inputs)
					require.False(t, seen[f])
					seen[f] = true
				}
			}
		}
		assert.Len(t, seen, Inputs)
	}
}

// TestEvaluateByHand checks the output formula on a network whose answer
// is worked out by hand: only biases, so every neuron holds the bias.
func TestEvaluateByHand(t *testing.T) {
	h := 16
	fb := make([]int16, h)
	for i := range fb {
		fb[i] = 200
	}
	ow := make([]int16, 2*h)
	for _, c := range []struct {
		name    string
		act     Activation
		wUs     int16
		wThem   int16
		bias    int32
		want    int
		explain string
	}{
		{"CReLU", CReLU, 1, 2, 0, 235, "(16*200*1 + 16*200*2) * 400 / 16320 = 235.29"},
		{"CReLU negative rounds toward zero", CReLU, -1, -2, 0, -235, "-235.29"},
		{"CReLU bias", CReLU, 0, 0, 16320, 400, "one unit of output is 400 cp"},
		{"SCReLU", SCReLU, 1, 2, 0, 184, "(16*200*200 + 16*200*200*2)/255 = 7529; 7529*400/16320 = 184.5"},
		{"SCReLU negative rounds toward zero", SCReLU, -1, -2, 0, -184, "-7529*400/16320 = -184.5"},
	} {
		for i := range h {
			ow[i], ow[h+i] = c.wUs, c.wThem
		}
		n, err := New(h, c.act, make([]int16, Inputs*h), fb, ow, []int32{c.bias})
		require.NoError(t, err)
		for _, kn := range Kernels() {
			nk, err := n.WithKernel(kn)
			require.NoError(t, err)
			assert.Equal(t, c.want, nk.Evaluate(board.StartPosition()), "%s on %s: %s", c.name, kn, c.explain)
		}
	}
}

// TestEvaluateClamps checks the clamp at 0 and QA on both sides.
func TestEvaluateClamps(t *testing.T) {
	h := 16
	fw := make([]int16, Inputs*h)
	fb := make([]int16, h)
	ow := make([]int16, 2*h)
	for i := range h {
		fb[i] = int16(-100 + 40*i) // -100 .. 500: some below 0, some above QA
		ow[i], ow[h+i] = 1, 1
	}
	var want int64
	for i := range h {
		c := int64(min(max(int(fb[i]), 0), QA))
		want += 2 * c
	}
	n, err := New(h, CReLU, fw, fb, ow, []int32{0})
	require.NoError(t, err)
	assert.Equal(t, int(want*Scale/(QA*QB)), n.Evaluate(board.StartPosition()))
}

// TestKingBucketFile pins version 3's layout and what Parse refuses in it.
func TestKingBucketFile(t *testing.T) {
	assert.Equal(t, KingBuckets{}, testKingBuckets(1))
	for _, k := range []int{4, 8} {
		assert.Equal(t, k, testKingBuckets(k).Count())
	}
	n := kingNet(t, 32, 4, 7)
	data := encoded(t, n)
	require.Len(t, data, n.Shape().Size())
	require.Len(t, data, 72+2*(4*768*32+32+8*64)+4*8+4)
	le := binary.LittleEndian
	for i, want := range []uint32{3, 768, 32, 255, 64, 400, 1, 8} {
		assert.Equal(t, want, le.Uint32(data[8+4*i:]), "field %d", i)
	}
	kb := testKingBuckets(4)
	assert.Equal(t, kb[:], data[40:72])
	w := func(off int) int16 { return int16(le.Uint16(data[off:])) }
	assert.Equal(t, n.featureWeights[(2*768+5)*32+3], w(72+2*((2*768+5)*32+3)), "bucket 2, row 5, neuron 3")
	m, err := Parse(data)
	require.NoError(t, err)
	assert.Equal(t, n.Shape(), m.Shape())
	assert.Equal(t, n.featureWeights, m.featureWeights)
	assert.Equal(t, "(768x4hm->32)x2->1x8 SCReLU, crc "+fmt.Sprintf("%08x", n.Checksum()), m.String())
	assert.Equal(t, data, encoded(t, m))
	p := board.StartPosition()
	assert.Equal(t, n.Evaluate(p), m.Evaluate(p))

	// One king bucket, mirrored, is a version 3 file of its own.
	one, err := RandomShaped(Shape{Hidden: 16, Activation: CReLU, OutputBuckets: 1, KingRelative: true}, 1)
	require.NoError(t, err)
	assert.Equal(t, uint32(3), le.Uint32(encoded(t, one)[8:]))
	assert.Contains(t, one.String(), "(768x1hm->16)x2->1 CReLU")

	for _, c := range []struct {
		name string
		edit func(d []byte)
		want string
	}{
		{"a bucket unused", func(d []byte) { d[40+31] = 5 }, "king bucket 4 of 6 is not used"},
		{"too many buckets", func(d []byte) { d[40+31] = MaxKingBuckets }, "17 king buckets"},
		{"fewer buckets than the weights", func(d []byte) {
			for i := 40; i < 72; i++ {
				d[i] = min(d[i], 2)
			}
		}, "longer than"},
		{"no output buckets", func(d []byte) { le.PutUint32(d[36:], 0) }, "0 output buckets"},
	} {
		bad := append([]byte(nil), data...)
		c.edit(bad)
		_, err := Parse(withCRC(bad))
		require.Error(t, err, c.name)
		assert.Contains(t, err.Error(), c.want, c.name)
	}
	_, err = RandomShaped(Shape{Hidden: 16, Activation: CReLU, OutputBuckets: 1, KingBuckets: kb}, 1)
	assert.ErrorContains(t, err, "without king-relative")
}
