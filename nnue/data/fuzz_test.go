package data

import (
	"bytes"
	"errors"
	"io"
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

// Any bytes read as a games stream give records, then io.EOF or an error
// wrapping ErrPartialFrame or ErrCorrupt (or ErrInvalid), never a panic;
// every record is a valid position. The bytes are read twice: as a stream
// (the frame checks) and as one game's payload in a whole frame, so that
// the game's own checks (start position, moves replayed) meet mutated
// games that the checksum would otherwise turn away.
func FuzzGamesReader(f *testing.F) {
	start := board.StartPosition()
	e4, e5 := board.NewMove(sq("e2"), sq("e4")), board.NewMove(sq("e7"), sq("e5"))
	payload, err := appendGame(nil, &Game{Start: start, Plies: []Ply{{Move: e4, Score: 20}, {Move: e5, Score: -15}}, Kept: 2, Result: Draw})
	if err != nil {
		f.Fatal(err)
	}
	frame := appendFrame(nil, payload)
	f.Add(frame)
	f.Add(append(bytes.Clone(frame), frame...))
	f.Add(frame[:len(frame)-3])
	f.Add(frame[:10])
	f.Add(FrameMagic[:])
	f.Add([]byte{})
	f.Add(payload)
	f.Fuzz(func(t *testing.T, data []byte) {
		readGames(t, data)
		if len(data) <= MaxFrame {
			readGames(t, appendFrame(nil, data))
		}
	})
}

func readGames(t *testing.T, data []byte) {
	rd := NewGamesReader(bytes.NewReader(data))
	for n := 0; ; n++ {
		r, err := rd.Next()
		if err == io.EOF {
			if rd.Offset() != int64(len(data)) {
				t.Fatalf("EOF at byte %d of %d", rd.Offset(), len(data))
			}
			return
		}
		if err != nil {
			if !errors.Is(err, ErrPartialFrame) && !errors.Is(err, ErrCorrupt) && !errors.Is(err, ErrInvalid) {
				t.Fatalf("record %d: unexpected error %v", n, err)
			}
			if rd.Offset() > int64(len(data)) {
				t.Fatalf("offset %d past the %d bytes", rd.Offset(), len(data))
			}
			return
		}
		if _, err := Decode(r.Append(nil)); err != nil {
			t.Fatalf("record %d does not decode: %v", n, err)
		}
		if _, err := board.ParseFEN(r.FEN()); err != nil {
			t.Fatalf("record %d: FEN %q: %v", n, r.FEN(), err)
		}
	}
}
