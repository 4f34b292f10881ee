package azero

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/twofold-chess/twofold/board"
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
	path := filepath.Join(f.TempDir(), "seed"+ChunkExt)
	s := Sample{Features: Extract(board.StartPosition()), Result: 1, Policy: []PolicyEntry{{Index: 877, Prob: 0.75}, {Index: 1234, Prob: 0.25}}}
	require.NoError(f, WriteChunk(path, []Sample{s, s}))
	valid, err := os.ReadFile(path)
	require.NoError(f, err)
	f.Add(valid)
	f.Add(valid[:len(valid)/2])
	f.Add([]byte{})
	f.Add([]byte("TWFC"))
	hdr := func(version, count uint32) []byte {
		b := []byte(ChunkMagic)
		b = binary.LittleEndian.AppendUint32(b, version)
		return binary.LittleEndian.AppendUint32(b, count)
	}
	f.Add(gzipped(hdr(ChunkVersion, math.MaxUint32))) // a count it does not have
	f.Add(gzipped(hdr(ChunkVersion, 0)))
	f.Add(gzipped(hdr(ChunkVersion+1, 1)))
	f.Add(gzipped(versionOneChunk([]Sample{s, s})))
	f.Add(gzipped(append(hdr(ChunkVersion, 1), make([]byte, 144)...)))
	bad := append(hdr(ChunkVersion, 1), make([]byte, 144)...)
	bad = append(bad, 1, 0, 0xff, 0xff, 0, 0, 0x80, 0x3f) // one entry, index 65535
	f.Add(gzipped(bad))
	badQ := append(hdr(ChunkVersion, 1), make([]byte, 140)...)
	badQ = append(badQ, 0, 0, 0x80, 0x7f, 0, 0) // search value +Inf
	f.Add(gzipped(badQ))
	f.Fuzz(func(t *testing.T, data []byte) {
		samples, err := readChunk(bytes.NewReader(data))
		if err != nil {
			return
		}
		for _, s := range samples {
			for _, e := range s.Policy {
				if int(e.Index) >= PolicySize || !(e.Prob >= 0 && e.Prob <= 1) {
					t.Fatalf("accepted policy entry %+v", e)
				}
			}
			if q := float64(s.Q); math.IsInf(q, 0) || q < -1 || q > 1 {
				t.Fatalf("accepted search value %v", s.Q)
			}
		}
	})
}
