//go:build unix

package isolate

import (
	"os/exec"
	"syscall"
)

// killTree makes cmd start its own process group and, when its context
// ends, kills the whole group, so that no child it started outlives it.
func killTree(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
}
