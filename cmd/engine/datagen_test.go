package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twofold-chess/twofold/nnue"
	"github.com/twofold-chess/twofold/nnue/data"
)

func TestDatagenAppendsAndResumes(t *testing.T) {
	dir := t.TempDir()
	book := filepath.Join(dir, "book.epd")
	require.NoError(t, os.WriteFile(book, []byte("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - id \"e4e5\";\n"), 0o644))
	out := filepath.Join(dir, "new", "d.bin") // the directory is created
	args := []string{"datagen", "--out", out, "--games", "2", "--nodes", "150", "--workers", "2", "--book", book, "--max-plies", "40"}
	code, stdout, stderr := engine(t, "", args...)
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, stdout, "from 2 games")
	assert.Contains(t, stderr, "holds 0 records")
	st, err := os.Stat(out)
	require.NoError(t, err)
	first := st.Size() / data.RecordSize
	require.Positive(t, first)

	code, _, stderr = engine(t, "", args...)
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, stderr, "stream")
	st, err = os.Stat(out)
	require.NoError(t, err)
	assert.Greater(t, st.Size()/data.RecordSize, first)
}

// The searches evaluate with the embedded network unless --network says
// otherwise; the same seed then plays other games.
func TestDatagenNetwork(t *testing.T) {
	dir := t.TempDir()
	records := func(network string) []byte {
		out := filepath.Join(dir, network+".bin")
		code, _, stderr := engine(t, "", "datagen", "--out", out, "--games", "1", "--nodes", "300", "--workers", "1",
			"--max-plies", "30", "--network", network)
		require.Equal(t, 0, code, stderr)
		if network == "none" {
			assert.Contains(t, stderr, ", hand-crafted evaluation\n")
		} else {
			assert.Contains(t, stderr, ", network "+nnue.Default().String()+"\n")
		}
		raw, err := os.ReadFile(out)
		require.NoError(t, err)
		require.NotEmpty(t, raw)
		return raw
	}
	assert.NotEqual(t, records("default"), records("none"), "the evaluation changes the games")

	code, _, stderr := engine(t, "", "datagen", "--out", filepath.Join(dir, "x.bin"), "--games", "1", "--network", filepath.Join(dir, "absent.nnue"))
	assert.Equal(t, 1, code)
	assert.Contains(t, stderr, "absent.nnue")
}

func TestDatagenDepthAndFRC(t *testing.T) {
	out := filepath.Join(t.TempDir(), "d.bin")
	code, stdout, stderr := engine(t, "", "datagen", "--out", out, "--games", "1", "--nodes", "0", "--depth", "2",
		"--frc", "1", "--max-plies", "20", "--workers", "1")
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, stdout, "from 1 games")
	assert.Contains(t, stderr, "depth 2")
}

func TestDatagenRejectsBadFlags(t *testing.T) {
	for _, args := range [][]string{
		{"datagen"},
		{"datagen", "--out", filepath.Join(t.TempDir(), "d"), "--nodes", "0"},
		{"datagen", "--out", filepath.Join(t.TempDir(), "d"), "--games", "-1"},
		{"datagen", "--out", filepath.Join(t.TempDir(), "d"), "--workers", "0"},
		{"datagen", "--out", filepath.Join(t.TempDir(), "d"), "--nodes", "0", "--depth", "0"},
		{"datagen", "--out", filepath.Join(t.TempDir(), "d"), "--frc", "1.5"},
		{"datagen", "--out", filepath.Join(t.TempDir(), "d"), "--frc", "NaN"},
		{"datagen", "--out", filepath.Join(t.TempDir(), "d"), "--format", "zip"},
		{"datagen", "--out", filepath.Join(t.TempDir(), "d"), "--max-bytes", "12X"},
		{"datagen", "--out", filepath.Join(t.TempDir(), "d"), "--max-bytes", "-1"},
		{"datagen", "--out", filepath.Join(t.TempDir(), "d"), "--unpack"},
		{"datagen", "--out", filepath.Join(t.TempDir(), "d"), "in.games"},
	} {
		code, _, stderr := engine(t, "", args...)
		assert.Equal(t, 2, code, args)
		assert.Contains(t, stderr, "engine datagen:", args)
	}
	code, _, stderr := engine(t, "", "datagen", "--out", filepath.Join(t.TempDir(), "d"), "--book", "/nonexistent.epd")
	assert.Equal(t, 1, code)
	assert.Contains(t, stderr, "nonexistent")
}

