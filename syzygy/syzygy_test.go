package syzygy_test

import (
	"bufio"
	"context"
	"errors"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twofold-chess/twofold/board"
	"github.com/twofold-chess/twofold/internal/tbcheck"
	"github.com/twofold-chess/twofold/movegen"
	"github.com/twofold-chess/twofold/syzygy"
)

// tablesDir holds every 3- and 4-piece table, made with the public
// generator (scripts/syzygy-gen.sh); golden holds fathom's answers on
// random positions over them (see TestFathomGolden).
const (
	tablesDir = "testdata/tables"
	golden    = "testdata/fathom-golden.txt"
)

func openTables(t testing.TB) *syzygy.Tablebase {
	t.Helper()
	tb, err := syzygy.Open(tablesDir)
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, tb.Close()) })
	return tb
}

func position(t testing.TB, fen string) *board.Position {
	t.Helper()
	p, err := movegen.ParseFEN(fen)
	require.NoError(t, err)
	return p
}

func TestOpenFindsEveryCommittedTable(t *testing.T) {
	tb := openTables(t)
	assert.Equal(t, 35, tb.NumWDL(), "5 three-piece and 30 four-piece tables")
	assert.Equal(t, 35, tb.NumDTZ())
	assert.Equal(t, 4, tb.MaxPieces())
	assert.Contains(t, tb.Tables(), "KRvKP")
	assert.Empty(t, tb.Check())
	assert.Empty(t, tb.Problems())
}

func TestOpenSeveralDirectories(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	copyTable(t, a, "KQvK")
	copyTable(t, b, "KRvK")
	tb, err := syzygy.Open(a + string(os.PathListSeparator) + b + string(os.PathListSeparator) + filepath.Join(a, "missing"))
	require.Error(t, err, "the missing directory is reported")
	assert.Contains(t, err.Error(), "missing")
	defer tb.Close()
	assert.Equal(t, []string{"KQvK", "KRvK"}, tb.Tables())
	for _, fen := range []string{"8/8/8/8/8/2k5/8/K1Q5 b - - 0 1", "8/8/8/8/8/2k5/8/K1R5 b - - 0 1"} {
		v, err := tb.ProbeWDL(position(t, fen))
		require.NoError(t, err)
		assert.Equal(t, syzygy.Loss, v)
	}
}

// TestFathomGolden compares the prober with fathom's answers stored in the
// golden file, made by
//
//	go run ./cmd/tbcheck --tbdir syzygy/testdata/tables --positions 3500 --golden syzygy/testdata/fathom-golden.txt
//
// (Debian's fathom 1.0; see docs/tablebases.md).
func TestFathomGolden(t *testing.T) {
	tb := openTables(t)
	f, err := os.Open(golden)
	require.NoError(t, err)
	defer f.Close()
	sc := bufio.NewScanner(f)
	n, ep, mates := 0, 0, 0
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fen, want, err := tbcheck.ParseLine(line)
		require.NoError(t, err)
		p := position(t, fen)
		got, err := tbcheck.Expected(tb, p)
		require.NoError(t, err, fen)
		if !assert.Equal(t, want.String(), got.String(), fen) {
			continue
		}
		n++
		if p.EnPassant() != board.NoSquare {
			ep++
		}
		if want.DTZ == 0 && want.WDL == "Win" {
			mates++
		}
	}
	require.NoError(t, sc.Err())
	assert.GreaterOrEqual(t, n, 3500)
	assert.Positive(t, ep, "en-passant positions among them")
	t.Logf("%d positions agree with fathom (%d with en passant, %d checkmates)", n, ep, mates)
}

// TestFathomLive runs fathom itself, where it is installed, on fresh random
// positions over the tables of $TWOFOLD_SYZYGY_DIR (default: the committed
// ones).
func TestFathomLive(t *testing.T) {
	bin, err := exec.LookPath("fathom")
	if err != nil {
		if _, err := os.Stat("/usr/games/fathom"); err != nil {
			t.Skip("fathom is not installed (apt-get install fathom)")
		}
		bin = "/usr/games/fathom"
	}
	dir := os.Getenv("TWOFOLD_SYZYGY_DIR")
	if dir == "" {
		dir = tablesDir
	}
	tb, err := syzygy.Open(dir)
	require.NoError(t, err)
	defer tb.Close()
	n := 300
	if testing.Short() {
		n = 60
	}
	fens, err := tbcheck.Positions(tb.Tables(), n, rand.Uint64())
	require.NoError(t, err)
	for _, fen := range fens {
		want, err := tbcheck.RunFathom(context.Background(), bin, dir, fen)
		require.NoError(t, err)
		got, err := tbcheck.Expected(tb, position(t, fen))
		require.NoError(t, err)
		assert.Equal(t, want.String(), got.String(), fen)
	}
}

