package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// The committed 3- and 4-piece tables of the syzygy package.
const testTables = "../../syzygy/testdata/tables"

func TestProbePrintsLikeFathom(t *testing.T) {
	code, out, errOut := engine(t, "", "probe", "--syzygy", testTables, "8/8/8/8/8/2k5/8/K1Q5 b - - 0 1")
	assert.Equal(t, 0, code, errOut)
	for _, want := range []string{
		"[Result \"1-0\"]\n",
		"[FEN \"8/8/8/8/8/2k5/8/K1Q5 b - - 0 1\"]\n",
		"[WDL \"Loss\"]\n",
		"[DTZ \"16\"]\n",
		"[WinningMoves \"\"]\n",
		"[DrawingMoves \"\"]\n",
		"[LosingMoves \"Kd4, Kd3, Kb4, Kb3\"]\n",
		"\n1... Kd4 ",
		"# 1-0\n",
		"4 moves ranked (fifty-move rule on):\n",
		"  Kd4      Loss        dtz  -16  rank -262144  Loss\n",
	} {
		assert.Contains(t, out, want)
	}

	// The FEN may come in pieces; a drawn KPvK with its winning try.
	code, out, _ = engine(t, "", "probe", "--syzygy", testTables, "8/8/8/4K3/8/8/2p5/4k3", "b", "-", "-", "0", "1")
	assert.Equal(t, 0, code)
	assert.Contains(t, out, "[Result \"0-1\"]\n[FEN \"8/8/8/4K3/8/8/2p5/4k3 b - - 0 1\"]\n[WDL \"Win\"]\n[DTZ \"1\"]\n")
	assert.Contains(t, out, "[DrawingMoves \"c1=N, c1=B\"]\n")
}

func TestProbeRejectsWhatTheTablesCannotAnswer(t *testing.T) {
	for _, args := range [][]string{
		{"probe", "8/8/8/8/8/2k5/8/K1Q5 b - - 0 1"},                         // no --syzygy
		{"probe", "--syzygy", testTables},                                   // no FEN
		{"probe", "--syzygy", testTables, "not a fen"},                      // bad FEN
		{"probe", "--syzygy", testTables, "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1"}, // castling
		{"probe", "--syzygy", testTables, "4k3/8/8/8/8/8/8/RR2K2R w - - 0 1"},
		{"probe", "--syzygy", t.TempDir(), "8/8/8/8/8/2k5/8/K1Q5 b - - 0 1"}, // no tables
	} {
		code, out, errOut := engine(t, "", args...)
		assert.NotEqual(t, 0, code, args)
		assert.Empty(t, out, args)
		assert.Contains(t, errOut, "engine probe", args)
	}
}
