//go:build unix

package negcontrol

import (
	"os"
	"os/exec"
	"syscall"
)

func shellCommand(command string) *exec.Cmd { return exec.Command("/bin/sh", "-c", command) }

// setGroup starts the command as the leader of a new process group.
func setGroup(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} }

// killGroup sends SIGKILL to the command's whole process group; a group
// that is already gone is not an error.
func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}

func signalOf(ps *os.ProcessState) (int, bool) {
	ws, ok := ps.Sys().(syscall.WaitStatus)
	if !ok || !ws.Signaled() {
		return 0, false
	}
	return int(ws.Signal()), true
}