func TestProbeKnownPositions(t *testing.T) {
	tb := openTables(t)
	for _, c := range []struct {
		fen string
		wdl syzygy.WDL
		dtz int
	}{
		{"8/8/8/8/8/2k5/8/K1Q5 b - - 0 1", syzygy.Loss, -16},
		{"4k3/8/8/8/8/8/8/K2Q4 w - - 0 1", syzygy.Win, 17},
		{"8/8/8/8/8/2k5/8/K1R5 b - - 0 1", syzygy.Loss, -30},
		{"8/8/8/4K3/8/8/4P3/4k3 w - - 0 1", syzygy.Win, 1},    // the pawn advances
		{"8/8/8/4K3/8/8/2p5/4k3 b - - 0 1", syzygy.Win, 1},    // black promotes
		{"8/8/8/8/4k3/8/4P3/4K3 w - - 0 1", syzygy.Draw, 0},   // opposition
		{"8/8/8/1K6/8/8/6p1/4k3 w - - 0 1", syzygy.Loss, -2},  // too far
		{"k7/1Q6/1K6/8/8/8/8/8 b - - 0 1", syzygy.Loss, -1},   // mated
		{"k7/8/1QK5/8/8/8/8/8 b - - 0 1", syzygy.Draw, 0},     // stalemate
		{"8/8/8/3k4/8/8/8/3K4 w - - 37 80", syzygy.Draw, 0},   // two kings
		{"8/8/8/8/8/2kn4/8/K7 w - - 0 1", syzygy.Draw, 0},     // a lone knight
		{"1k6/8/1K6/8/8/8/8/6NB w - - 12 60", syzygy.Win, 24}, // KBNvK
		{"8/8/3k4/8/2p5/8/1P6/4K3 w - - 0 1", syzygy.Draw, 0}, // KPvKP
		{"8/8/8/2k5/8/8/3n4/K5R1 w - - 0 1", syzygy.Draw, 0},  // KRvKN
	} {
		p := position(t, c.fen)
		wdl, err := tb.ProbeWDL(p)
		require.NoError(t, err, c.fen)
		assert.Equal(t, c.wdl, wdl, c.fen)
		dtz, err := tb.ProbeDTZ(p)
		require.NoError(t, err, c.fen)
		assert.Equal(t, c.dtz, dtz, c.fen)
		assert.Equal(t, c.fen, p.FEN(), "the position is restored")
	}
}

func TestProbeRefusals(t *testing.T) {
	tb := openTables(t)
	for _, fen := range []string{
		"4k3/8/8/8/8/8/8/R3K3 w Q - 0 1",   // castling rights
		"4k3/8/8/8/8/8/8/RR2K2R w - - 0 1", // five pieces
		"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
	} {
		p := position(t, fen)
		_, err := tb.ProbeWDL(p)
		assert.ErrorIs(t, err, syzygy.ErrNotFound, fen)
		_, err = tb.ProbeDTZ(p)
		assert.ErrorIs(t, err, syzygy.ErrNotFound, fen)
		_, err = tb.ProbeRoot(p)
		assert.ErrorIs(t, err, syzygy.ErrNotFound, fen)
	}
	// Positions that cannot arise (kings side by side, the side not to
	// move in check) are refused too: the move generator relies on that.
	for _, fen := range []string{"8/8/8/3kK3/8/8/8/Q7 w - - 0 1", "8/8/8/3kK3/8/8/p7/8 b - - 0 1", "k7/Q7/8/8/8/8/8/K7 w - - 0 1"} {
		p, err := board.ParseFEN(fen)
		require.NoError(t, err)
		_, err = tb.ProbeWDL(p)
		assert.ErrorIs(t, err, syzygy.ErrNotFound, fen)
		_, err = tb.ProbeDTZ(p)
		assert.ErrorIs(t, err, syzygy.ErrNotFound, fen)
		_, err = tb.ProbeRoot(p)
		assert.ErrorIs(t, err, syzygy.ErrNotFound, fen)
	}

	empty, err := syzygy.Open("")
	require.NoError(t, err)
	_, err = empty.ProbeWDL(position(t, "8/8/8/8/8/2k5/8/K1Q5 b - - 0 1"))
	assert.ErrorIs(t, err, syzygy.ErrNotFound)
}

