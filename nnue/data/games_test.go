package data

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twofold-chess/twofold/board"
	"github.com/twofold-chess/twofold/search"
)

// generateAs is generate in a chosen format.
func generateAs(t testing.TB, path string, format Format, opt GenOptions) Stats {
	t.Helper()
	w, err := OpenAppendFormat(path, format)
	require.NoError(t, err)
	opt.Stream = uint64(w.Records())
	st, err := Generate(context.Background(), w, opt)
	require.NoError(t, err)
	require.NoError(t, w.Close())
	return st
}

// readAny reads every record of a file of either format.
func readAny(t testing.TB, path string) ([]Record, Format, error) {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	rd, format, err := NewAnyReader(f)
	require.NoError(t, err)
	var out []Record
	for {
		r, err := rd.Next()
		if err == io.EOF {
			return out, format, nil
		}
		if err != nil {
			return out, format, err
		}
		out = append(out, r)
	}
}

// gamesOpt plays short games from standard and Chess960 starts (castling
// rights with rook files), with soft node limits.
var gamesOpt = GenOptions{Games: 4, SoftNodes: 150, Nodes: 3000, RandomPlies: 5, FRC: 0.5, Workers: 1, Seed: 9, MaxPlies: 60}

// The games format expands to exactly the records the records format holds
// for the same games, at a fraction of the bytes.
func TestGamesFormatExpandsToTheRecords(t *testing.T) {
	dir := t.TempDir()
	recPath, gamesPath := filepath.Join(dir, "a.bin"), filepath.Join(dir, "a.games")
	st := generateAs(t, recPath, FormatRecords, gamesOpt)
	stGames := generateAs(t, gamesPath, FormatGames, gamesOpt)
	assert.Equal(t, st, stGames)
	require.Positive(t, st.Positions)
	assert.Positive(t, st.Nodes)
	assert.Greater(t, st.Plies, st.Positions/2)

	want := readFile(t, recPath)
	got, format, err := readAny(t, gamesPath)
	require.NoError(t, err)
	assert.Equal(t, FormatGames, format)
	assert.Equal(t, want, got)
	got, format, err = readAny(t, recPath)
	require.NoError(t, err)
	assert.Equal(t, FormatRecords, format)
	assert.Equal(t, want, got)

	info, err := os.Stat(gamesPath)
	require.NoError(t, err)
	assert.Less(t, info.Size()*3, int64(len(want)*RecordSize), "the games take well under a third of the records' bytes")

	// Reopened, the file reports what it expands to, and a rerun appends.
	w, err := OpenAppendFormat(gamesPath, FormatGames)
	require.NoError(t, err)
	assert.Equal(t, int64(len(want)), w.Records())
	assert.Equal(t, info.Size(), w.Size())
	require.NoError(t, w.Close())
	st2 := generateAs(t, gamesPath, FormatGames, gamesOpt)
	all, _, err := readAny(t, gamesPath)
	require.NoError(t, err)
	assert.Len(t, all, len(want)+int(st2.Positions))
}

func TestOpenAppendFormatRefusesTheOtherFormat(t *testing.T) {
	dir := t.TempDir()
	recPath, gamesPath := filepath.Join(dir, "a.bin"), filepath.Join(dir, "a.games")
	generateAs(t, recPath, FormatRecords, GenOptions{Games: 1, Nodes: 100, MaxPlies: 10, Seed: 1})
	generateAs(t, gamesPath, FormatGames, GenOptions{Games: 1, Nodes: 100, MaxPlies: 10, Seed: 1})
	_, err := OpenAppendFormat(recPath, FormatGames)
	assert.ErrorContains(t, err, "records format")
	_, err = OpenAppendFormat(gamesPath, FormatRecords)
	assert.ErrorContains(t, err, "games format")
	_, err = OpenAppendFormat(t.TempDir(), FormatGames) // a directory
	assert.Error(t, err)
}

