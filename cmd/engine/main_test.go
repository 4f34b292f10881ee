package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twofold-chess/twofold/azero/onnx"
)

func engine(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = run(args, strings.NewReader(stdin), &out, &errOut)
	return code, out.String(), errOut.String()
}

func TestPerftCount(t *testing.T) {
	code, out, _ := engine(t, "", "perft", "--depth", "4")
	assert.Equal(t, 0, code)
	assert.Contains(t, out, "Nodes searched: 197281\n")
	assert.Contains(t, out, "Nodes/second: ")
}

func TestPerftDivide(t *testing.T) {
	code, out, _ := engine(t, "", "perft", "--fen", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "-d", "1", "--divide")
	assert.Equal(t, 0, code)
	assert.Contains(t, out, "e1g1: 1\n")
	assert.Contains(t, out, "\nNodes searched: 26\n")

	_, out, _ = engine(t, "", "perft", "--fen", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "-d", "1", "--divide", "--chess960")
	assert.Contains(t, out, "e1h1: 1\n")
}

func TestPerftSuite(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.epd")
	require.NoError(t, os.WriteFile(good, []byte(
		"# comment\n"+
			"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20 ;D2 400 ;D3 8902 ;D4 197281\n"+
			"\n"+
			"bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9 ;D1 21 ;D2 528\n"), 0o644))
	code, out, _ := engine(t, "", "perft", "--suite", good, "--max-nodes", "10000")
	assert.Equal(t, 0, code, out)
	assert.Contains(t, out, "positions 2, counts checked 5, skipped 1, failed 0")

	bad := filepath.Join(dir, "bad.epd")
	require.NoError(t, os.WriteFile(bad, []byte(
		"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20 ;D2 401\n"), 0o644))
	code, out, _ = engine(t, "", "perft", "--suite", bad)
	assert.Equal(t, 1, code)
	assert.Contains(t, out, "FAIL line   1")
	assert.Contains(t, out, "D2 400 != 401 (expected)")
}

func TestPerftBadInput(t *testing.T) {
	for _, args := range [][]string{
		{"perft", "--fen", "not a fen"},
		{"perft", "--depth", "-1"},
		{"perft", "--depth", "x"},
		{"perft", "--suite", "/no/such/file.epd"},
		{"perft", "--max-nodes", "5"},
		{"perft", "8/8/8/8/8/8/8/8"},
		{"perft", "--no-such-flag"},
	} {
		code, _, errOut := engine(t, "", args...)
		assert.Equal(t, 2, code, args)
		assert.NotEmpty(t, errOut, args)
	}
}

func TestHelpAndUnknownCommand(t *testing.T) {
	code, out, _ := engine(t, "", "perft", "--help")
	assert.Equal(t, 0, code)
	assert.Contains(t, out, "--max-nodes")
	assert.Contains(t, out, "--chess960")

	code, out, _ = engine(t, "", "ladder", "--help")
	assert.Equal(t, 0, code)
	for _, flag := range []string{"--cpuct", "--cpuct-base", "--fpu-reduction", "--policy-temp", "--batch"} {
		assert.Contains(t, out, flag, "the MCTS player's search options")
	}
	code, _, errOut := engine(t, "", "frobnicate")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, `unknown command "frobnicate"`)
}

// engine ladder refuses settings that would measure something other than
// what was asked (0 playouts once played 1 and printed 0; a NaN constant
// was replaced by the default) before it loads a network.
func TestLadderRefusesBadFlags(t *testing.T) {
	if !onnx.Supported {
		t.Skip(onnx.ErrNotInBuild) // engine ladder refuses earlier, saying MCTS is not in the build
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--batch", "0"}, "--batch must be between 1 and 256"},
		{[]string{"--playouts", "0"}, "--playouts must be at least 1, got 0"},
		{[]string{"--games", "1"}, "--games must be at least 2"},
		{[]string{"--max-plies", "0"}, "--max-plies and --workers must be at least 1"},
		{[]string{"--workers", "0"}, "--max-plies and --workers must be at least 1"},
		{[]string{"--cpuct", "NaN"}, "CPuct wants a number from 0.01 to 100, got NaN"},
		{[]string{"--cpuct-base", "0"}, "CPuctBase wants a number from 1 to 1e+09, got 0"},
		{[]string{"--fpu-reduction", "Inf"}, "FPUReduction wants a number from -2 to 2, got +Inf"},
		{[]string{"--policy-temp", "0"}, "PolicyTemperature wants a number from 0.1 to 10, got 0"},
	} {
		code, out, errOut := engine(t, "", append([]string{"ladder", "--rungs", "random"}, c.args...)...)
		assert.Equal(t, 2, code, c.args)
		assert.Contains(t, errOut, c.want, c.args)
		assert.Empty(t, out, c.args)
	}
}

func TestNoArgumentsSpeaksUCI(t *testing.T) {
	code, out, _ := engine(t, "uci\nisready\nquit\n")
	assert.Equal(t, 0, code)
	assert.Contains(t, out, "uciok\nreadyok\n")
}

// Every subcommand in the table is in "engine help" and "engine --help",
// and answers its own --help; in a build without ONNX Runtime the ones that
// need the network say so instead of running.
func TestHelpListsEverySubcommand(t *testing.T) {
	for _, flag := range []string{"help", "--help", "-h"} {
		code, out, _ := engine(t, "", flag)
		require.Equal(t, 0, code)
		for _, c := range subcommands {
			assert.Regexp(t, `(?m)^  engine `+c.name+` `, out, "%s lists %s", flag, c.name)
		}
	}
	for _, c := range subcommands {
		code, out, errOut := engine(t, "", c.name, "--help")
		assert.Equal(t, 0, code, "%s --help: %s", c.name, errOut)
		assert.True(t, strings.HasPrefix(out, "Usage: engine "+c.name), "%s --help: %q", c.name, out)
		if c.needsNetwork && !onnx.Supported {
			code, _, errOut := engine(t, "", c.name)
			assert.Equal(t, 1, code)
			assert.Contains(t, errOut, onnx.ErrNotInBuild.Error())
		}
	}
}
