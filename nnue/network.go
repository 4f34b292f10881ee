package nnue

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"
	"math"
	"math/rand/v2"

	"github.com/twofold-chess/twofold/board"
	"github.com/twofold-chess/twofold/internal/regularfile"
)

// The fixed parameters of the format.
const (
	Magic          = "TWFNNUE1"
	Version        = 3   // the newest format: king buckets (see the package comment)
	Inputs         = 768 // 2 colours x 6 piece types x 64 squares
	QA             = 255 // accumulator quantisation: 1.0 = QA
	QB             = 64  // output weight quantisation: 1.0 = QB
	Scale          = 400 // centipawns per unit of the network's output
	MinHidden      = 16
	MaxHidden      = 2048
	MaxBuckets     = 16 // output buckets by piece count (versions 2 and 3)
	MaxKingBuckets = 16 // input buckets by the own king's square (version 3)
)

// KingBuckets is a version 3 network's input buckets: for each square of a
// perspective's own king, seen from that perspective (its back rank as rank
// 1) and mirrored onto files a-d, the bucket whose feature weights that
// perspective uses; index rank*4 + file. The buckets are numbered 0..K-1
// and each is used. The zero value is one bucket.
type KingBuckets [32]uint8

// Count returns K, the number of buckets (the largest number plus one).
func (kb KingBuckets) Count() int {
	k := 0
	for _, b := range kb {
		k = max(k, int(b)+1)
	}
	return k
}

func (kb KingBuckets) check() error {
	k := kb.Count()
	if k > MaxKingBuckets {
		return fmt.Errorf("nnue: %d king buckets: at most %d", k, MaxKingBuckets)
	}
	var used [MaxKingBuckets]bool
	for _, b := range kb {
		used[b] = true
	}
	for b := range k {
		if !used[b] {
			return fmt.Errorf("nnue: king bucket %d of %d is not used by any square", b, k)
		}
	}
	return nil
}

// Shape is what a network file's header describes besides the fixed
// parameters: the hidden layer's width and activation, the output buckets
// and, in version 3, the king buckets.
type Shape struct {
	Hidden        int
	Activation    Activation
	OutputBuckets int         // 1..MaxBuckets
	KingRelative  bool        // version 3: mirrored, king-bucketed inputs
	KingBuckets   KingBuckets // with KingRelative
}

// version returns the file version the shape is written as: 3 when
// king-relative, else 2 with output buckets and 1 without.
func (s Shape) version() int {
	switch {
	case s.KingRelative:
		return 3
	case s.OutputBuckets > 1:
		return 2
	}
	return 1
}

// features returns the number of feature rows: Inputs per king bucket.
func (s Shape) features() int {
	if s.KingRelative {
		return Inputs * s.KingBuckets.Count()
	}
	return Inputs
}

// headerSize returns the size of a version's header: the magic and seven
// uint32 fields, version 2's and 3's output bucket count, and version 3's
// king bucket map.
func headerSize(version int) int {
	switch version {
	case 1:
		return 8 + 7*4
	case 2:
		return 8 + 8*4
	}
	return 8 + 8*4 + 32
}

// Size returns the size of the file of a network of this shape.
func (s Shape) Size() int {
	h, b := s.Hidden, s.OutputBuckets
	return headerSize(s.version()) + 2*(s.features()*h+h+b*2*h) + 4*b + 4
}

// FileSize returns the size of a file with hidden neurons and buckets
// output buckets and no king buckets (version 1 when buckets is 1, else
// version 2).
func FileSize(hidden, buckets int) int {
	return Shape{Hidden: hidden, OutputBuckets: buckets}.Size()
}

// MaxFileSize is the largest valid network file (H = MaxHidden,
// MaxBuckets output and MaxKingBuckets king buckets): the cap Load reads
// up to.
var MaxFileSize = Shape{Hidden: MaxHidden, OutputBuckets: MaxBuckets, KingRelative: true,
	KingBuckets: KingBuckets{31: MaxKingBuckets - 1}}.Size()

// Activation is the hidden layer's activation function.
type Activation uint32

