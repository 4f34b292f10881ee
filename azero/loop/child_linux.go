//go:build linux

package loop

import (
	"os"
	"os/exec"
	"syscall"
)

// setChildAttrs puts the child in its own process group and has the kernel
// SIGKILL it when the loop dies, even by SIGKILL, so no orphan trainer keeps
// writing the checkpoint a restarted loop trains on.
func setChildAttrs(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
	cmd.SysProcAttr.Pdeathsig = syscall.SIGKILL
}

// signalChild sends sig to the child's whole process group (its pgid is its
// pid, by Setpgid), so helpers it started hear it too.
func signalChild(cmd *exec.Cmd, sig os.Signal) error {
	s, ok := sig.(syscall.Signal)
	if !ok {
		return cmd.Process.Signal(sig)
	}
	return syscall.Kill(-cmd.Process.Pid, s)
}
