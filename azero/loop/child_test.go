//go:build linux

package loop

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRunChildHelper is not a test: the tests below run the test binary as
// a loop stand-in that starts a child through runChild, the helper that
// starts the trainer, and is then killed.
func TestRunChildHelper(t *testing.T) {
	script := os.Getenv("TWOFOLD_RUNCHILD_HELPER")
	if script == "" {
		t.Skip("helper process for TestRunChildDiesWithParent")
	}
	cmd := exec.Command("/bin/sh", "-c", script)
	cmd.Stdout = os.Stdout
	err := runChild(cmd)
	fmt.Printf("runChild: %v\n", err)
	os.Exit(0)
}

// startHelper runs TestRunChildHelper with a child shell script that prints
// its pid(s) first; it returns the helper, its output and those pids.
func startHelper(t *testing.T, script string, pids int) (*exec.Cmd, *bufio.Scanner, []int) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestRunChildHelper$")
	cmd.Env = append(os.Environ(), "TWOFOLD_RUNCHILD_HELPER="+script)
	out, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	sc := bufio.NewScanner(out)
	var got []int
	for range pids {
		require.True(t, sc.Scan(), "the helper's child printed no pid")
		pid, err := strconv.Atoi(strings.TrimSpace(sc.Text()))
		require.NoError(t, err, sc.Text())
		got = append(got, pid)
		t.Cleanup(func() { syscall.Kill(pid, syscall.SIGKILL) })
	}
	return cmd, sc, got
}

// alive tells whether pid runs (a zombie left for a reaper does not).
func alive(pid int) bool {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	f := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
	return len(f) > 0 && f[0] != "Z"
}

// processGone waits up to 10 s for pid to end.
func processGone(pid int) bool {
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if !alive(pid) {
			return true
		}
	}
	return false
}

// SIGKILL of the loop takes the trainer with it: a killed loop used to
// leave it training on, beside the restarted loop's trainer.
func TestRunChildDiesWithParent(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("needs Linux (/proc and the parent-death signal)")
	}
	helper, _, pids := startHelper(t, "echo $$; exec sleep 60", 1)
	require.True(t, alive(pids[0]))
	require.NoError(t, helper.Process.Signal(syscall.SIGKILL))
	helper.Wait()
	assert.True(t, processGone(pids[0]), "the child outlived its killed parent")
}

// SIGTERM (or Ctrl-C) to the loop reaches the child's whole process group,
// its own children included, and the loop reports the interruption.
func TestRunChildForwardsSignals(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("needs Linux")
	}
	helper, out, pids := startHelper(t, "echo $$; sleep 60 & echo $!; wait", 2)
	require.NoError(t, helper.Process.Signal(syscall.SIGTERM))
	require.True(t, out.Scan())
	assert.Contains(t, out.Text(), "runChild: interrupted by terminated")
	helper.Wait()
	for _, pid := range pids {
		assert.True(t, processGone(pid), "pid %d survived", pid)
	}
}