// --format games writes the games once; --unpack expands them into the
// records --format records writes for the same games, also from a file cut
// mid-frame, which datagen then continues.
func TestDatagenGamesFormatAndUnpack(t *testing.T) {
	dir := t.TempDir()
	flags := []string{"--games", "3", "--soft-nodes", "300", "--nodes", "20000", "--workers", "1", "--max-plies", "40", "--frc", "0.5", "--seed", "3"}
	recs, games := filepath.Join(dir, "a.bin"), filepath.Join(dir, "a.games")
	code, stdout, stderr := engine(t, "", append([]string{"datagen", "--out", recs}, flags...)...)
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, stdout, "nodes and depth")
	code, _, stderr = engine(t, "", append([]string{"datagen", "--out", games, "--format", "games"}, flags...)...)
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, stderr, "(games) holds 0 records")
	assert.Contains(t, stderr, "soft 300")

	want, err := os.ReadFile(recs)
	require.NoError(t, err)
	require.NotEmpty(t, want)
	unpacked := filepath.Join(dir, "out", "u.bin")
	code, stdout, stderr = engine(t, "", "datagen", "--unpack", "--out", unpacked, games)
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, stdout, "bytes a position")
	got, err := os.ReadFile(unpacked)
	require.NoError(t, err)
	assert.Equal(t, want, got)

	// Both formats at once, in order.
	code, _, stderr = engine(t, "", "datagen", "--unpack", "--out", unpacked, games, recs)
	require.Equal(t, 0, code, stderr)
	got, err = os.ReadFile(unpacked)
	require.NoError(t, err)
	assert.Equal(t, append(bytes.Clone(want), want...), got)

	// Cut mid-frame: expanded up to the last whole frame, with a note.
	raw, err := os.ReadFile(games)
	require.NoError(t, err)
	cut := filepath.Join(dir, "cut.games")
	require.NoError(t, os.WriteFile(cut, raw[:len(raw)-7], 0o644))
	code, _, stderr = engine(t, "", "datagen", "--unpack", "--out", unpacked, cut)
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, stderr, "partial frame")
	got, err = os.ReadFile(unpacked)
	require.NoError(t, err)
	assert.NotEmpty(t, got)
	assert.Equal(t, want[:len(got)], got)
	code, _, stderr = engine(t, "", append([]string{"datagen", "--out", cut, "--format", "games"}, flags...)...)
	require.Equal(t, 0, code, stderr)
	code, _, stderr = engine(t, "", "datagen", "--unpack", "--out", unpacked, cut)
	require.Equal(t, 0, code, stderr)
	assert.NotContains(t, stderr, "partial frame")

	// The other format is refused, and a corrupt file fails the expansion.
	code, _, stderr = engine(t, "", append([]string{"datagen", "--out", games}, flags...)...)
	assert.Equal(t, 1, code)
	assert.Contains(t, stderr, "games format")
	raw[len(raw)/2] ^= 0x10
	require.NoError(t, os.WriteFile(cut, raw, 0o644))
	code, _, stderr = engine(t, "", "datagen", "--unpack", "--out", unpacked, cut)
	assert.Equal(t, 1, code)
	assert.Contains(t, stderr, "corrupt")
}

func TestDatagenMaxBytes(t *testing.T) {
	out := filepath.Join(t.TempDir(), "a.games")
	code, _, stderr := engine(t, "", "datagen", "--out", out, "--format", "games", "--max-bytes", "1K", "--nodes", "100", "--workers", "1", "--max-plies", "30")
	require.Equal(t, 0, code, stderr)
	st, err := os.Stat(out)
	require.NoError(t, err)
	assert.GreaterOrEqual(t, st.Size(), int64(1024))
}

// scripts/datagen-parallel.sh: workers write pieces of at least the piece
// size into done/ and leave open pieces in work/; a rerun continues without
// touching a finished piece; --finish closes the open pieces; every piece
// expands to records.
func TestDatagenParallelScript(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	if _, err := exec.LookPath("flock"); err != nil {
		t.Skip("no flock")
	}
	root, err := filepath.Abs("../..")
	require.NoError(t, err)
	dir := t.TempDir()
	script := func(args ...string) string {
		cmd := exec.Command("bash", append([]string{filepath.Join(root, "scripts", "datagen-parallel.sh"), "--run-dir", dir}, args...)...)
		cmd.Env = append(os.Environ(), "ENGINE="+binary(t))
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "%s", out)
		return string(out)
	}
	const piece = 400
	run := func() {
		script("--workers", "2", "--piece-size", "400", "--duration", "3s", "--seed", "5",
			"--", "--soft-nodes", "100", "--nodes", "2000", "--max-plies", "30")
	}
	contents := func(sub string) map[string][]byte {
		files, err := filepath.Glob(filepath.Join(dir, sub, "w*.games"))
		require.NoError(t, err)
		m := map[string][]byte{}
		for _, f := range files {
			b, err := os.ReadFile(f)
			require.NoError(t, err)
			m[filepath.Base(f)] = b
		}
		return m
	}
	run()
	done, open := contents("done"), contents("work")
	for name, b := range done {
		assert.GreaterOrEqual(t, len(b), piece, name)
	}
	run()
	done2, open2 := contents("done"), contents("work")
	for name, b := range done {
		assert.Equal(t, b, done2[name], "finished piece %s is left alone", name)
	}
	for name, b := range open {
		if now, ok := open2[name]; ok {
			assert.Equal(t, b, now[:len(b)], "open piece %s is appended to", name)
		}
	}
	assert.Contains(t, script("--status"), "done: ")
	script("--finish")
	assert.Empty(t, contents("work"))
	all := contents("done")
	assert.GreaterOrEqual(t, len(all), len(done2)+len(open2))
	require.NotEmpty(t, all, "six worker-seconds made no game")
	var pieces []string
	for name := range all {
		pieces = append(pieces, filepath.Join(dir, "done", name))
	}
	code, stdout, stderr := engine(t, "", append([]string{"datagen", "--unpack", "--out", filepath.Join(dir, "all.bin")}, pieces...)...)
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, stdout, "records")
	assert.NotContains(t, stderr, "partial")
}