func TestProbeRootRanksLikeStockfish(t *testing.T) {
	tb := openTables(t)
	p := position(t, "4k3/8/8/8/8/8/8/K2Q4 w - - 0 1")
	moves, err := tb.ProbeRoot(p)
	require.NoError(t, err)
	require.NotEmpty(t, moves)
	assert.Equal(t, 17, moves[0].DTZ, "the fastest conversion first")
	keep := syzygy.Preserving(moves)
	for _, m := range keep {
		assert.Equal(t, syzygy.MaxRank, m.Rank)
		assert.Positive(t, m.DTZ)
		assert.Equal(t, syzygy.Win, m.Outcome(true))
	}
	for _, m := range moves[len(keep):] {
		assert.LessOrEqual(t, m.DTZ, 0, "only moves that give the win away rank lower: %v", m)
	}

	// Eighty-two plies into the count only the quickest moves win for
	// certain; the others rank by the room they leave, and past 100 plies
	// in all they are cursed wins.
	late := position(t, "4k3/8/8/8/8/8/8/K2Q4 w - - 82 120")
	moves, err = tb.ProbeRoot(late)
	require.NoError(t, err)
	assert.Equal(t, syzygy.MaxRank, moves[0].Rank)
	var cursed int
	for _, m := range moves {
		if m.DTZ > 0 && m.DTZ+82 > 99 {
			assert.Less(t, m.Rank, syzygy.MaxRank/2)
		}
		if m.DTZ > 0 && m.DTZ+82 > 100 {
			cursed++
			assert.Equal(t, syzygy.CursedWin, m.Outcome(true))
			assert.Equal(t, syzygy.Win, m.Outcome(false), "without the fifty-move rule a win is a win")
		}
	}
	assert.Positive(t, cursed)

	wdlMoves, err := tb.ProbeRootWDL(p)
	require.NoError(t, err)
	assert.Len(t, wdlMoves, len(moves))
	assert.Equal(t, syzygy.Win, wdlMoves[0].WDL)
	assert.Equal(t, syzygy.Win, wdlMoves[0].Outcome(true))
}

func TestProbeRootSeesRepetition(t *testing.T) {
	tb := openTables(t)
	p := position(t, "4k3/8/8/8/8/8/8/K2Q4 w - - 0 1")
	for _, uci := range []string{"a1b1", "e8e7", "b1a1", "e7e8"} {
		m, err := movegen.ParseUCI(p, uci)
		require.NoError(t, err)
		p.Make(m)
	}
	moves, err := tb.ProbeRoot(p)
	require.NoError(t, err)
	for _, m := range moves {
		assert.Less(t, m.Rank, syzygy.MaxRank, "after a repetition no win is certain: %v", m)
	}
	assert.Equal(t, 4, p.Ply(), "the history is restored")
}

func TestProbesAllocateNothing(t *testing.T) {
	tb := openTables(t)
	var ps []*board.Position
	for _, fen := range []string{
		"8/8/8/8/8/2k5/8/K1Q5 b - - 0 1",
		"8/8/8/1K6/8/8/6p1/4k3 w - - 0 1",
		"8/8/3k4/8/2p5/8/1P6/4K3 w - - 0 1",
		"8/8/8/2k5/8/8/3n4/K5R1 w - - 0 1",
	} {
		ps = append(ps, position(t, fen))
	}
	probe := func() {
		for _, p := range ps {
			_, err := tb.ProbeWDL(p)
			require.NoError(t, err)
			_, err = tb.ProbeDTZ(p)
			require.NoError(t, err)
		}
	}
	probe() // the tables load (and allocate) once
	assert.Zero(t, testing.AllocsPerRun(100, probe))
}

func TestConcurrentProbes(t *testing.T) {
	fens, err := tbcheck.Positions(openTables(t).Tables(), 700, 7)
	require.NoError(t, err)
	ref := openTables(t)
	want := make([]int, len(fens))
	for i, fen := range fens {
		d, err := ref.ProbeDTZ(position(t, fen))
		require.NoError(t, err)
		want[i] = d
	}
	tb := openTables(t) // fresh: the goroutines race to load every table
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range fens {
				j := (i + g*97) % len(fens)
				p, _ := movegen.ParseFEN(fens[j])
				d, err := tb.ProbeDTZ(p)
				if !assert.NoError(t, err) || !assert.Equal(t, want[j], d, fens[j]) {
					return
				}
			}
		}()
	}
	wg.Wait()
}