// The activations a network file may name.
const (
	CReLU  Activation = 0 // clamp(x, 0, QA)
	SCReLU Activation = 1 // clamp(x, 0, QA)^2
)

// String returns "CReLU" or "SCReLU".
func (a Activation) String() string {
	switch a {
	case CReLU:
		return "CReLU"
	case SCReLU:
		return "SCReLU"
	}
	return fmt.Sprintf("Activation(%d)", uint32(a))
}

// Network is a loaded network. It is immutable and may be shared by any
// number of threads; each thread keeps its own Accumulators.
type Network struct {
	shape          Shape
	hidden         int
	activation     Activation
	buckets        int
	bucketWidth    int             // pieces per output bucket: ceil(32 / buckets)
	kingSlots      [2][64]kingSlot // [perspective][its king's square], version 3
	featureWeights []int16         // [features][hidden], row per feature
	featureBiases  []int16         // [hidden]
	outputWeights  []int16         // [buckets][2*hidden]: side to move, then the other side
	outputBiases   []int32         // [buckets]
	checksum       uint32          // the file's CRC-32, naming the network
	kern           *kernels
}

// kingSlot is where a perspective's features lie while its king stands on
// one square: the offset of its king bucket's rows, and the file flip (7
// when the king stands on files e-h, seen from the perspective, else 0).
type kingSlot struct {
	base, flip int32
	index      int32 // 2*bucket + 1 if flipped: the slot's entry in a RefreshCache
}

// New builds a network without king buckets from its parameters (as the
// file holds them): one output bucket per output bias, 2H output weights
// each. The slices are copied. It checks the sizes as Parse does.
func New(hidden int, act Activation, featureWeights, featureBiases, outputWeights []int16, outputBiases []int32) (*Network, error) {
	return NewShaped(Shape{Hidden: hidden, Activation: act, OutputBuckets: len(outputBiases)},
		featureWeights, featureBiases, outputWeights, outputBiases)
}

// NewShaped builds a network of any shape from its parameters: Inputs
// feature rows of H per king bucket (bucket after bucket), H biases, 2H
// output weights and one bias per output bucket. The slices are copied.
func NewShaped(s Shape, featureWeights, featureBiases, outputWeights []int16, outputBiases []int32) (*Network, error) {
	if err := s.check(); err != nil {
		return nil, err
	}
	h, b := s.Hidden, s.OutputBuckets
	switch {
	case len(outputBiases) != b:
		return nil, fmt.Errorf("nnue: %d output biases, want %d", len(outputBiases), b)
	case len(featureWeights) != s.features()*h:
		return nil, fmt.Errorf("nnue: %d feature weights, want %d x %d", len(featureWeights), s.features(), h)
	case len(featureBiases) != h:
		return nil, fmt.Errorf("nnue: %d feature biases, want %d", len(featureBiases), h)
	case len(outputWeights) != b*2*h:
		return nil, fmt.Errorf("nnue: %d output weights, want %d x %d", len(outputWeights), b, 2*h)
	}
	n := &Network{
		featureWeights: append([]int16(nil), featureWeights...),
		featureBiases:  append([]int16(nil), featureBiases...),
		outputWeights:  append([]int16(nil), outputWeights...),
		outputBiases:   append([]int32(nil), outputBiases...),
		kern:           bestKernels(),
	}
	n.setShape(s)
	var buf bytes.Buffer
	n.encode(&buf) // sets the checksum
	return n, nil
}

// check reports a shape no file may have.
func (s Shape) check() error {
	if err := checkHidden(int64(s.Hidden)); err != nil {
		return err
	}
	if err := checkActivation(s.Activation); err != nil {
		return err
	}
	if err := checkBuckets(int64(s.OutputBuckets)); err != nil {
		return err
	}
	if !s.KingRelative {
		if s.KingBuckets != (KingBuckets{}) {
			return fmt.Errorf("nnue: king buckets without king-relative inputs")
		}
		return nil
	}
	return s.KingBuckets.check()
}

