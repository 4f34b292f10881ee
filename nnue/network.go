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
	Magic      = "TWFNNUE1"
	Version    = 2   // the newest format: output buckets (one-bucket networks are written as version 1)
	Inputs     = 768 // 2 colours x 6 piece types x 64 squares
	QA         = 255 // accumulator quantisation: 1.0 = QA
	QB         = 64  // output weight quantisation: 1.0 = QB
	Scale      = 400 // centipawns per unit of the network's output
	MinHidden  = 16
	MaxHidden  = 2048
	MaxBuckets = 16 // output buckets by piece count (version 2)
)

// headerSize returns the size of a version's header: the magic and seven
// uint32 fields, and version 2's bucket count.
func headerSize(version int) int {
	if version == 1 {
		return 8 + 7*4
	}
	return 8 + 8*4
}

// FileSize returns the size of a file with hidden neurons and buckets
// output buckets (version 1 when buckets is 1, else version 2).
func FileSize(hidden, buckets int) int {
	version := 1
	if buckets > 1 {
		version = 2
	}
	return headerSize(version) + 2*(Inputs*hidden+hidden+buckets*2*hidden) + 4*buckets + 4
}

// MaxFileSize is the largest valid network file (H = MaxHidden,
// MaxBuckets buckets): the cap Load reads up to.
var MaxFileSize = FileSize(MaxHidden, MaxBuckets)

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
	hidden         int
	activation     Activation
	buckets        int
	bucketWidth    int     // pieces per output bucket: ceil(32 / buckets)
	featureWeights []int16 // [Inputs][hidden], row per feature
	featureBiases  []int16 // [hidden]
	outputWeights  []int16 // [buckets][2*hidden]: side to move, then the other side
	outputBiases   []int32 // [buckets]
	checksum       uint32  // the file's CRC-32, naming the network
	kern           *kernels
}

// New builds a network from its parameters (as the file holds them): one
// output bucket per output bias, 2H output weights each. The slices are
// copied. It checks the sizes as Parse does.
func New(hidden int, act Activation, featureWeights, featureBiases, outputWeights []int16, outputBiases []int32) (*Network, error) {
	if err := checkHidden(int64(hidden)); err != nil {
		return nil, err
	}
	if err := checkActivation(act); err != nil {
		return nil, err
	}
	buckets := len(outputBiases)
	if err := checkBuckets(int64(buckets)); err != nil {
		return nil, err
	}
	switch {
	case len(featureWeights) != Inputs*hidden:
		return nil, fmt.Errorf("nnue: %d feature weights, want %d x %d", len(featureWeights), Inputs, hidden)
	case len(featureBiases) != hidden:
		return nil, fmt.Errorf("nnue: %d feature biases, want %d", len(featureBiases), hidden)
	case len(outputWeights) != buckets*2*hidden:
		return nil, fmt.Errorf("nnue: %d output weights, want %d x %d", len(outputWeights), buckets, 2*hidden)
	}
	n := &Network{
		hidden:         hidden,
		activation:     act,
		featureWeights: append([]int16(nil), featureWeights...),
		featureBiases:  append([]int16(nil), featureBiases...),
		outputWeights:  append([]int16(nil), outputWeights...),
		outputBiases:   append([]int32(nil), outputBiases...),
		kern:           bestKernels(),
	}
	n.setBuckets(buckets)
	var buf bytes.Buffer
	n.encode(&buf) // sets the checksum
	return n, nil
}

func (n *Network) setBuckets(b int) {
	n.buckets = b
	n.bucketWidth = (32 + b - 1) / b
}

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
	if version != 1 && version != Version {
		return nil, fmt.Errorf("nnue: version %d, this engine reads 1 and %d", version, Version)
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
	buckets := uint32(1)
	if version == Version {
		if len(data) < headerSize(Version) {
			return nil, fmt.Errorf("nnue: truncated: %d bytes, shorter than the %d-byte header", len(data), headerSize(Version))
		}
		buckets = field(7)
		if err := checkBuckets(int64(buckets)); err != nil {
			return nil, err
		}
		if buckets == 1 {
			return nil, fmt.Errorf("nnue: version 2 with one output bucket (that is version 1)")
		}
	}
	h, b := int(hidden), int(buckets)
	switch want := FileSize(h, b); {
	case len(data) < want:
		return nil, fmt.Errorf("nnue: truncated: %d bytes, a network with %d hidden neurons and %d output buckets has %d", len(data), h, b, want)
	case len(data) > want:
		return nil, fmt.Errorf("nnue: %d bytes, longer than the %d a network with %d hidden neurons and %d output buckets has", len(data), want, h, b)
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
	n := &Network{hidden: h, activation: Activation(act), checksum: sum, kern: bestKernels()}
	n.setBuckets(b)
	n.featureWeights = int16s(Inputs * h)
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
	buf.Grow(FileSize(n.hidden, n.buckets))
	n.encode(&buf)
	_, err := w.Write(buf.Bytes())
	return err
}

// encode writes the file into buf and records its checksum: version 1
// for one output bucket (so a version 1 file reads and writes back the
// same bytes), else version 2.
func (n *Network) encode(buf *bytes.Buffer) {
	le := binary.LittleEndian
	buf.WriteString(Magic)
	header := []uint32{1, Inputs, uint32(n.hidden), QA, QB, Scale, uint32(n.activation)}
	if n.buckets > 1 {
		header[0] = Version
		header = append(header, uint32(n.buckets))
	}
	for _, v := range header {
		buf.Write(le.AppendUint32(nil, v))
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
// 1a2b3c4d", or "(768->256)x2->1x8 SCReLU, crc 1a2b3c4d" with 8 output
// buckets.
func (n *Network) String() string {
	out := ""
	if n.buckets > 1 {
		out = fmt.Sprintf("x%d", n.buckets)
	}
	return fmt.Sprintf("(%d->%d)x2->1%s %v, crc %08x", Inputs, n.hidden, out, n.activation, n.checksum)
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

// FeatureIndex returns the input feature of a piece on sq as perspective
// persp sees it.
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
	if err := checkHidden(int64(hidden)); err != nil {
		return nil, err
	}
	if err := checkBuckets(int64(buckets)); err != nil {
		return nil, err
	}
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	fill := func(count, lo, hi int) []int16 {
		out := make([]int16, count)
		for i := range out {
			out[i] = int16(lo + r.IntN(hi-lo+1))
		}
		return out
	}
	fw, fb := fill(Inputs*hidden, -48, 48), fill(hidden, -64, 192)
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
	return New(hidden, act, fw, fb, ow, ob)
}