// copyTable copies both files of a committed table into dir.
func copyTable(t testing.TB, dir, name string) {
	t.Helper()
	for _, ext := range []string{".rtbw", ".rtbz"} {
		b, err := os.ReadFile(filepath.Join(tablesDir, name+ext))
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(dir, name+ext), b, 0o644))
	}
}

func TestBadFilesFailAloneAndClearly(t *testing.T) {
	dir := t.TempDir()
	read := func(name string) []byte {
		b, err := os.ReadFile(filepath.Join(tablesDir, name))
		require.NoError(t, err)
		return b
	}
	write := func(name string, b []byte) {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), b, 0o644))
	}
	copyTable(t, dir, "KQvK")                   // good
	write("KRvK.rtbw", read("KRvK.rtbw")[:300]) // truncated
	write("KRvK.rtbz", read("KRvK.rtbz"))       //
	write("KBvK.rtbw", nil)                     // empty
	write("KNvK.rtbw", read("KQvK.rtbw"))       // wrongly named
	write("KPvK.rtbz", read("KPvK.rtbw"))       // WDL data in a DTZ file
	write("KPvK.rtbw", read("KPvK.rtbw"))       // (good)
	write("KQvKR.rtbw", append([]byte{}, read("KQvK.rtbw")...))
	write("KRvKB.rtbw", garbage(read("KRvKB.rtbw"))) // corrupt compressed data
	write("KQQQQQQQvK.rtbw", read("KQvK.rtbw"))      // too many pieces
	write("notes.txt", []byte("not a table"))

	var reported []error
	var mu sync.Mutex
	tb, err := syzygy.OpenWith(dir, syzygy.Options{OnTableError: func(err error) {
		mu.Lock()
		reported = append(reported, err)
		mu.Unlock()
	}})
	require.Error(t, err, "the name with eight pieces is reported")
	assert.Contains(t, err.Error(), "KQQQQQQQvK")
	defer tb.Close()

	good := position(t, "8/8/8/8/8/2k5/8/K1Q5 b - - 0 1")
	for _, c := range []struct{ fen, want string }{
		{"8/8/8/8/8/2k5/8/K1R5 b - - 0 1", "KRvK.rtbw"},
		{"8/8/8/8/8/2k5/8/K1B5 b - - 0 1", "KBvK.rtbw"},
		{"8/8/8/8/8/2k5/8/K1N5 b - - 0 1", "KNvK.rtbw"},
		{"8/8/8/8/8/2k5/5r2/K2Q4 w - - 0 1", "KQvKR.rtbw"},
	} {
		_, err := tb.ProbeWDL(position(t, c.fen))
		var te *syzygy.TableError
		require.ErrorAs(t, err, &te, c.fen)
		assert.ErrorIs(t, err, syzygy.ErrNotFound)
		assert.Contains(t, err.Error(), c.want)
		v, err := tb.ProbeWDL(good)
		require.NoError(t, err, "the other tables go on")
		assert.Equal(t, syzygy.Loss, v)
	}
	// The DTZ file of KPvK is unusable, its WDL file still works.
	kp := position(t, "4k3/8/4K3/8/8/8/4P3/8 b - - 0 1")
	_, err = tb.ProbeWDL(kp)
	require.NoError(t, err)
	_, err = tb.ProbeDTZ(kp)
	assert.ErrorIs(t, err, syzygy.ErrNotFound)
	moves, err := tb.ProbeRootWDL(kp)
	require.NoError(t, err)
	assert.NotEmpty(t, moves)

	// Corrupt compressed data: an error or some value, never a crash.
	fens, err := tbcheck.Positions([]string{"KRvKB"}, 300, 3)
	require.NoError(t, err)
	for _, fen := range fens {
		_, _ = tb.ProbeWDL(position(t, fen))
	}

	assert.GreaterOrEqual(t, len(tb.Problems()), 6)
	mu.Lock()
	assert.GreaterOrEqual(t, len(reported), 5, "each broken file reported once")
	mu.Unlock()
	var names []string
	for _, e := range reported {
		var te *syzygy.TableError
		if errors.As(e, &te) {
			names = append(names, filepath.Base(te.Path))
		}
	}
	assert.Subset(t, names, []string{"KRvK.rtbw", "KBvK.rtbw", "KNvK.rtbw", "KPvK.rtbz", "KQvKR.rtbw"})
}

// garbage overwrites the second half of a table file with noise.
func garbage(b []byte) []byte {
	b = append([]byte{}, b...)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := len(b) / 2; i < len(b)-16; i++ {
		b[i] = byte(rng.Uint32())
	}
	return b
}