// A file cut anywhere inside its last frame (a kill mid-write) is read up
// to its last whole frame, and reopening cuts the partial frame off so the
// games appended after it read back whole.
func TestGamesFileCutMidFrame(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "a.games")
	generateAs(t, path, FormatGames, gamesOpt)
	whole, err := os.ReadFile(path)
	require.NoError(t, err)
	frames := frameOffsets(t, whole)
	require.GreaterOrEqual(t, len(frames), 3)
	last := frames[len(frames)-1]
	wantBefore, _, err := readAny(t, path)
	require.NoError(t, err)
	cutRecords := countRecords(t, whole[:last])

	for _, cut := range []int{last + 1, last + 8, last + FrameHeaderSize, last + FrameHeaderSize + 5, len(whole) - 1} {
		cutPath := filepath.Join(dir, "cut.games")
		require.NoError(t, os.WriteFile(cutPath, whole[:cut], 0o644))
		got, _, err := readAny(t, cutPath)
		require.ErrorIs(t, err, ErrPartialFrame, "cut at %d", cut)
		assert.Equal(t, wantBefore[:cutRecords], got, "cut at %d", cut)

		w, err := OpenAppendFormat(cutPath, FormatGames)
		require.NoError(t, err)
		assert.Equal(t, int64(cutRecords), w.Records())
		assert.Equal(t, int64(last), w.Size())
		require.NoError(t, w.Close())
		generateAs(t, cutPath, FormatGames, GenOptions{Games: 1, Nodes: 100, MaxPlies: 20, Seed: 2})
		got, _, err = readAny(t, cutPath)
		require.NoError(t, err, "cut at %d, then appended", cut)
		assert.Equal(t, wantBefore[:cutRecords], got[:cutRecords])
		assert.Greater(t, len(got), cutRecords)
	}
}

// A whole frame that is damaged is an error naming it, from the reader and
// from OpenAppendFormat, which will not append after it.
func TestGamesCorruptFrame(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "a.games")
	generateAs(t, path, FormatGames, gamesOpt)
	whole, err := os.ReadFile(path)
	require.NoError(t, err)
	second := frameOffsets(t, whole)[1]
	for name, damage := range map[string]func(b []byte){
		"payload bit":   func(b []byte) { b[second+FrameHeaderSize+40] ^= 4 },
		"checksum":      func(b []byte) { b[second+13]++ },
		"magic":         func(b []byte) { b[second+3] = 'X' },
		"length":        func(b []byte) { b[second+8]++ },
		"huge length":   func(b []byte) { binary.LittleEndian.PutUint32(b[second+8:], MaxFrame+1) },
		"garbage after": nil,
	} {
		b := bytes.Clone(whole)
		if damage != nil {
			damage(b)
		} else {
			b = append(b, bytes.Repeat([]byte{0}, 40)...)
		}
		bad := filepath.Join(dir, "bad.games")
		require.NoError(t, os.WriteFile(bad, b, 0o644))
		_, _, err := readAny(t, bad)
		require.Error(t, err, name)
		if name != "length" { // a longer frame may run past the end
			assert.ErrorIs(t, err, ErrCorrupt, name)
		}
		if name == "payload bit" || name == "checksum" {
			assert.ErrorContains(t, err, "frame 1 at byte", name)
		}
		_, err = OpenAppendFormat(bad, FormatGames)
		assert.Error(t, err, name)
	}
}

// A game that passes the checksum but does not replay (a move that is not
// legal, a wrong count of kept positions, a broken start) is refused.
func TestGameThatDoesNotReplay(t *testing.T) {
	p := board.StartPosition()
	e4 := board.NewMove(sq("e2"), sq("e4"))
	for name, g := range map[string]Game{
		"illegal move":  {Start: p, Plies: []Ply{{Move: board.NewMove(sq("e2"), sq("e5"))}}},
		"kept too many": {Start: p, Plies: []Ply{{Move: e4, Score: search.MateScore - 10}}, Kept: 1, Result: Draw}, // a mate score is not kept
		"kept too few":  {Start: p, Plies: []Ply{{Move: e4}, {Move: board.NewMove(sq("e7"), sq("e5"))}}, Kept: 0},
	} {
		payload, err := appendGame(nil, &g) // written as given: the reader finds the lie
		require.NoError(t, err, name)
		rd := NewGamesReader(bytes.NewReader(appendFrame(nil, payload)))
		_, err = rd.Next()
		require.ErrorIs(t, err, ErrCorrupt, name)
	}
	good, err := appendGame(nil, &Game{Start: board.StartPosition(), Plies: []Ply{{Move: e4, Score: 30}}, Kept: 1, Result: WhiteWon})
	require.NoError(t, err)
	for name, damage := range map[string]func(b []byte){
		"version":       func(b []byte) { b[0] = 2 },
		"two kings":     func(b []byte) { b[9] = 0x55 }, // a1, b1: white kings
		"castling":      func(b []byte) { b[26] = 16 },
		"en passant":    func(b []byte) { b[29] = 65 },
		"bad ep square": func(b []byte) { b[29] = byte(sq("e4")) },
		"result":        func(b []byte) { b[33] = 3 },
		"ply count":     func(b []byte) { b[34] = 2 },
	} {
		b := bytes.Clone(good)
		damage(b)
		_, err := NewGamesReader(bytes.NewReader(appendFrame(nil, b))).Next()
		assert.ErrorIs(t, err, ErrCorrupt, name)
	}
	rd := NewGamesReader(bytes.NewReader(appendFrame(nil, good)))
	r, err := rd.Next()
	require.NoError(t, err)
	assert.Equal(t, FromPosition(board.StartPosition(), 30, WhiteWon), r)
	_, err = rd.Next()
	assert.Equal(t, io.EOF, err)
}

