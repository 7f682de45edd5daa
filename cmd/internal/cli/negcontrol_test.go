package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/spf13/pflag"

	"github.com/aepgate/aepgate/internal/testkit/golden"
)

const (
	ncGuardOn = "guard=on\n"
	ncBreak   = "sed -i 's/guard=on/guard=off/' %s"
	ncTest    = "grep -q guard=on %s || { echo 'guard is off'; exit 1; }"
)

// ncGuard makes a directory with guard.txt and returns the file's path.
func ncGuard(t *testing.T) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "guard.txt")
	if err := os.WriteFile(p, []byte(ncGuardOn), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func sprintf(format, p string) string { return strings.ReplaceAll(format, "%s", "'"+p+"'") }

func TestNegcontrolUsageErrors(t *testing.T) {
	g := ncGuard(t)
	dir := filepath.Dir(g)
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no test", []string{"negcontrol", "--break-cmd", "true", "--restore-cmd", "true"}, "error: --test-cmd is required"},
		{"no break or restore", []string{"negcontrol", "--test-cmd", "true", "--file", g}, "error: pass --break-cmd, or --restore-cmd for a break you apply yourself.\n"},
		{"no file or restore", []string{"negcontrol", "--test-cmd", "true", "--break-cmd", "true"}, "error: without --file, --restore-cmd is required (nothing to copy back).\n"},
		{"file without break", []string{"negcontrol", "--test-cmd", "true", "--file", g, "--restore-cmd", "true"}, "error: --file needs --break-cmd (the backup must be taken before the break)."},
		{"missing file", []string{"negcontrol", "--test-cmd", "true", "--file", g + ".nope", "--break-cmd", "true"}, "is not an existing file.\n"},
		{"directory", []string{"negcontrol", "--test-cmd", "true", "--file", dir, "--break-cmd", "true"}, "error: " + dir + " is not an existing file.\n"},
		{"invalid expect", []string{"negcontrol", "--test-cmd", "true", "--file", g, "--break-cmd", "true", "--expect", "a("}, "error: --expect is not a valid regular expression: "},
		{"zero timeout", []string{"negcontrol", "--test-cmd", "true", "--file", g, "--break-cmd", "true", "--timeout", "0"}, "error: --timeout must be"},
		{"bad format", []string{"negcontrol", "--test-cmd", "true", "--format", "xml"}, "--format must be text or json, not"},
		{"jobs without all", []string{"negcontrol", "--test-cmd", "true", "--jobs", "2"}, "error: --jobs needs --all"},
		{"all with test", []string{"negcontrol", "--all", "--test-cmd", "true"}, "error: --test-cmd cannot be combined with --all"},
		{"unknown flag", []string{"negcontrol", "--tset-cmd", "true"}, "error: unknown flag: --tset-cmd"},
		{"argument", []string{"negcontrol", "extra"}, "error: "},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := runCLI(t, tc.args...)
			if code != 2 || !strings.Contains(errs, tc.want) {
				t.Errorf("exit %d, stderr %q; want 2 and %q", code, errs, tc.want)
			}
			if out != "" || strings.Contains(errs, "Backup kept") {
				t.Errorf("stdout %q, stderr %q: nothing should have run", out, errs)
			}
			if b, _ := os.ReadFile(g); string(b) != ncGuardOn {
				t.Errorf("guard.txt changed: %q", b)
			}
		})
	}
}

func TestNegcontrolSingle(t *testing.T) {
	tests := []struct {
		name       string
		args       func(g string) []string
		wantExit   int
		wantOut    string
		wantStderr string
	}{
		{"verified", func(g string) []string {
			return []string{"--file", g, "--break-cmd", sprintf(ncBreak, g), "--test-cmd", sprintf(ncTest, g)}
		}, 0, "\n\nOK: negative control verified", ""},
		{"break exits 42", func(g string) []string {
			return []string{"--file", g, "--break-cmd", sprintf(ncBreak, g) + "; exit 42", "--test-cmd", sprintf(ncTest, g)}
		}, 0, "OK: ", "warning: break command exited 42. Continuing, but check it did what you meant.\n"},
		{"always passes", func(g string) []string {
			return []string{"--file", g, "--break-cmd", sprintf(ncBreak, g), "--test-cmd", "true"}
		}, 1, "FAIL: the test did not fail", ""},
		{"restore fails without file", func(g string) []string {
			return []string{"--break-cmd", sprintf(ncBreak, g), "--restore-cmd", "false", "--test-cmd", sprintf(ncTest, g)}
		}, 1, "FAIL: the protection was not restored.", ""},
		// The restored run must finish within the timeout too: 3 s leaves a
		// loaded machine room to start grep, and the broken run's sleep 20
		// still outlasts it.
		{"timeout", func(g string) []string {
			return []string{"--file", g, "--break-cmd", sprintf(ncBreak, g), "--test-cmd", sprintf("grep -q guard=on %s || sleep 20", g), "--timeout", "3"}
		}, 1, "(timed out after 3s)", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := ncGuard(t)
			code, out, errs := runCLI(t, append([]string{"negcontrol"}, tc.args(g)...)...)
			if code != tc.wantExit || !strings.Contains(out, tc.wantOut) || errs != tc.wantStderr {
				t.Errorf("exit %d, stdout:\n%s\nstderr %q; want exit %d, %q, stderr %q", code, out, errs, tc.wantExit, tc.wantOut, tc.wantStderr)
			}
			if b, _ := os.ReadFile(g); string(b) != ncGuardOn && tc.name != "restore fails without file" {
				t.Errorf("guard.txt = %q", b)
			}
		})
	}
}

