package negcontrol

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/aepgate/aepgate/internal/testkit/golden"
)

const (
	guardOn  = "guard=on\n"
	testCmd  = "grep -q guard=on guard.txt && echo guarded || { echo 'guard is off'; exit 1; }"
	breakCmd = "sed -i 's/guard=on/guard=off/' guard.txt"
	fixCmd   = "sed -i 's/guard=off/guard=on/' guard.txt"
)

// fixture makes a directory holding guard.txt with the protection on.
func fixture(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "guard.txt"), []byte(guardOn), 0o640); err != nil {
		t.Fatal(err)
	}
	return dir
}

func readGuard(t *testing.T, dir string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "guard.txt"))
	if err != nil {
		t.Fatalf("guard.txt: %v", err)
	}
	return string(b)
}

func TestRun(t *testing.T) {
	tests := []struct {
		name     string
		spec     Spec
		wantExit int
		want     []string // substrings of the transcript
		notWant  []string
		notice   string // substring of a notice
	}{
		{name: "real guard", spec: Spec{File: "guard.txt", Break: breakCmd, Test: testCmd}, wantExit: 0,
			want: []string{"$ restored guard.txt from backup (byte-identical)", "guard is off", "(exit 1)", "(exit 0)", verdictOK}},
		{name: "restore command with file", spec: Spec{File: "guard.txt", Break: breakCmd, Restore: fixCmd, Test: testCmd}, wantExit: 0,
			want: []string{"(restore exit 0)\n$ guard.txt is byte-identical to the backup", verdictOK}, notWant: []string{"WARNING"}},
		{name: "always passing test", spec: Spec{File: "guard.txt", Break: breakCmd, Test: "true"}, wantExit: 1,
			want: []string{"did not fail"}},
		{name: "break exits 42", spec: Spec{File: "guard.txt", Break: breakCmd + "; exit 42", Test: testCmd}, wantExit: 0,
			want: []string{verdictOK}, notice: "warning: break command exited 42. Continuing, but check it did what you meant."},
		{name: "restore command without file", spec: Spec{Break: breakCmd, Restore: fixCmd, Test: testCmd}, wantExit: 0,
			want: []string{"$ " + fixCmd, "(restore exit 0)", verdictOK}},
		{name: "restore that does not fix", spec: Spec{Break: breakCmd, Restore: "true", Test: testCmd}, wantExit: 1,
			want: []string{"did not return to passing"}},
		{name: "failing restore falls back to backup", spec: Spec{File: "guard.txt", Break: breakCmd, Restore: "false", Test: testCmd}, wantExit: 0,
			want: []string{"(restore exit 1)", "WARNING: --restore-cmd did not restore the file; using the backup.",
				"$ restored guard.txt from backup (byte-identical)", verdictOK}},
		{name: "failing restore without file", spec: Spec{Break: breakCmd, Restore: "false", Test: testCmd}, wantExit: 1,
			want: []string{"(restore exit 1)", verdictNotRestored}, notWant: []string{"OK:"}},
		{name: "break timeout", spec: Spec{File: "guard.txt", Break: "sleep 5", Test: testCmd, Timeout: 500 * time.Millisecond}, wantExit: 1,
			want: []string{"(timed out after 0.5s)"}, notice: "break command exited 124"},
		{name: "break deletes the file", spec: Spec{File: "guard.txt", Break: "rm guard.txt", Test: testCmd}, wantExit: 0,
			want: []string{"$ restored guard.txt from backup (byte-identical)"}},
		{name: "break moves the file", spec: Spec{File: "guard.txt", Break: "mkdir -p old && mv guard.txt old/", Test: testCmd}, wantExit: 0,
			want: []string{"$ restored guard.txt from backup (byte-identical)"}},
		{name: "break replaces the file with a directory", spec: Spec{File: "guard.txt", Break: "rm guard.txt && mkdir guard.txt", Test: testCmd}, wantExit: 0,
			want: []string{"$ restored guard.txt from backup (byte-identical)"}},
		{name: "break changes only the mode", spec: Spec{File: "guard.txt", Break: "chmod u+x guard.txt",
			Test: "test ! -x guard.txt || { echo executable; exit 1; }"}, wantExit: 0,
			want: []string{"$ guard.txt is byte-identical to the backup\n$ restored the mode of guard.txt (-rw-r-----)", verdictOK}},
		{name: "break makes the file unwritable", spec: Spec{File: "guard.txt", Break: breakCmd + " && chmod 000 guard.txt", Test: testCmd},
			wantExit: 0, want: []string{"$ restored guard.txt from backup (byte-identical)", verdictOK}},
		{name: "expect matches", spec: Spec{File: "guard.txt", Break: breakCmd, Test: testCmd, Expect: "^guard is (off|down)$"}, wantExit: 0,
			want: []string{"# expect FAILURE matching /^guard is (off|down)$/", verdictOK}, notWant: []string{"WARNING"}},
		{name: "expect mismatch on a crash", spec: Spec{File: "guard.txt", Break: breakCmd,
			Test: "grep -q guard=on guard.txt || { echo 'SyntaxError: invalid syntax'; exit 1; }", Expect: "guard is off"}, wantExit: 1,
			want: []string{"does not match --expect /guard is off/"}},
		{name: "crash without expect warns", spec: Spec{File: "guard.txt", Break: breakCmd,
			Test: "grep -q guard=on guard.txt || { echo 'SyntaxError: invalid syntax'; exit 1; }"}, wantExit: 0,
			want: []string{verdictOK + "\nWARNING: the failing output contains 'SyntaxError', which usually means"}},
		{name: "go build failure warns", spec: Spec{File: "guard.txt", Break: breakCmd,
			Test: "grep -q guard=on guard.txt || { echo 'FAIL x [build failed]'; exit 1; }"}, wantExit: 0,
			want: []string{"WARNING: the failing output contains '[build failed]'"}},
		{name: "hanging test", spec: Spec{File: "guard.txt", Break: breakCmd, Test: "grep -q guard=on guard.txt || sleep 10",
			Timeout: 300 * time.Millisecond}, wantExit: 1,
			want: []string{"(timed out after 0.3s)", "(exit 124)", "A hang is not a caught break"}, notWant: []string{"OK:"}},
		{name: "empty output still adds a line", spec: Spec{File: "guard.txt", Break: breakCmd, Test: "grep -q guard=on guard.txt"}, wantExit: 0,
			want: []string{"$ grep -q guard=on guard.txt   # expect FAILURE\n\n(exit 1)"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := fixture(t)
			tc.spec.Dir, tc.spec.BackupDir = dir, t.TempDir()
			res := Run(context.Background(), tc.spec)
			if res.Err != nil {
				t.Fatalf("Run: %v", res.Err)
			}
			if got := res.ExitCode(); got != tc.wantExit {
				t.Errorf("exit = %d, want %d\n%s", got, tc.wantExit, res.Transcript)
			}
			for _, w := range tc.want {
				if !strings.Contains(res.Transcript, w) {
					t.Errorf("transcript lacks %q:\n%s", w, res.Transcript)
				}
			}
			for _, w := range tc.notWant {
				if strings.Contains(res.Transcript, w) {
					t.Errorf("transcript has %q:\n%s", w, res.Transcript)
				}
			}
			if tc.notice != "" && !strings.Contains(strings.Join(res.Notices, "\n"), tc.notice) {
				t.Errorf("notices %q lack %q", res.Notices, tc.notice)
			}
			if tc.spec.File != "" {
				if got := readGuard(t, dir); got != guardOn {
					t.Errorf("guard.txt = %q after the run, want %q", got, guardOn)
				}
				if fi, err := os.Stat(filepath.Join(dir, "guard.txt")); err != nil || fi.Mode().Perm() != 0o640 {
					t.Errorf("guard.txt mode after the run: %v, %v", fi.Mode(), err)
				}
			}
			if res.OK && res.BackupKept != "" {
				t.Errorf("backup kept after a good restore: %s", res.BackupKept)
			}
		})
	}
}

