//go:build !unix

package negcontrol

import (
	"os"
	"os/exec"
	"strconv"
)

func shellCommand(command string) *exec.Cmd { return exec.Command("cmd", "/C", command) }

func setGroup(*exec.Cmd) {}

// killGroup ends the command and every process it started (taskkill /T).
func killGroup(cmd *exec.Cmd) {
	if cmd.Process == nil {
		return
	}
	_ = exec.Command("taskkill", "/T", "/F", "/PID", strconv.Itoa(cmd.Process.Pid)).Run()
	_ = cmd.Process.Kill()
}

func signalOf(*os.ProcessState) (int, bool) { return 0, false }
