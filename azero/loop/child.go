package loop

import (
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"runtime"
	"syscall"
)

// runChild runs a helper process (the Python trainer) to completion in a
// way that it cannot outlive the loop: a killed loop used to leave the
// trainer running, and the restarted loop then started a second one on the
// same checkpoint (two writers). On Linux the child gets SIGKILL when the
// loop dies (setChildAttrs) and runs in its own process group, so the
// whole group can be signalled.
//
// Being in its own group, the child no longer sees a terminal's Ctrl-C, so
// SIGINT and SIGTERM sent to the loop are passed on to the group; the
// trainer then saves its checkpoint and exits, and runChild reports the
// interruption.
func runChild(cmd *exec.Cmd) error {
	// The parent-death signal fires when the OS thread that started the
	// child exits, not the process; Go may retire threads, so this
	// goroutine keeps its thread until the child is gone.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	setChildAttrs(cmd)
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigs)
	if err := cmd.Start(); err != nil {
		return err
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var got os.Signal
	for {
		select {
		case err := <-done:
			if got != nil {
				return fmt.Errorf("interrupted by %v (the child exited: %v)", got, err)
			}
			return err
		case s := <-sigs:
			got = s
			signalChild(cmd, s)
		}
	}
}
