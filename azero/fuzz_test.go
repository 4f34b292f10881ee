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
	f.Add(gzipped(hdr(2, 1)))
	f.Add(gzipped(append(hdr(ChunkVersion, 1), make([]byte, 140)...)))
	bad := append(hdr(ChunkVersion, 1), make([]byte, 140)...)
	bad = append(bad, 1, 0, 0xff, 0xff, 0, 0, 0x80, 0x3f) // one entry, index 65535
	f.Add(gzipped(bad))
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
		}
	})
}

// FuzzLoadNetwork: any file content is a network or an error, never a
// panic (nor a crash inside ONNX Runtime).
func FuzzLoadNetwork(f *testing.F) {
	runtimeOrSkip(f)
	ok := testNetwork(filled(PolicySize, 0.001), 0.01)
	f.Add(ok)
	f.Add(ok[:len(ok)/2])
	f.Add(ok[:len(ok)-7])
	f.Add(testNetwork(filled(PolicySize, float32(math.NaN())), 0.01))
	f.Add(testNetwork(filled(PolicySize, 0.001), float32(math.Inf(-1))))
	f.Add([]byte{})
	f.Add([]byte("garbage"))
	f.Add([]byte{0x08, 0x07, 0x3a, 0x00}) // ir_version 7, an empty graph
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(dir, "net.onnx")
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		net, err := LoadNetwork(path)
		if err != nil {
			return
		}
		// What loads must run: the search's evaluator opens on it.
		ev, err := NewEvaluator(net, 2, 1)
		if err != nil {
			t.Fatalf("loaded but cannot open an evaluator: %v", err)
		}
		ev.Close()
	})
}
