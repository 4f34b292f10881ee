package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fakeBench stands in for the engine in scripts/smp-scaling.sh: its speed
// bench makes 1M nodes a second a thread up to two threads and 1.5M a
// thread beyond (so the table's arithmetic shows), and fails at 3 threads.
const fakeBench = `#!/usr/bin/env bash
[ "$1" = version ] && { echo "Twofold fake"; exit 0; }
t=1
while [ $# -gt 0 ]; do [ "$1" = --threads ] && t=$2; shift; done
[ "$t" = 3 ] && { echo "no" >&2; exit 1; }
nps=$((t * 1000000)); [ "$t" -gt 2 ] && nps=$((t * 1500000))
echo "Position  1/1: 8/8/8/8/8/4k3/4P3/4K3 w - - 0 1 bestmove e1d1 depth $((10 + t))  nodes $nps  1000 ms"
echo "Mean depth      : $((10 + t)).00"
echo "$nps nodes $nps nps"
`

// The speed-up is each count's nodes a second over the first count's, times
// that count; the efficiency the speed-up per thread; the CSV holds the same.
func TestSMPScaling(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	root, err := filepath.Abs("../..")
	require.NoError(t, err)
	dir := t.TempDir()
	engine := filepath.Join(dir, "engine")
	require.NoError(t, os.WriteFile(engine, []byte(fakeBench), 0o755))
	csv := filepath.Join(dir, "scaling.csv")
	run := func(env ...string) (int, string, string) {
		return runScript(t, filepath.Join(root, "scripts", "smp-scaling.sh"),
			append([]string{"ENGINE=" + engine, "MAX_LOAD=100000", "MS=5"}, env...))
	}

	code, out, errOut := run("THREADS=1 2 4", "OUT="+csv)
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "# Twofold fake, ")
	assert.Contains(t, out, "# engine bench --movetime 5 --hash 256 --threads T")
	assert.Regexp(t, `(?m)^\s+1\s+1000\s+1\.00\s+1\.00\s+11\.00$`, out)
	assert.Regexp(t, `(?m)^\s+2\s+2000\s+2\.00\s+1\.00\s+12\.00$`, out)
	assert.Regexp(t, `(?m)^\s+4\s+6000\s+6\.00\s+1\.50\s+14\.00$`, out)
	data, err := os.ReadFile(csv)
	require.NoError(t, err)
	assert.Equal(t, "threads,nps,speedup,efficiency,mean_depth\n1,1000000,1.00,1.00,11.00\n"+
		"2,2000000,2.00,1.00,12.00\n4,6000000,6.00,1.50,14.00\n", string(data))

	// Against a first count of 2: its speed-up is 2 by definition.
	code, out, _ = run("THREADS=2 4", "POSITIONS=1")
	require.Equal(t, 0, code)
	assert.Contains(t, out, "--positions 1 --threads T")
	assert.Regexp(t, `(?m)^\s+4\s+6000\s+6\.00\s+1\.50\s+14\.00$`, out)

	for _, c := range []struct {
		env     []string
		message string
	}{
		{[]string{"THREADS=1 3"}, "engine bench --threads 3 failed"},
		{[]string{"THREADS=1 x"}, "THREADS must list positive integers, not 'x'"},
		{[]string{"MS=0"}, "MS must be a positive integer"},
		{[]string{"POSITIONS=a"}, "POSITIONS must be a positive integer"},
		{[]string{"MAX_LOAD=-1"}, "the machine is busy"},
		{[]string{"ENGINE=" + filepath.Join(dir, "absent")}, "no engine binary at"},
	} {
		code, _, errOut := run(c.env...)
		assert.Equal(t, 2, code, c.env)
		assert.Contains(t, errOut, c.message, c.env)
	}
}