func (n *Network) setShape(s Shape) {
	n.shape = s
	n.hidden, n.activation = s.Hidden, s.Activation
	n.buckets = s.OutputBuckets
	n.bucketWidth = (32 + n.buckets - 1) / n.buckets
	if !s.KingRelative {
		return
	}
	for persp := board.White; persp <= board.Black; persp++ {
		for sq := range 64 {
			v := sq // the king's square as persp sees it
			if persp == board.Black {
				v ^= 56
			}
			var flip int32
			if v&7 >= 4 {
				flip, v = 7, v^7
			}
			b := s.KingBuckets[(v>>3)*4+v&7]
			n.kingSlots[persp][sq] = kingSlot{base: int32(b) * Inputs, flip: flip, index: 2*int32(b) + flip/7}
		}
	}
}

// Shape returns the network's shape.
func (n *Network) Shape() Shape { return n.shape }

// Bucket returns the output bucket of a position with pieces pieces (kings
// included): (pieces-2) / ceil(32/buckets), at most buckets-1, so that
// bucket 0 holds the barest endgames and the last the opening.
func (n *Network) Bucket(pieces int) int {
	return min(max(pieces-2, 0)/n.bucketWidth, n.buckets-1)
}

// Buckets returns the number of output buckets (1 for a version 1 file).
func (n *Network) Buckets() int { return n.buckets }

func checkHidden(h int64) error {
	if h < MinHidden || h > MaxHidden || h%16 != 0 {
		return fmt.Errorf("nnue: hidden size %d: must be a multiple of 16 from %d to %d", h, MinHidden, MaxHidden)
	}
	return nil
}

func checkBuckets(b int64) error {
	if b < 1 || b > MaxBuckets {
		return fmt.Errorf("nnue: %d output buckets: must be from 1 to %d", b, MaxBuckets)
	}
	return nil
}

func checkActivation(a Activation) error {
	if a != CReLU && a != SCReLU {
		return fmt.Errorf("nnue: unknown activation %d (0 = CReLU, 1 = SCReLU)", uint32(a))
	}
	return nil
}

