//go:build unix

package cli

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// runWithin runs the CLI with stdin and ctx and fails the test when it
// has not returned after d: a hang is the bug these tests look for.
func runWithin(t *testing.T, ctx context.Context, d time.Duration, stdin io.Reader, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	done := make(chan int, 1)
	go func() { done <- runFull(ctx, args, stdin, &out, &errb) }()
	select {
	case code = <-done:
		return code, out.String(), errb.String()
	case <-time.After(d):
		t.Fatalf("%v still running after %v", args, d)
		return 0, "", ""
	}
}

// fileInputCommands are every command that reads a file a user names,
// with path as that file.
func fileInputCommands(t *testing.T, path string) map[string][]string {
	scanDir := t.TempDir()
	os.MkdirAll(filepath.Join(scanDir, "p"), 0o755)
	if err := os.Symlink(path, filepath.Join(scanDir, "p", "c.json")); err != nil {
		t.Fatal(err)
	}
	return map[string][]string{
		"config validate":  {"config", "validate", path},
		"negcontrol --all": {"negcontrol", "--all", "--root", t.TempDir(), "--config", path},
		"certificate":      {"certificate", "validate", path},
		"certificate scan": {"certificate", "scan", scanDir},
		"gate eval":        {"gate", "eval", path, "--action", "merge"},
		"review check":     {"review", "check", path},
	}
}

// TestFileInputsRefuseNamedPipesAndDevices: a named pipe nobody writes to
// and /dev/zero are refused at once (exit 2), never read or waited on.
func TestFileInputsRefuseNamedPipesAndDevices(t *testing.T) {
	pipe := filepath.Join(t.TempDir(), "pipe")
	if err := syscall.Mkfifo(pipe, 0o600); err != nil {
		t.Fatalf("make the named pipe: %v", err) // every unix has them: never skip a security check
	}
	for _, path := range []string{pipe, "/dev/zero"} {
		for name, args := range fileInputCommands(t, path) {
			t.Run(filepath.Base(path)+"/"+name, func(t *testing.T) {
				code, _, errOut := runWithin(t, context.Background(), 10*time.Second, strings.NewReader(""), args...)
				if code != 2 || !strings.Contains(errOut, "not a regular file") {
					t.Errorf("exit %d, stderr %q; want 2 and \"not a regular file\"", code, errOut)
				}
			})
		}
	}
}

// TestFileInputsOverTheCapAreRefused: a config over 1 MB is refused without
// being parsed, naming the limit.
func TestFileInputsOverTheCapAreRefused(t *testing.T) {
	big := filepath.Join(t.TempDir(), "aepgate.yml")
	os.WriteFile(big, bytes.Repeat([]byte("#\n"), 1<<19+1), 0o644)
	code, _, errOut := runCLI(t, "config", "validate", big)
	if want := "over the 1 MB limit for a config file"; code != 2 || !strings.Contains(errOut, want) {
		t.Errorf("exit %d, stderr %q; want 2 and %q", code, errOut, want)
	}
}

// TestStdinInputsEndOnInterrupt: "-" with a standard input nobody writes
// to ends with exit 130 when the command is interrupted.
func TestStdinInputsEndOnInterrupt(t *testing.T) {
	for name, args := range map[string][]string{
		"certificate validate": {"certificate", "validate", "-"},
		"gate eval":            {"gate", "eval", "-", "--action", "merge"},
		"review check":         {"review", "check", "-"},
	} {
		t.Run(name, func(t *testing.T) {
			r, w, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			defer func() { w.Close(); r.Close() }()
			ctx, cancel := context.WithCancel(context.Background())
			time.AfterFunc(100*time.Millisecond, cancel)
			code, out, errOut := runWithin(t, ctx, 10*time.Second, r, args...)
			if code != 130 || out != "" || !strings.Contains(errOut, "interrupted") {
				t.Errorf("exit %d, stdout %q, stderr %q; want 130, nothing on stdout, \"interrupted\"", code, out, errOut)
			}
		})
	}
}

// TestStdinDevZeroIsCapped: /dev/zero on standard input is read up to the
// kind's cap and refused.
func TestStdinDevZeroIsCapped(t *testing.T) {
	zero, err := os.Open("/dev/zero")
	if err != nil {
		t.Fatal(err)
	}
	defer zero.Close()
	code, _, errOut := runWithin(t, context.Background(), 20*time.Second, zero, "gate", "eval", "-", "--action", "merge")
	if want := "over the 50 MB limit for a gate events file"; code != 2 || !strings.Contains(errOut, want) {
		t.Errorf("exit %d, stderr %q; want 2 and %q", code, errOut, want)
	}
}

// TestStdinSIGINTEndsTheProcess sends a real SIGINT to an aepgate process
// blocked on a standard input nobody writes to: it exits 130.
func TestStdinSIGINTEndsTheProcess(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer func() { w.Close(); r.Close() }()
	cmd := exec.Command(os.Args[0], "-test.run=^TestNegcontrolHelperProcess$")
	cmd.Env = append(os.Environ(), ncHelperEnv+"="+strings.Join([]string{"gate", "eval", "-", "--action", "merge"}, "\x1f"))
	var out bytes.Buffer
	cmd.Stdin, cmd.Stdout, cmd.Stderr = r, &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(time.Second) // past signal.NotifyContext, into the read
	cmd.Process.Signal(os.Interrupt)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 130 {
			t.Errorf("exit: %v, want 130\n%s", err, out.String())
		}
	case <-time.After(10 * time.Second):
		cmd.Process.Kill()
		t.Fatalf("SIGINT did not end the process\n%s", out.String())
	}
}
