//go:build !linux

package loop

import (
	"os"
	"os/exec"
)

// setChildAttrs does nothing where there is no parent-death signal; the
// trainer's --exit-with-parent watch and the run-directory lock are the
// guards there.
func setChildAttrs(cmd *exec.Cmd) {}

// signalChild passes sig to the child alone (no process group of its own
// here); where a signal cannot be sent (Windows), the child is killed.
func signalChild(cmd *exec.Cmd, sig os.Signal) error {
	if err := cmd.Process.Signal(sig); err != nil {
		return cmd.Process.Kill()
	}
	return nil
}