// Load reads a network file. A path that is not a regular file, or is
// larger than any valid network, is refused before it is read.
func Load(path string) (*Network, error) {
	data, err := regularfile.Read(path, int64(MaxFileSize), "a network")
	if err != nil {
		return nil, err
	}
	n, err := Parse(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return n, nil
}

// Parse decodes a network file held in memory (see the package comment for
// the format).
func Parse(data []byte) (*Network, error) {
	if len(data) < headerSize(1) {
		return nil, fmt.Errorf("nnue: truncated: %d bytes, shorter than the %d-byte header", len(data), headerSize(1))
	}
	if string(data[:8]) != Magic {
		return nil, fmt.Errorf("nnue: not a Twofold network (magic %q, want %q)", printable(data[:8]), Magic)
	}
	field := func(i int) uint32 { return binary.LittleEndian.Uint32(data[8+4*i:]) }
	version, inputs, hidden, qa, qb, scale, act := field(0), field(1), field(2), field(3), field(4), field(5), field(6)
	if version < 1 || version > Version {
		return nil, fmt.Errorf("nnue: version %d, this engine reads 1 to %d", version, Version)
	}
	for _, f := range []struct {
		name      string
		got, want uint32
	}{{"inputs", inputs, Inputs}, {"QA", qa, QA}, {"QB", qb, QB}, {"scale", scale, Scale}} {
		if f.got != f.want {
			return nil, fmt.Errorf("nnue: %s %d, this engine reads %d", f.name, f.got, f.want)
		}
	}
	if err := checkHidden(int64(hidden)); err != nil {
		return nil, err
	}
	if err := checkActivation(Activation(act)); err != nil {
		return nil, err
	}
	s := Shape{Hidden: int(hidden), Activation: Activation(act), OutputBuckets: 1, KingRelative: version == 3}
	if version >= 2 {
		if len(data) < headerSize(int(version)) {
			return nil, fmt.Errorf("nnue: truncated: %d bytes, shorter than the %d-byte header", len(data), headerSize(int(version)))
		}
		buckets := field(7)
		if err := checkBuckets(int64(buckets)); err != nil {
			return nil, err
		}
		if buckets == 1 && version == 2 {
			return nil, fmt.Errorf("nnue: version 2 with one output bucket (that is version 1)")
		}
		s.OutputBuckets = int(buckets)
	}
	if version == 3 {
		copy(s.KingBuckets[:], data[40:72])
		if err := s.KingBuckets.check(); err != nil {
			return nil, err
		}
	}
	h, b := s.Hidden, s.OutputBuckets
	what := fmt.Sprintf("%d hidden neurons and %d output buckets", h, b)
	if s.KingRelative {
		what += fmt.Sprintf(" and %d king buckets", s.KingBuckets.Count())
	}
	switch want := s.Size(); {
	case len(data) < want:
		return nil, fmt.Errorf("nnue: truncated: %d bytes, a network with %s has %d", len(data), what, want)
	case len(data) > want:
		return nil, fmt.Errorf("nnue: %d bytes, longer than the %d a network with %s has", len(data), want, what)
	}
	body, sum := data[:len(data)-4], binary.LittleEndian.Uint32(data[len(data)-4:])
	if got := crc32.ChecksumIEEE(body); got != sum {
		return nil, fmt.Errorf("nnue: checksum mismatch (file says %08x, contents give %08x): the file is corrupt", sum, got)
	}

	rest := body[headerSize(int(version)):]
	int16s := func(count int) []int16 {
		out := make([]int16, count)
		for i := range out {
			out[i] = int16(binary.LittleEndian.Uint16(rest[2*i:]))
		}
		rest = rest[2*count:]
		return out
	}
	n := &Network{checksum: sum, kern: bestKernels()}
	n.setShape(s)
	n.featureWeights = int16s(s.features() * h)
	n.featureBiases = int16s(h)
	n.outputWeights = int16s(b * 2 * h)
	n.outputBiases = make([]int32, b)
	for i := range n.outputBiases {
		n.outputBiases[i] = int32(binary.LittleEndian.Uint32(rest[4*i:]))
	}
	return n, nil
}

// printable shows a foreign magic without control characters.
func printable(b []byte) string {
	out := make([]byte, len(b))
	for i, c := range b {
		if c < 0x20 || c > 0x7e {
			c = '?'
		}
		out[i] = c
	}
	return string(out)
}

// Write writes the network in the file format Parse reads.
func (n *Network) Write(w io.Writer) error {
	var buf bytes.Buffer
	buf.Grow(n.shape.Size())
	n.encode(&buf)
	_, err := w.Write(buf.Bytes())
	return err
}

// encode writes the file into buf and records its checksum: version 3
// for king-relative inputs, else version 1 for one output bucket (so a
// version 1 file reads and writes back the same bytes) and 2 for more.
func (n *Network) encode(buf *bytes.Buffer) {
	le := binary.LittleEndian
	buf.WriteString(Magic)
	version := n.shape.version()
	header := []uint32{uint32(version), Inputs, uint32(n.hidden), QA, QB, Scale, uint32(n.activation)}
	if version >= 2 {
		header = append(header, uint32(n.buckets))
	}
	for _, v := range header {
		buf.Write(le.AppendUint32(nil, v))
	}
	if version == 3 {
		buf.Write(n.shape.KingBuckets[:])
	}
	b := buf.AvailableBuffer()
	for _, s := range [][]int16{n.featureWeights, n.featureBiases, n.outputWeights} {
		for _, v := range s {
			b = le.AppendUint16(b, uint16(v))
		}
	}
	for _, v := range n.outputBiases {
		b = le.AppendUint32(b, uint32(v))
	}
	buf.Write(b)
	n.checksum = crc32.ChecksumIEEE(buf.Bytes())
	buf.Write(le.AppendUint32(nil, n.checksum))
}

// Hidden returns H, the number of hidden neurons per perspective.
func (n *Network) Hidden() int { return n.hidden }

// Activation returns the hidden layer's activation.
func (n *Network) Activation() Activation { return n.activation }

// Checksum returns the CRC-32 that ends the network's file: with Hidden
// and Activation, what names a network in messages.
func (n *Network) Checksum() uint32 { return n.checksum }

// String describes the network, e.g. "(768->256)x2->1 SCReLU, crc
// 1a2b3c4d"; "(768->256)x2->1x8 SCReLU, crc 1a2b3c4d" with 8 output
// buckets; "(768x4hm->256)x2->1x8 ..." with 4 king buckets, horizontally
// mirrored.
func (n *Network) String() string {
	in, out := "", ""
	if n.shape.KingRelative {
		in = fmt.Sprintf("x%dhm", n.shape.KingBuckets.Count())
	}
	if n.buckets > 1 {
		out = fmt.Sprintf("x%d", n.buckets)
	}
	return fmt.Sprintf("(%d%s->%d)x2->1%s %v, crc %08x", Inputs, in, n.hidden, out, n.activation, n.checksum)
}

// Kernel names the code path this network's arithmetic runs on ("avx512",
// "avx2" or "go").
func (n *Network) Kernel() string { return n.kern.name }

// WithKernel returns a network sharing n's weights whose arithmetic runs on
// the named kernel (one of Kernels()); the results are the same, only the
// speed differs. It exists so tests and benchmarks can compare the paths.
func (n *Network) WithKernel(name string) (*Network, error) {
	k := kernelsByName(name)
	if k == nil {
		return nil, fmt.Errorf("nnue: kernel %q not available here (have %v)", name, Kernels())
	}
	c := *n
	c.kern = k
	return &c, nil
}

// row returns the feature weights of one input feature.
func (n *Network) row(feature int) []int16 {
	return n.featureWeights[feature*n.hidden : feature*n.hidden+n.hidden]
}

// feature returns the input feature of a piece on sq as perspective persp
// sees it with its king on king: FeatureIndex, in a version 3 network
// mirrored when that king stands on files e-h and offset to its bucket.
func (n *Network) feature(persp board.Color, king board.Square, pc board.Piece, sq board.Square) int {
	ks := n.kingSlots[persp][king]
	return int(ks.base) + FeatureIndex(persp, pc, sq^board.Square(ks.flip))
}

// FeatureIndex returns the input feature of a piece on sq as perspective
// persp sees it (without king buckets).
func FeatureIndex(persp board.Color, pc board.Piece, sq board.Square) int {
	f := 64*int(pc.Type()) + int(sq)
	if persp == board.Black {
		f ^= 56
	}
	if pc.Color() != persp {
		f += 384
	}
	return f
}

// Random returns a network of random weights for tests and benchmarks,
// shaped like a trained one: accumulators well inside int16, small output
// weights, and the other side's output weights the negation of the side
// to move's, so a position and its colour-flipped twin score opposite and
// evaluations spread over a few hundred centipawns around 0; each output
// bucket has its own weights. The same seed gives the same network.
func Random(hidden, buckets int, act Activation, seed uint64) (*Network, error) {
	return RandomShaped(Shape{Hidden: hidden, Activation: act, OutputBuckets: buckets}, seed)
}

// RandomShaped returns a network of random weights of any shape, as Random
// does; each king bucket has its own feature weights.
func RandomShaped(s Shape, seed uint64) (*Network, error) {
	if err := s.check(); err != nil {
		return nil, err
	}
	hidden, buckets := s.Hidden, s.OutputBuckets
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	fill := func(count, lo, hi int) []int16 {
		out := make([]int16, count)
		for i := range out {
			out[i] = int16(lo + r.IntN(hi-lo+1))
		}
		return out
	}
	fw, fb := fill(s.features()*hidden, -48, 48), fill(hidden, -64, 192)
	// The output's spread grows with the square root of H.
	limit := max(1, int(24*math.Sqrt(256/float64(hidden))))
	ow := fill(buckets*2*hidden, -limit, limit)
	ob := make([]int32, buckets)
	for b := range buckets {
		w := ow[b*2*hidden:]
		for i := range hidden {
			w[hidden+i] = -w[i]
		}
		ob[b] = int32(r.IntN(QA * QB / 10))
	}
	return NewShaped(s, fw, fb, ow, ob)
}