func TestValidate(t *testing.T) {
	dir := fixture(t)
	tests := []struct {
		name string
		spec Spec
		want string
	}{
		{"invalid expect", Spec{Test: "true", Break: "true", Restore: "true", Expect: "(?<=a)b"}, "--expect is not a valid regular expression: "},
		{"unclosed expect", Spec{Test: "true", Break: "true", Restore: "true", Expect: "a("}, "--expect is not a valid regular expression: "},
		{"no break or restore", Spec{Test: "true", File: "guard.txt"}, "pass --break-cmd, or --restore-cmd for a break you apply yourself."},
		{"no file or restore", Spec{Test: "true", Break: "true"}, "without --file, --restore-cmd is required (nothing to copy back)."},
		{"file without break", Spec{Test: "true", File: "guard.txt", Restore: "true"}, "--file needs --break-cmd (the backup must be taken before the break). "},
		{"missing file", Spec{Test: "true", File: "nope.txt", Break: "true"}, "nope.txt is not an existing file."},
		{"directory as file", Spec{Test: "true", File: ".", Break: "true"}, ". is not an existing file."},
		{"no test", Spec{Break: "true", Restore: "true"}, "--test-cmd is required"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tc.spec.Dir = dir
			backups := t.TempDir()
			tc.spec.BackupDir = backups
			res := Run(context.Background(), tc.spec)
			if res.Err == nil || !strings.HasPrefix(res.Err.Error(), tc.want) {
				t.Fatalf("Err = %v, want prefix %q", res.Err, tc.want)
			}
			if res.ExitCode() != 2 {
				t.Errorf("exit = %d, want 2", res.ExitCode())
			}
			if res.Transcript != "" || res.BackupKept != "" || len(res.Notices) != 0 {
				t.Errorf("a usage error ran something: %+v", res)
			}
			if got := readGuard(t, dir); got != guardOn {
				t.Errorf("guard.txt changed: %q", got)
			}
			if left, _ := os.ReadDir(backups); len(left) != 0 {
				t.Errorf("a usage error left a backup: %v", left)
			}
		})
	}
}

