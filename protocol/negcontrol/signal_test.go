//go:build unix

package negcontrol

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

const helperEnv = "AEPGATE_NEGCONTROL_HELPER_DIR"

// TestHelperProcess is not a test: TestSignalRestores runs the test binary
// again with it, as a stand-in for the aepgate process, so that it can be
// sent a real SIGTERM.
func TestHelperProcess(t *testing.T) {
	dir := os.Getenv(helperEnv)
	if dir == "" {
		t.Skip("helper process only")
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	res := Run(ctx, Spec{Dir: dir, File: "guard.txt", Break: breakCmd,
		Test: "grep -q guard=on guard.txt || { touch started; sleep 30; }"})
	fmt.Print(res.Transcript)
	os.Exit(res.ExitCode())
}

func TestSignalRestores(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT} {
		t.Run(sig.String(), func(t *testing.T) {
			dir := fixture(t)
			cmd := exec.Command(os.Args[0], "-test.run=^TestHelperProcess$")
			cmd.Env = append(os.Environ(), helperEnv+"="+dir)
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			started := filepath.Join(dir, "started")
			for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
				if _, err := os.Stat(started); err == nil {
					break
				}
				if time.Now().After(deadline) {
					cmd.Process.Kill()
					t.Fatal("the helper never reached the broken test")
				}
			}
			if got := readGuard(t, dir); got == guardOn {
				t.Fatal("the break did not apply")
			}
			if err := cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			err := cmd.Wait()
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != ExitInterrupted {
				t.Fatalf("helper exit: %v, want %d", err, ExitInterrupted)
			}
			if got := readGuard(t, dir); got != guardOn {
				t.Fatalf("guard.txt = %q after %v, want it restored", got, sig)
			}
		})
	}
}
