package data

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/twofold-chess/twofold/board"
	"github.com/twofold-chess/twofold/nnue"
)

// The trainer's numpy model of the engine's integer evaluation is tested
// against golden evaluations (nnue/train/testdata); this test keeps those
// goldens true of package nnue, so that the two cannot drift apart.
func TestTrainerGoldenEvaluations(t *testing.T) {
	const dir = "../train/testdata/"
	f, err := os.Open(dir + "golden.bin")
	require.NoError(t, err)
	defer f.Close()
	recs, err := ReadAll(f)
	require.NoError(t, err)

	ev, err := os.Open(dir + "golden-evals.txt")
	require.NoError(t, err)
	defer ev.Close()
	sc := bufio.NewScanner(ev)
	require.True(t, sc.Scan())
	header := sc.Text() // "# ...: [name name ...]"
	names := strings.Fields(strings.Trim(header[strings.IndexByte(header, '[')+1:], "]"))
	require.Len(t, names, 4)
	var nets []*nnue.Network
	for _, name := range names {
		n, err := nnue.Load(dir + name + ".nnue")
		require.NoError(t, err, name)
		nets = append(nets, n)
	}
	i := 0
	for ; sc.Scan(); i++ {
		require.Less(t, i, len(recs))
		p, err := board.ParseFEN(recs[i].FEN())
		require.NoError(t, err)
		for j, field := range strings.Fields(sc.Text()) {
			want, err := strconv.Atoi(field)
			require.NoError(t, err)
			require.Equal(t, want, nets[j].Evaluate(p), "record %d, %s", i, names[j])
		}
	}
	require.NoError(t, sc.Err())
	require.Equal(t, len(recs), i)
}
