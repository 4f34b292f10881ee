package data

import (
	"bytes"
	"testing"

	"github.com/twofold-chess/twofold/board"
)

// Any bytes give records or an error, never a panic; every accepted record
// encodes back to its bytes and is a position the board package parses.
func FuzzReader(f *testing.F) {
	start := FromPosition(board.StartPosition(), 12, WhiteWon)
	f.Add(start.Append(nil))
	f.Add(start.Append(start.Append(nil))[:50])
	f.Add([]byte{})
	f.Add(bytes.Repeat([]byte{0xFF}, 64))
	f.Fuzz(func(t *testing.T, data []byte) {
		rs, err := ReadAll(bytes.NewReader(data))
		if err == nil && len(rs)*RecordSize != len(data) {
			t.Fatalf("%d records from %d bytes without error", len(rs), len(data))
		}
		for i, r := range rs {
			if got := r.Append(nil); !bytes.Equal(got, data[i*RecordSize:(i+1)*RecordSize]) {
				t.Fatalf("record %d re-encodes to %x, was %x", i, got, data[i*RecordSize:(i+1)*RecordSize])
			}
			if _, err := board.ParseFEN(r.FEN()); err != nil {
				t.Fatalf("record %d: FEN %q: %v", i, r.FEN(), err)
			}
		}
	})
}
