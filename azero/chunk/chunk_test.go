package chunk

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twofold-chess/twofold/azero/encoding"
	"github.com/twofold-chess/twofold/board"
	"github.com/twofold-chess/twofold/movegen"
)

// gzipped compresses b, for chunk seeds.
func gzipped(b []byte) []byte {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(b)
	zw.Close()
	return buf.Bytes()
}

// FuzzReadChunk: any bytes decode to samples or an error, never a panic
// or an allocation the input does not pay for.
func FuzzReadChunk(f *testing.F) {
	path := filepath.Join(f.TempDir(), "seed"+Ext)
	s := Sample{Features: encoding.Extract(board.StartPosition()), Result: 1, Policy: []PolicyEntry{{Index: 877, Prob: 0.75}, {Index: 1234, Prob: 0.25}}}
	require.NoError(f, Write(path, []Sample{s, s}))
	valid, err := os.ReadFile(path)
	require.NoError(f, err)
	f.Add(valid)
	f.Add(valid[:len(valid)/2])
	f.Add([]byte{})
	f.Add([]byte("TWFC"))
	hdr := func(version, count uint32) []byte {
		b := []byte(Magic)
		b = binary.LittleEndian.AppendUint32(b, version)
		return binary.LittleEndian.AppendUint32(b, count)
	}
	f.Add(gzipped(hdr(Version, math.MaxUint32))) // a count it does not have
	f.Add(gzipped(hdr(Version, 0)))
	f.Add(gzipped(hdr(Version+1, 1)))
	f.Add(gzipped(versionOneChunk([]Sample{s, s})))
	f.Add(gzipped(append(hdr(Version, 1), make([]byte, 144)...)))
	bad := append(hdr(Version, 1), make([]byte, 144)...)
	bad = append(bad, 1, 0, 0xff, 0xff, 0, 0, 0x80, 0x3f) // one entry, index 65535
	f.Add(gzipped(bad))
	badQ := append(hdr(Version, 1), make([]byte, 140)...)
	badQ = append(badQ, 0, 0, 0x80, 0x7f, 0, 0) // search value +Inf
	f.Add(gzipped(badQ))
	f.Fuzz(func(t *testing.T, data []byte) {
		samples, err := read(bytes.NewReader(data))
		if err != nil {
			return
		}
		for _, s := range samples {
			for _, e := range s.Policy {
				if int(e.Index) >= encoding.PolicySize || !(e.Prob >= 0 && e.Prob <= 1) {
					t.Fatalf("accepted policy entry %+v", e)
				}
			}
			if q := float64(s.Q); math.IsInf(q, 0) || q < -1 || q > 1 {
				t.Fatalf("accepted search value %v", s.Q)
			}
		}
	})
}

func TestChunkRoundTripAndErrors(t *testing.T) {
	p := board.StartPosition()
	var ml movegen.MoveList
	movegen.Legal(p, &ml)
	var samples []Sample
	for i, m := range ml.Moves()[:3] {
		q := p.Clone()
		q.Make(m)
		samples = append(samples, Sample{
			Features: encoding.Extract(q),
			Result:   int8(i - 1),
			Q:        float32(i)*0.5 - 0.25,
			Policy:   []PolicyEntry{{uint16(encoding.MoveIndex(p, m)), 0.75}, {uint16(encoding.MoveIndex(p, ml.At(5))), 0.25}},
		})
	}
	path := filepath.Join(t.TempDir(), "c"+Ext)
	require.NoError(t, Write(path, samples))
	got, err := Read(path)
	require.NoError(t, err)
	assert.Equal(t, samples, got)

	// A version-1 chunk (no search value) reads with Q = NaN.
	v1 := filepath.Join(t.TempDir(), "v1"+Ext)
	require.NoError(t, os.WriteFile(v1, gzipped(versionOneChunk(samples)), 0o644))
	old, err := Read(v1)
	require.NoError(t, err)
	require.Len(t, old, len(samples))
	for i := range old {
		assert.True(t, math.IsNaN(float64(old[i].Q)))
		old[i].Q = samples[i].Q
	}
	assert.Equal(t, samples, old)

	data, err := os.ReadFile(path)
	require.NoError(t, err)
	for name, bad := range map[string][]byte{
		"truncated": data[:len(data)/2],
		"not gzip":  []byte("TWFC not compressed"),
		"empty":     {},
	} {
		p := filepath.Join(t.TempDir(), "bad")
		require.NoError(t, os.WriteFile(p, bad, 0o644))
		_, err := Read(p)
		assert.Error(t, err, name)
	}
	_, err = Read(filepath.Join(t.TempDir(), "missing"))
	assert.Error(t, err)
}

// versionOneChunk encodes samples in chunk format 1 (before the search
// value), uncompressed.
func versionOneChunk(samples []Sample) []byte {
	le := binary.LittleEndian
	b := le.AppendUint32([]byte("TWFC"), 1)
	b = le.AppendUint32(b, uint32(len(samples)))
	for _, s := range samples {
		for _, bb := range s.Features.Bits {
			b = le.AppendUint64(b, bb)
		}
		b = append(b, byte(s.Features.Halfmove))
		b = le.AppendUint16(b, uint16(s.Features.Fullmove))
		b = append(b, byte(s.Result))
		b = le.AppendUint16(b, uint16(len(s.Policy)))
		for _, e := range s.Policy {
			b = le.AppendUint16(b, e.Index)
			b = le.AppendUint32(b, math.Float32bits(e.Prob))
		}
	}
	return b
}