func TestNegcontrolBackupKept(t *testing.T) {
	g := ncGuard(t)
	code, _, errs := runCLI(t, "negcontrol", "--file", g, "--break-cmd", "rm '"+g+"' && mkdir -p '"+g+"/x'", "--test-cmd", sprintf(ncTest, g))
	if code != 1 || !strings.Contains(errs, "Backup kept at ") {
		t.Fatalf("exit %d, stderr %q; want 1 and a kept backup", code, errs)
	}
	kept := strings.TrimSpace(strings.TrimPrefix(errs[strings.Index(errs, "Backup kept at "):], "Backup kept at "))
	if b, err := os.ReadFile(kept); err != nil || string(b) != ncGuardOn {
		t.Errorf("backup %q = %q, %v", kept, b, err)
	}
	os.RemoveAll(filepath.Dir(kept))
}

func TestNegcontrolSingleJSON(t *testing.T) {
	g := ncGuard(t)
	code, out, _ := runCLI(t, "negcontrol", "--format", "json", "--file", g, "--break-cmd", sprintf(ncBreak, g), "--test-cmd", sprintf(ncTest, g))
	var got struct {
		Status, Verdict, Transcript string
		OK                          bool
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	if code != 0 || !got.OK || got.Status != "OK" || !strings.HasPrefix(got.Verdict, "OK:") || !strings.Contains(got.Transcript, "expect SUCCESS") {
		t.Errorf("exit %d, %+v", code, got)
	}
}

// ncRepo makes a git repository with a config declaring a verified and a
// failing control.
func ncRepo(t *testing.T, cfg string) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{"guard.txt": ncGuardOn, ".github/aepgate.yml": cfg}
	for p, body := range files {
		os.MkdirAll(filepath.Dir(filepath.Join(dir, p)), 0o755)
		if err := os.WriteFile(filepath.Join(dir, p), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, args := range [][]string{{"init", "-q"}, {"add", "."}, {"-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qm", "init"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	return dir
}

const ncConfig = `version: 1
negative_controls:
  - name: guard
    file: guard.txt
    break: sed -i 's/guard=on/guard=off/' guard.txt
    test: grep -q guard=on guard.txt || { echo 'guard is off'; exit 1; }
    expect: guard is off
    timeout: 30s
  - name: not-real
    file: guard.txt
    break: sed -i 's/guard=on/guard=off/' guard.txt
    test: "true"
`

var (
	ncSeconds = regexp.MustCompile(`(?m)(OK|FAIL) +\d+\.\d\d$`)
	ncBackup  = regexp.MustCompile(`-> \S*/aepgate-isolate-\d+/(\S+)/backup/aepgate-negcontrol-\d+/`)
)

func TestNegcontrolAllGolden(t *testing.T) {
	dir := ncRepo(t, ncConfig)
	code, out, errs := runCLI(t, "negcontrol", "--all", "--root", dir, "--jobs", "2")
	if code != 1 || errs != "" {
		t.Errorf("exit %d, stderr %q; want 1 and nothing", code, errs)
	}
	got := ncSeconds.ReplaceAllString(out, "$1  <s>")
	got = ncBackup.ReplaceAllString(got, "-> <tmp>/$1/backup/")
	golden.CheckString(t, filepath.Join("testdata", "negcontrol", "all.golden"), got)
	if b, _ := os.ReadFile(filepath.Join(dir, "guard.txt")); string(b) != ncGuardOn {
		t.Errorf("the original guard.txt changed: %q", b)
	}
}

func TestNegcontrolAllJSON(t *testing.T) {
	dir := ncRepo(t, ncConfig)
	code, out, _ := runCLI(t, "negcontrol", "--all", "--root", dir, "--format", "json")
	var got struct {
		Config   string
		OK       bool
		Controls []struct {
			Name, Status string
			OK           bool
		}
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	want := []string{"guard OK", "not-real FAIL"}
	var have []string
	for _, c := range got.Controls {
		have = append(have, c.Name+" "+c.Status)
	}
	if code != 1 || got.OK || got.Config != ".github/aepgate.yml" || !cmp.Equal(want, have) {
		t.Errorf("exit %d, %+v", code, got)
	}
}

func TestNegcontrolAllConfigProblems(t *testing.T) {
	tests := []struct {
		name, cfg string
		wantExit  int
		wantOut   string
		wantErr   string
	}{
		{"invalid", "version: 1\nnegative_controls:\n  - name: x\n    tset: y\n", 2, "",
			".github/aepgate.yml:4:5: negative_controls[0].tset: unknown key"},
		{"none declared", "version: 1\n", 0, ".github/aepgate.yml declares no negative_controls; nothing to run.\n", ""},
		{"declared file missing", "version: 1\nnegative_controls:\n  - {name: x, file: nope.txt, break: 'true', test: 'true'}\n", 2,
			"== x: ERROR\nerror: nope.txt is not an existing file.\n", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := ncRepo(t, tc.cfg)
			code, out, errs := runCLI(t, "negcontrol", "--all", "--root", dir)
			if code != tc.wantExit || !strings.Contains(out, tc.wantOut) || !strings.Contains(errs, tc.wantErr) {
				t.Errorf("exit %d, stdout %q, stderr %q", code, out, errs)
			}
		})
	}
	code, _, errs := runCLI(t, "negcontrol", "--all", "--root", t.TempDir())
	if code != 2 || !strings.Contains(errs, "aepgate.yml: not found") {
		t.Errorf("missing config: exit %d, stderr %q", code, errs)
	}
}

const ncHelperEnv = "AEPGATE_NEGCONTROL_HELPER_ARGS"

// TestNegcontrolHelperProcess is not a test: TestNegcontrolSignals runs the
// test binary again with it, as the aepgate process (main minus os.Args),
// so that it can be sent real signals.
func TestNegcontrolHelperProcess(t *testing.T) {
	args := os.Getenv(ncHelperEnv)
	if args == "" {
		t.Skip("helper process only")
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := runFull(ctx, strings.Split(args, "\x1f"), os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

func TestNegcontrolSignals(t *testing.T) {
	hang := "grep -q guard=on guard.txt || { touch %s; sleep 30; }"
	tests := []struct {
		name string
		args func(dir, started string) []string
	}{
		{"single", func(dir, started string) []string {
			g := filepath.Join(dir, "guard.txt")
			return []string{"negcontrol", "--file", g, "--break-cmd", sprintf(ncBreak, g),
				"--test-cmd", "cd '" + dir + "' && " + strings.ReplaceAll(hang, "%s", "'"+started+"'")}
		}},
		{"all", func(dir, started string) []string {
			cfg := "version: 1\nnegative_controls:\n  - name: hang\n    file: guard.txt\n    break: sed -i 's/guard=on/guard=off/' guard.txt\n" +
				"    test: \"" + strings.ReplaceAll(hang, "%s", "'"+started+"'") + "\"\n"
			p := filepath.Join(t.TempDir(), "aepgate.yml")
			os.WriteFile(p, []byte(cfg), 0o644)
			return []string{"negcontrol", "--all", "--root", dir, "--config", p}
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := ncRepo(t, "version: 1\n")
			started := filepath.Join(t.TempDir(), "started")
			cmd := exec.Command(os.Args[0], "-test.run=^TestNegcontrolHelperProcess$")
			cmd.Env = append(os.Environ(), ncHelperEnv+"="+strings.Join(tc.args(dir, started), "\x1f"))
			var out bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &out
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(20 * time.Millisecond) {
				if _, err := os.Stat(started); err == nil {
					break
				}
				if time.Now().After(deadline) {
					cmd.Process.Kill()
					t.Fatalf("the run never reached the broken test:\n%s", out.String())
				}
			}
			cmd.Process.Signal(syscall.SIGTERM)
			err := cmd.Wait()
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != 130 {
				t.Errorf("exit: %v, want 130\n%s", err, out.String())
			}
			if b, _ := os.ReadFile(filepath.Join(dir, "guard.txt")); string(b) != ncGuardOn {
				t.Errorf("guard.txt = %q after SIGTERM\n%s", b, out.String())
			}
			wt, _ := exec.Command("git", "-C", dir, "worktree", "list").Output()
			if n := strings.Count(string(wt), "\n"); n != 1 {
				t.Errorf("worktrees left after SIGTERM:\n%s", wt)
			}
		})
	}
}

// TestNegcontrolHelp: every flag is explained, and --help says what RE2
// cannot do.
func TestNegcontrolHelp(t *testing.T) {
	cmd := newNegcontrolCmd(streams{})
	cmd.Flags().VisitAll(func(f *pflag.Flag) {
		if len(f.Usage) < 20 {
			t.Errorf("--%s has no real help text: %q", f.Name, f.Usage)
		}
	})
	code, out, _ := runCLI(t, "negcontrol", "--help")
	for _, want := range []string{"RE2", "multi-line", "no lookarounds or back-references", "--all", "exit 124", "130"} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("--help (exit %d) lacks %q", code, want)
		}
	}
}
