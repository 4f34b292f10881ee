package chunk

import (
	"bufio"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"

	"github.com/twofold-chess/twofold/azero/encoding"
)

// The file header and name.
const (
	Magic   = "TWFC"
	Version = 2
	Ext     = ".twfc.gz"
)

// Sample is one training position.
type Sample struct {
	Features encoding.Features
	Result   int8    // for the side to move
	Q        float32 // the search's root value for the side to move; NaN when unsearched
	Policy   []PolicyEntry
}

// PolicyEntry is one move's share of the root visits.
type PolicyEntry struct {
	Index uint16
	Prob  float32
}

// Write writes samples to path atomically.
func Write(path string, samples []Sample) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".tmp-chunk-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // a no-op after the rename
	zw := gzip.NewWriter(tmp)
	bw := bufio.NewWriter(zw)
	le := binary.LittleEndian
	var buf [8]byte
	put := func(b []byte) { bw.Write(b) }
	put([]byte(Magic))
	le.PutUint32(buf[:], Version)
	put(buf[:4])
	le.PutUint32(buf[:], uint32(len(samples)))
	put(buf[:4])
	for i := range samples {
		s := &samples[i]
		for _, b := range s.Features.Bits {
			le.PutUint64(buf[:], b)
			put(buf[:8])
		}
		bw.WriteByte(byte(min(s.Features.Halfmove, 255)))
		le.PutUint16(buf[:], uint16(min(s.Features.Fullmove, math.MaxUint16)))
		put(buf[:2])
		bw.WriteByte(byte(s.Result))
		le.PutUint32(buf[:], math.Float32bits(s.Q))
		put(buf[:4])
		le.PutUint16(buf[:], uint16(len(s.Policy)))
		put(buf[:2])
		for _, e := range s.Policy {
			le.PutUint16(buf[:], e.Index)
			put(buf[:2])
			le.PutUint32(buf[:], math.Float32bits(e.Prob))
			put(buf[:4])
		}
	}
	err = errors.Join(bw.Flush(), zw.Close(), tmp.Sync(), tmp.Close())
	if err != nil {
		return fmt.Errorf("writing chunk %s: %w", path, err)
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// Read reads a chunk file (the Go side uses it in tests and tools).
func Read(path string) ([]Sample, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	samples, err := read(f)
	if err != nil {
		return nil, fmt.Errorf("chunk %s: %w", path, err)
	}
	return samples, nil
}

// read decodes a chunk. Any bytes give samples or an error, never a
// panic: the header's sample count is not trusted for an allocation (a
// corrupt one asks for up to 2^32 samples), and a policy entry must name a
// move index and hold a probability, since training indexes and sums them.
func read(f io.Reader) ([]Sample, error) {
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, err
	}
	r := bufio.NewReader(zr)
	le := binary.LittleEndian
	var hdr [12]byte
	if _, err := io.ReadFull(r, hdr[:]); err != nil {
		return nil, err
	}
	if string(hdr[:4]) != Magic {
		return nil, fmt.Errorf("not a sample chunk (magic %q)", hdr[:4])
	}
	version := le.Uint32(hdr[4:])
	if version != 1 && version != Version {
		return nil, fmt.Errorf("version %d, this engine reads 1 and %d", version, Version)
	}
	count := le.Uint32(hdr[8:])
	// Real chunks hold a few thousand samples; past that the slice grows
	// as samples actually arrive.
	samples := make([]Sample, 0, min(count, 4096))
	var buf [17*8 + 1 + 2 + 1 + 4 + 2]byte
	fixed := buf[:]
	if version == 1 {
		fixed = buf[:len(buf)-4]
	}
	for i := range count {
		if _, err := io.ReadFull(r, fixed); err != nil {
			return nil, fmt.Errorf("sample %d: %w", i, err)
		}
		var s Sample
		for j := range s.Features.Bits {
			s.Features.Bits[j] = le.Uint64(fixed[j*8:])
		}
		s.Features.Halfmove = int(fixed[136])
		s.Features.Fullmove = int(le.Uint16(fixed[137:]))
		s.Result = int8(fixed[139])
		if s.Result < -1 || s.Result > 1 {
			return nil, fmt.Errorf("sample %d: result %d", i, s.Result)
		}
		s.Q = float32(math.NaN())
		if version >= 2 {
			s.Q = math.Float32frombits(le.Uint32(fixed[140:]))
			if !(s.Q >= -1 && s.Q <= 1) && !math.IsNaN(float64(s.Q)) {
				return nil, fmt.Errorf("sample %d: search value %v outside [-1, 1]", i, s.Q)
			}
		}
		s.Policy = make([]PolicyEntry, le.Uint16(fixed[len(fixed)-2:]))
		var e [6]byte
		for k := range s.Policy {
			if _, err := io.ReadFull(r, e[:]); err != nil {
				return nil, fmt.Errorf("sample %d: %w", i, err)
			}
			pe := PolicyEntry{Index: le.Uint16(e[:]), Prob: math.Float32frombits(le.Uint32(e[2:]))}
			if int(pe.Index) >= encoding.PolicySize {
				return nil, fmt.Errorf("sample %d: policy index %d outside 0..%d", i, pe.Index, encoding.PolicySize-1)
			}
			if !(pe.Prob >= 0 && pe.Prob <= 1) {
				return nil, fmt.Errorf("sample %d: policy probability %v outside [0, 1]", i, pe.Prob)
			}
			s.Policy[k] = pe
		}
		samples = append(samples, s)
	}
	return samples, nil
}