// TestTimeoutKillsGrandchildren: a late writer started by a timed-out
// break, or left behind by a test that exited, must not touch the file.
func TestTimeoutKillsGrandchildren(t *testing.T) {
	tests := []struct{ name, brk string }{
		{"timed-out break", "(sleep 0.6; echo late > guard.txt) & sleep 5"},
		{"background writer left by an exited break", breakCmd + "; (sleep 0.6; echo late > guard.txt) &"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := fixture(t)
			res := Run(context.Background(), Spec{Dir: dir, BackupDir: t.TempDir(), File: "guard.txt",
				Break: tc.brk, Test: testCmd, Timeout: 300 * time.Millisecond})
			if res.Err != nil {
				t.Fatal(res.Err)
			}
			time.Sleep(900 * time.Millisecond)
			if got := readGuard(t, dir); got != guardOn {
				t.Fatalf("a grandchild wrote guard.txt after the run: %q\n%s", got, res.Transcript)
			}
		})
	}
}

// TestGroupKillCanFail is the negative control of the group kill: when only
// the shell is killed, a writer it started in the background survives the
// timeout and breaks the file after the run declared it restored.
func TestGroupKillCanFail(t *testing.T) {
	late := "exec >/dev/null 2>&1; (sleep 0.6; echo late > guard.txt) & sleep 5"
	leaderOnly := func(cmd *exec.Cmd) { cmd.Process.Kill() }
	for _, weakened := range []bool{false, true} {
		t.Run(map[bool]string{false: "group kill", true: "leader only"}[weakened], func(t *testing.T) {
			kill := killer(killGroup)
			if weakened {
				kill = leaderOnly
			}
			dir := fixture(t)
			res := run(context.Background(), Spec{Dir: dir, BackupDir: t.TempDir(), File: "guard.txt",
				Break: late, Test: testCmd, Timeout: 200 * time.Millisecond}, kill)
			time.Sleep(800 * time.Millisecond)
			if got := readGuard(t, dir); (got != guardOn) != weakened {
				t.Fatalf("weakened=%v: guard.txt = %q after the run\n%s", weakened, got, res.Transcript)
			}
		})
	}
}

func TestInterruptRestores(t *testing.T) {
	dir := fixture(t)
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(400*time.Millisecond, cancel)
	res := Run(ctx, Spec{Dir: dir, BackupDir: t.TempDir(), File: "guard.txt", Break: breakCmd,
		Test: "grep -q guard=on guard.txt || sleep 30"})
	if !res.Interrupted || res.ExitCode() != ExitInterrupted || res.OK {
		t.Fatalf("interrupted=%v exit=%d\n%s", res.Interrupted, res.ExitCode(), res.Transcript)
	}
	if got := readGuard(t, dir); got != guardOn {
		t.Fatalf("guard.txt not restored: %q", got)
	}
	for _, w := range []string{"(interrupted)", "$ restored guard.txt from backup (byte-identical)", verdictInterrupted} {
		if !strings.Contains(res.Transcript, w) {
			t.Errorf("transcript lacks %q:\n%s", w, res.Transcript)
		}
	}
	if strings.Contains(res.Transcript, "expect SUCCESS") {
		t.Errorf("the second test ran after the interrupt:\n%s", res.Transcript)
	}
}