// The start position keeps what replaying needs: castling rights with
// their rooks (Chess960), the en-passant square, the move counters.
func TestGameStartRoundTrip(t *testing.T) {
	for _, fen := range []string{
		board.StartFEN,
		"rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
		"bqrkrnnb/pppppppp/8/8/8/8/PPPPPPPP/BQRKRNNB w ECec - 0 1",
		"1r2k1r1/8/8/8/8/8/8/2R1K2R b Hb - 17 40",
	} {
		p, err := board.ParseFEN(fen)
		require.NoError(t, err, fen)
		b, err := appendGame(nil, &Game{Start: p, Result: Draw})
		require.NoError(t, err)
		var g Game
		require.NoError(t, parseGame(b, &g), fen)
		assert.Equal(t, p.FEN(), g.Start.FEN())
		assert.Equal(t, p.Chess960(), g.Start.Chess960(), fen)
	}
}

func TestGenerateStopsAtMaxBytes(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.games")
	st := generateAs(t, path, FormatGames, GenOptions{MaxBytes: 600, Nodes: 100, Workers: 1, Seed: 3, MaxPlies: 40})
	info, err := os.Stat(path)
	require.NoError(t, err)
	assert.GreaterOrEqual(t, info.Size(), int64(600))
	assert.Positive(t, st.Games)
	// Full already: no more games.
	st = generateAs(t, path, FormatGames, GenOptions{MaxBytes: 600, Nodes: 100, Seed: 3})
	assert.Zero(t, st.Games)
}

func TestParseFormat(t *testing.T) {
	for _, f := range []Format{FormatRecords, FormatGames} {
		got, err := ParseFormat(f.String())
		require.NoError(t, err)
		assert.Equal(t, f, got)
	}
	_, err := ParseFormat("zip")
	assert.Error(t, err)
}

// frameOffsets returns where each frame of a games file begins.
func frameOffsets(t testing.TB, b []byte) []int {
	t.Helper()
	var offs []int
	for o := 0; o < len(b); {
		require.Equal(t, FrameMagic[:], b[o:o+8])
		offs = append(offs, o)
		o += FrameHeaderSize + int(binary.LittleEndian.Uint32(b[o+8:]))
	}
	return offs
}

// countRecords counts the records a games stream expands to.
func countRecords(t testing.TB, b []byte) int {
	t.Helper()
	rd := NewGamesReader(bytes.NewReader(b))
	n := 0
	for {
		_, err := rd.Next()
		if errors.Is(err, io.EOF) {
			return n
		}
		require.NoError(t, err)
		n++
	}
}

// sq parses a square's name.
func sq(name string) board.Square {
	s, ok := board.ParseSquare(name)
	if !ok {
		panic("bad square " + name)
	}
	return s
}

// The trainer recognises a games file by the frame magic, to point at
// --unpack instead of misreading it.
func TestTrainerKnowsTheFrameMagic(t *testing.T) {
	py, err := os.ReadFile("../train/nnue_data.py")
	require.NoError(t, err)
	var lit strings.Builder
	for _, c := range FrameMagic {
		if c >= 0x20 && c < 0x7f {
			lit.WriteByte(c)
		} else {
			fmt.Fprintf(&lit, `\x%02x`, c)
		}
	}
	assert.Contains(t, string(py), `GAMES_MAGIC = b"`+lit.String()+`"`)
}
