package data

import (
	"bytes"
	"context"
	"encoding/binary"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twofold-chess/twofold/board"
	"github.com/twofold-chess/twofold/movegen"
	"github.com/twofold-chess/twofold/nnue"
)

// boardPart is the FEN's piece placement and side to move: all a record keeps
// besides the fullmove number.
func boardPart(fen string) string {
	f := strings.Fields(fen)
	return f[0] + " " + f[1]
}

func TestRecordRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		fen    string
		score  int
		result Result
		white  int16
	}{
		{board.StartFEN, 25, Draw, 25},
		{"r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 4 4", 40, BlackWon, -40},
		{"8/8/4k3/8/8/4K3/4P3/8 w - - 0 61", 99999, WhiteWon, 32767},
		{"8/8/4k3/8/8/4K3/4P3/8 b - - 0 61", 99999, WhiteWon, -32768},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", -7, WhiteWon, -7},
	} {
		p, err := movegen.ParseFEN(tc.fen)
		require.NoError(t, err)
		r := FromPosition(p, tc.score, tc.result)
		assert.Equal(t, tc.white, r.Score, tc.fen)
		b := r.Append(nil)
		require.Len(t, b, RecordSize)
		got, err := Decode(b)
		require.NoError(t, err, tc.fen)
		assert.Equal(t, r, got)
		assert.Equal(t, boardPart(tc.fen), boardPart(got.FEN()))
		assert.Equal(t, p.FullmoveNumber(), int(got.Fullmove))
		// The FEN of a record is a legal position again.
		_, err = board.ParseFEN(got.FEN())
		assert.NoError(t, err)
	}
}

// The layout is the documented one, byte for byte: the Python trainer reads
// it with a numpy dtype, not with this code.
func TestRecordLayout(t *testing.T) {
	p, err := movegen.ParseFEN("4k3/8/8/8/8/8/8/R3K3 b - - 3 42")
	require.NoError(t, err)
	r := FromPosition(p, 120, WhiteWon)
	b := r.Append(nil) // Black to move, so White's view is -120
	assert.Equal(t, uint64(1<<0|1<<4|1<<60), binary.LittleEndian.Uint64(b[0:]))
	// a1 rook (type 3, white), e1 king (5, white), e8 king (8|5).
	assert.Equal(t, []byte{0x53, 0x0D}, b[8:10])
	assert.Equal(t, make([]byte, 14), b[10:24])
	assert.Equal(t, byte(1), b[24])
	assert.Equal(t, int16(-120), int16(binary.LittleEndian.Uint16(b[25:])))
	assert.Equal(t, byte(2), b[27])
	assert.Equal(t, uint16(42), binary.LittleEndian.Uint16(b[28:]))
	assert.Equal(t, []byte{0, 0}, b[30:32])
}

func TestDecodeRejectsInvalid(t *testing.T) {
	p, err := movegen.ParseFEN("4k3/8/8/8/8/8/4P3/R3K3 w - - 0 1")
	require.NoError(t, err)
	r := FromPosition(p, 0, Draw)
	good := r.Append(nil)
	_, err = Decode(good)
	require.NoError(t, err)
	for name, mutate := range map[string]func(b []byte){
		"reserved":     func(b []byte) { b[31] = 1 },
		"side":         func(b []byte) { b[24] = 2 },
		"result":       func(b []byte) { b[27] = 3 },
		"piece code":   func(b []byte) { b[8] = 0x07 },
		"spare nibble": func(b []byte) { b[23] = 0x10 },
		// Pieces: a1 rook, e1 king, e2 pawn, e8 king: bytes 0x53, 0xD0.
		"no black king":      func(b []byte) { b[9] = 0xB0 }, // e8 holds a black rook
		"pawn on first rank": func(b []byte) { b[8] = 0x50 }, // a1 holds a white pawn
		"too many pieces":    func(b []byte) { binary.LittleEndian.PutUint64(b, ^uint64(0)) },
		"17 white pieces": func(b []byte) {
			// a1..h2 white knights but an f1 king, a3 black king, e8 knight.
			binary.LittleEndian.PutUint64(b, 0xFFFF|1<<16|1<<60)
			for i := 8; i < 16; i++ {
				b[i] = 0x11
			}
			b[10] = 0x51
			b[16] = 0x1D // a3 black king, e8 white knight
		},
	} {
		b := slices.Clone(good)
		mutate(b)
		_, err := Decode(b)
		assert.ErrorIs(t, err, ErrInvalid, name)
	}
	_, err = Decode(good[:31])
	assert.ErrorIs(t, err, ErrInvalid)
}

func TestReaderReportsTruncation(t *testing.T) {
	p := board.StartPosition()
	r := FromPosition(p, 10, Draw)
	data := r.Append(r.Append(nil))
	got, err := ReadAll(bytes.NewReader(data))
	require.NoError(t, err)
	assert.Equal(t, []Record{r, r}, got)
	got, err = ReadAll(bytes.NewReader(data[:40]))
	assert.ErrorIs(t, err, ErrInvalid)
	assert.Len(t, got, 1)
}

