//go:build !unix

package isolate

import "os/exec"

// killTree leaves cmd as it is: outside unix, only the command itself is
// killed when its context ends.
func killTree(*exec.Cmd) {}