func TestBackupKeptWhenRestoreFails(t *testing.T) {
	dir := fixture(t)
	// The break makes the file's directory read-only after replacing the
	// file with a non-empty directory: the backup cannot be copied back.
	res := Run(context.Background(), Spec{Dir: dir, BackupDir: t.TempDir(), File: "guard.txt",
		Break: "rm guard.txt && mkdir guard.txt && touch guard.txt/x", Test: testCmd})
	t.Cleanup(func() { os.RemoveAll(filepath.Join(dir, "guard.txt")) })
	if res.OK || res.ExitCode() != 1 {
		t.Fatalf("exit %d, want 1\n%s", res.ExitCode(), res.Transcript)
	}
	for _, w := range []string{"ERROR: could not restore guard.txt from the backup: ", verdictNotRestored} {
		if !strings.Contains(res.Transcript, w) {
			t.Errorf("transcript lacks %q:\n%s", w, res.Transcript)
		}
	}
	if res.BackupKept == "" || !strings.Contains(strings.Join(res.Notices, "\n"), "Backup kept at "+res.BackupKept) {
		t.Fatalf("backup not kept: %+v", res)
	}
	if b, err := os.ReadFile(res.BackupKept); err != nil || string(b) != guardOn {
		t.Errorf("kept backup = %q, %v", b, err)
	}
	if !strings.HasPrefix(filepath.Base(filepath.Dir(res.BackupKept)), BackupPrefix) {
		t.Errorf("backup dir %s lacks prefix %s", res.BackupKept, BackupPrefix)
	}
}

// TestByteCheckCanFail is the negative control of the byte-identity check:
// with it removed (every file "the same"), a restore command that leaves
// the file broken would pass unnoticed.
func TestByteCheckCanFail(t *testing.T) {
	dir := fixture(t)
	spec := Spec{Dir: dir, BackupDir: t.TempDir(), File: "guard.txt", Break: breakCmd, Restore: "true", Test: "true"}
	res := Run(context.Background(), spec)
	if got := readGuard(t, dir); got != guardOn || !strings.Contains(res.Transcript, "using the backup") {
		t.Fatalf("byte check did not repair the file: %q\n%s", got, res.Transcript)
	}
	r := &runner{ctx: context.Background(), spec: spec, kill: killGroup}
	if err := r.takeBackup(); err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(filepath.Dir(r.backup))
	runShell(context.Background(), breakCmd, dir, nil, 0, killGroup)
	r.orig, _ = fingerprintOf(filepath.Join(dir, "guard.txt")) // the check now compares against the broken file
	if !r.restore() || readGuard(t, dir) == guardOn {
		t.Fatal("control did not reproduce the unnoticed broken restore")
	}
}

var backupPath = regexp.MustCompile(`/[^ \n]*` + BackupPrefix + `[^/]*/`)

func TestTranscriptGolden(t *testing.T) {
	dir := fixture(t)
	res := Run(context.Background(), Spec{Dir: dir, BackupDir: t.TempDir(), File: "guard.txt", Break: breakCmd,
		Restore: "false", Test: testCmd, Expect: "guard is off"})
	got := backupPath.ReplaceAllString(res.Transcript, "<tmp>/"+BackupPrefix+"XXXX/")
	golden.CheckString(t, filepath.Join("testdata", "transcript.golden"), got)
}

func TestCrashSignature(t *testing.T) {
	tests := []struct{ out, want string }{
		{"ok", ""},
		{"E   ModuleNotFoundError: x", "ModuleNotFoundError"},
		{"./a.go:3:2: undefined: Foo", "undefined:"},
		{"error[E0425]: cannot find value", "error[E"},
		{"[ERROR] COMPILATION ERROR :", "COMPILATION ERROR"},
		{"code: 'ERR_MODULE_NOT_FOUND'", "ERR_MODULE_NOT_FOUND"},
		{"sh: 1: pytset: command not found", "command not found"},
		{"syntaxerror", ""},
	}
	for _, tc := range tests {
		if got := crashSignature(tc.out); got != tc.want {
			t.Errorf("crashSignature(%q) = %q, want %q", tc.out, got, tc.want)
		}
	}
}

func TestFormatSeconds(t *testing.T) {
	for d, want := range map[time.Duration]string{500 * time.Millisecond: "0.5", 5 * time.Second: "5", 90 * time.Second: "90", 1500 * time.Microsecond: "0.0015"} {
		if got := formatSeconds(d); got != want {
			t.Errorf("formatSeconds(%v) = %q, want %q", d, got, want)
		}
	}
}