func TestOpenAppendCutsPartialRecord(t *testing.T) {
	path := filepath.Join(t.TempDir(), "d.bin")
	r := FromPosition(board.StartPosition(), 0, Draw)
	require.NoError(t, os.WriteFile(path, append(r.Append(nil), 1, 2, 3), 0o644))
	w, err := OpenAppend(path)
	require.NoError(t, err)
	assert.Equal(t, int64(1), w.Records())
	require.NoError(t, w.WriteGame([]Record{r, r}))
	assert.Equal(t, int64(3), w.Records())
	require.NoError(t, w.Close())
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Len(t, data, 3*RecordSize)
	got, err := ReadAll(bytes.NewReader(data))
	require.NoError(t, err)
	assert.Len(t, got, 3)

	_, err = OpenAppend(t.TempDir()) // a directory
	assert.Error(t, err)
}

func generate(t *testing.T, path string, opt GenOptions) Stats {
	t.Helper()
	w, err := OpenAppend(path)
	require.NoError(t, err)
	opt.Stream = uint64(w.Records())
	st, err := Generate(context.Background(), w, opt)
	require.NoError(t, err)
	require.NoError(t, w.Close())
	return st
}

func readFile(t *testing.T, path string) []Record {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	rs, err := ReadAll(f)
	require.NoError(t, err)
	return rs
}

func TestGenerateKeepsQuietLabelledPositions(t *testing.T) {
	dir := t.TempDir()
	opt := GenOptions{Games: 3, Nodes: 200, RandomPlies: 4, Workers: 2, Seed: 5, MaxPlies: 50,
		Openings: []string{board.StartFEN, "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"}}
	path := filepath.Join(dir, "a.bin")
	st := generate(t, path, opt)
	assert.Equal(t, int64(3), st.Games)
	assert.Equal(t, st.Games, st.WhiteWins+st.Draws+st.BlackWins)
	rs := readFile(t, path)
	require.Len(t, rs, int(st.Positions))
	require.NotEmpty(t, rs)
	for _, r := range rs {
		p, err := board.ParseFEN(r.FEN())
		require.NoError(t, err)
		assert.False(t, movegen.InCheck(p), r.FEN())
		assert.Less(t, int(r.Score), 30000)
		assert.Greater(t, int(r.Score), -30000)
	}

	// The same seed plays the same games, whatever the number of workers
	// (the order of games in the file may differ).
	path2 := filepath.Join(dir, "b.bin")
	opt.Workers = 1
	generate(t, path2, opt)
	sortRecords := func(rs []Record) []string {
		var out []string
		for _, r := range rs {
			out = append(out, string(r.Append(nil)))
		}
		slices.Sort(out)
		return out
	}
	assert.Equal(t, sortRecords(rs), sortRecords(readFile(t, path2)))

	// A rerun on the same file continues it with other games.
	st2 := generate(t, path2, opt)
	all := readFile(t, path2)
	require.Len(t, all, len(rs)+int(st2.Positions))
	assert.NotEqual(t, sortRecords(rs), sortRecords(all[len(rs):]))
}

func TestGenerateStopsAtPositionsAndOnCancel(t *testing.T) {
	path := filepath.Join(t.TempDir(), "d.bin")
	st := generate(t, path, GenOptions{Positions: 30, Nodes: 100, Workers: 2, RandomPlies: 6, Seed: 1, MaxPlies: 40})
	assert.GreaterOrEqual(t, st.Positions, int64(30))
	// A file that already holds the positions asked for gets no more.
	st = generate(t, path, GenOptions{Positions: 30, Nodes: 100, Seed: 1})
	assert.Zero(t, st.Games)

	w, err := OpenAppend(path)
	require.NoError(t, err)
	defer w.Close()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	st, err = Generate(ctx, w, GenOptions{Nodes: 100, Seed: 1})
	require.NoError(t, err)
	assert.Zero(t, st.Games)
}

func TestGenerateRejectsBadOpening(t *testing.T) {
	w, err := OpenAppend(filepath.Join(t.TempDir(), "d.bin"))
	require.NoError(t, err)
	defer w.Close()
	_, err = Generate(context.Background(), w, GenOptions{Games: 1, Openings: []string{"not a fen"}})
	assert.Error(t, err)
}

