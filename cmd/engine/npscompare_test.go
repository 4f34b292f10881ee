package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fakeUCI is a UCI engine in bash whose searches report fixed numbers:
// {{INFO}} is replaced by the info lines each "go" prints before bestmove.
const fakeUCI = `#!/usr/bin/env bash
while read -r cmd _; do
    case $cmd in
        uci) echo "id name fake"; echo "option name Hash type spin default 1 min 1 max 64"; echo uciok ;;
        isready) echo readyok ;;
        go) printf '%s\n' {{INFO}}; echo "bestmove e2e4" ;;
        quit) exit 0 ;;
    esac
done
`

func writeFake(t *testing.T, dir, name string, info ...string) string {
	t.Helper()
	quoted := make([]string, len(info))
	for i, s := range info {
		quoted[i] = "'" + s + "'"
	}
	path := filepath.Join(dir, name)
	src := strings.Replace(fakeUCI, "{{INFO}}", strings.Join(quoted, " "), 1)
	require.NoError(t, os.WriteFile(path, []byte(src), 0o755))
	return path
}

// scripts/nps-compare.sh reads each engine's last info line with nodes and
// time (or its nps) and prints one row per engine with the ratio to the first.
func TestNPSCompare(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	root, err := filepath.Abs("../..")
	require.NoError(t, err)
	dir := t.TempDir()
	// 300000 nodes in 100 ms: 3000 knps; the later line without a time and
	// the info string do not count.
	timed := writeFake(t, dir, "timed", "info depth 5 nodes 300000 time 100 nps 3000000 pv e2e4",
		"info string nodes 5 time 1", "info depth 6 nodes 999999")
	// nps only: 2000000 nps over the movetime.
	npsOnly := writeFake(t, dir, "nps-only", "info depth 5 nps 2000000")
	silent := writeFake(t, dir, "silent", "info depth 5 score cp 10")
	twofold := binary(t)
	// The processor columns: a share of a core, knps and a ratio, or "-"
	// where /proc cannot tell (and for the fakes, which may use no tick).
	cpu := `\s+-\s+-\s+-$`
	if _, err := os.Stat("/proc/self/stat"); err == nil {
		cpu = `\s+\d+\s+[1-9]\d*\s+\d+\.\d\d$`
	}
	fakeCPU := `(?:\s+-\s+-\s+-|\s+\d+\s+\d+\s+\d+\.\d\d)$`
	row := func(name string) *regexp.Regexp {
		return regexp.MustCompile(`(?m)^` + name + `\s+(?:[1-9]\d*\s+){6}[1-9]\d*\s+[1-9]\d*\s+[1-9]\d*\s+\d+\.\d\d` + cpu)
	}

	tests := []struct {
		name    string
		engine  string
		args    []string
		code    int
		rows    []*regexp.Regexp
		message string
	}{
		{name: "two copies of the engine", engine: twofold, args: []string{"copy=" + twofold},
			rows: []*regexp.Regexp{row("Twofold"), row("copy")}},
		{name: "nodes and time, nps alone", engine: timed, args: []string{"other=" + npsOnly},
			rows: []*regexp.Regexp{
				regexp.MustCompile(`(?m)^Twofold(\s+3000){6}\s+1800000\s+600\s+3000\s+1\.00` + fakeCPU),
				regexp.MustCompile(`(?m)^other(\s+2000){6}\s+1200000\s+600\s+2000\s+0\.67` + fakeCPU),
			}},
		{name: "an engine without numbers", engine: timed, args: []string{"silent=" + silent}, code: 2,
			message: "silent reported neither nodes and time nor nps on position 1"},
		{name: "an engine that exits", engine: timed, args: []string{"gone=false"}, code: 2,
			message: "nps-compare.sh: gone "},
		{name: "not NAME=CMD", engine: timed, args: []string{"bare"}, code: 2,
			message: "an engine is NAME=CMD, not 'bare'"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runScript(t, filepath.Join(root, "scripts", "nps-compare.sh"),
				[]string{"ENGINE=" + tt.engine, "MS=100", "ROUNDS=1", "START_TIMEOUT=5"}, tt.args...)
			assert.Equal(t, tt.code, code, "stderr: %s", stderr)
			for _, re := range tt.rows {
				assert.Regexp(t, re, stdout)
			}
			if tt.message != "" {
				assert.Contains(t, stderr, tt.message)
			}
		})
	}
}

// runScript runs a bash script with env added to the environment and
// returns its exit status and output.
func runScript(t *testing.T, script string, env []string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	cmd := exec.Command("bash", append([]string{script}, args...)...)
	cmd.Env = append(os.Environ(), env...)
	var out, errOut strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode(), out.String(), errOut.String()
	}
	require.NoError(t, err)
	return 0, out.String(), errOut.String()
}