func TestChess960Starts(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	seen := map[string]bool{}
	for range 2000 {
		fen := chess960Start(rng)
		p, err := movegen.ParseFEN(fen)
		require.NoError(t, err, fen)
		back := strings.Fields(fen)[0][len("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/"):]
		bishops := p.Pieces(board.White, board.Bishop)
		assert.Equal(t, 2, bishops.Count(), fen)
		assert.True(t, (bishops&board.LightSquares).Count() == 1, fen)
		k, r := strings.IndexByte(back, 'K'), strings.Index(back, "R")
		assert.True(t, r < k && strings.LastIndex(back, "R") > k, fen)
		assert.Equal(t, board.AllCastling, p.Castling(), fen)
		seen[back] = true
	}
	assert.Greater(t, len(seen), 700) // of the 960
}

func TestGenerateFRCAndDepth(t *testing.T) {
	path := filepath.Join(t.TempDir(), "d.bin")
	st := generate(t, path, GenOptions{Games: 2, Depth: 2, FRC: 1, RandomPlies: 2, Seed: 3, MaxPlies: 30})
	assert.Equal(t, int64(2), st.Games)
	rs := readFile(t, path)
	require.NotEmpty(t, rs)
	// The first kept position of a game is an FRC start: not the standard back rank.
	assert.NotEqual(t, "rnbqkbnr", strings.Split(rs[0].FEN(), "/")[0])
}

func TestGenerateSkipsFinishedStarts(t *testing.T) {
	mated := "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3" // fool's mate
	path := filepath.Join(t.TempDir(), "d.bin")
	st := generate(t, path, GenOptions{Games: 2, Nodes: 100, Openings: []string{mated}})
	assert.Zero(t, st.Games)
	assert.Empty(t, readFile(t, path))

	// With a playable opening beside it, the finished one is drawn again.
	rng := rand.New(rand.NewPCG(1, 1))
	for range 20 {
		p := startPosition(rng, &GenOptions{Openings: []string{mated, board.StartFEN}, RandomPlies: 2})
		require.NotNil(t, p)
		assert.False(t, movegen.GameStatus(p).Over())
	}
}

func TestGenerateReportsWriteError(t *testing.T) {
	w, err := OpenAppend(filepath.Join(t.TempDir(), "d.bin"))
	require.NoError(t, err)
	require.NoError(t, w.Close()) // every write now fails
	st, err := Generate(context.Background(), w, GenOptions{Games: 3, Nodes: 100, Workers: 2, RandomPlies: 4, MaxPlies: 20})
	assert.Error(t, err)
	assert.Zero(t, st.Games)
}

func TestGenerateMaxStartScore(t *testing.T) {
	// A white queen against a bare king: every start is far beyond 300 cp.
	lopsided := "4k3/8/8/8/8/8/8/3QK3 w - - 0 1"
	path := filepath.Join(t.TempDir(), "d.bin")
	st := generate(t, path, GenOptions{Games: 2, Nodes: 200, MaxStartScore: 300, Openings: []string{lopsided}})
	assert.Zero(t, st.Games)
	st = generate(t, path, GenOptions{Games: 1, Nodes: 200, MaxPlies: 6, Openings: []string{lopsided}})
	assert.Equal(t, int64(1), st.Games)

	// Balanced starts pass the check: the games are those played without it.
	opt := GenOptions{Games: 2, Nodes: 200, RandomPlies: 2, Seed: 4, MaxPlies: 30}
	a, b := filepath.Join(t.TempDir(), "a.bin"), filepath.Join(t.TempDir(), "b.bin")
	generate(t, a, opt)
	opt.MaxStartScore = 10000
	generate(t, b, opt)
	ra, rb := readFile(t, a), readFile(t, b)
	require.NotEmpty(t, ra)
	assert.ElementsMatch(t, ra, rb)
}

// TestGenerateWritesTheNetworksUnits: with a network that says +600 for the
// side to move everywhere, the search sees 600 weighed by the material and
// the fifty-move count (about 630 at the start, 480 in a bare ending), and
// the data holds the network's 600 again. At depth 1 the leaves are the
// opponent's (-600), or after a checking move, which is extended, the
// mover's own (+600); a repetition is 0. The leaves are weighed as the root
// but for the halfmove clock, which moved by a ply or was reset.
func TestGenerateWritesTheNetworksUnits(t *testing.T) {
	const cp = 600
	h := 16
	net, err := nnue.New(h, nnue.CReLU, make([]int16, nnue.Inputs*h), make([]int16, h), make([]int16, 2*h),
		[]int32{int32(cp * nnue.QA * nnue.QB / nnue.Scale)})
	require.NoError(t, err)
	path := filepath.Join(t.TempDir(), "n.bin")
	generate(t, path, GenOptions{Games: 4, Depth: 1, RandomPlies: 6, Seed: 9, MaxPlies: 40, Network: net})
	rs := readFile(t, path)
	require.NotEmpty(t, rs)
	decided := 0
	for _, r := range rs {
		score := int(r.Score)
		if score == 0 {
			continue
		}
		decided++
		assert.InDelta(t, cp, max(score, -score), 15, r.FEN())
	}
	assert.Greater(t, decided, len(rs)/2)
}
