package isolate

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// scribble writes, deletes and commits in the tree it runs in, then fails.
const scribble = "echo x > litter.txt; rm -f guard.txt; echo strict-seen; grep strict mode.txt; exit 3"

func TestCommandsLeaveTreeUntouched(t *testing.T) {
	for _, tc := range []struct {
		name string
		dir  func(*testing.T) string
	}{{"git", gitRepo}, {"plain", plainDir}} {
		t.Run(tc.name, func(t *testing.T) {
			dir := tc.dir(t)
			before := treeHash(t, dir)
			got, err := Commands(context.Background(), dir, []string{scribble, "true"}, Options{TempDir: t.TempDir()})
			if err != nil {
				t.Fatal(err)
			}
			want := []Outcome{{ExitCode: 3, OutputTail: "strict-seen\nstrict\n"}, {ExitCode: 0}}
			if diff := cmp.Diff(want, got, cmpopts.IgnoreFields(Outcome{}, "Took")); diff != "" {
				t.Errorf("outcomes (-want +got):\n%s", diff)
			}
			if after := treeHash(t, dir); after != before {
				t.Errorf("the original tree changed")
			}
		})
	}
}

// TestCommandsNegativeControl runs the same command in place: the tree
// hash then changes, so the copy is what protects the original.
func TestCommandsNegativeControl(t *testing.T) {
	inPlace := isolated()
	inPlace.copy = func(_ context.Context, src *source, tmp, name string) (*workCopy, error) {
		base := filepath.Join(tmp, name)
		return &workCopy{src: src, base: base, top: src.root, dir: src.root, backups: base}, os.MkdirAll(base, 0o700)
	}
	dir := gitRepo(t)
	before := treeHash(t, dir)
	if _, err := commandsIn(context.Background(), dir, []string{scribble}, Options{TempDir: t.TempDir()}, inPlace); err != nil {
		t.Fatal(err)
	}
	if treeHash(t, dir) == before {
		t.Errorf("in place: the tree did not change, so the test cannot see a leak")
	}
}

func TestTailWriter(t *testing.T) {
	w := &tailWriter{}
	w.Write([]byte(strings.Repeat("a", tailBytes)))
	w.Write([]byte("end"))
	if got := w.String(); len(got) != tailBytes || !strings.HasSuffix(got, "aend") {
		t.Errorf("tail = %d bytes ending %q", len(got), got[len(got)-4:])
	}
}

// TestCommandsInterrupted: cancelling kills the command and the children
// it started, and the copy is removed.
func TestCommandsInterrupted(t *testing.T) {
	dir := gitRepo(t)
	tmp := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(300*time.Millisecond, cancel)
	start := time.Now()
	got, err := Commands(ctx, dir, []string{"sleep 30 & sleep 30"}, Options{TempDir: tmp})
	if err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > 3*time.Second || got[0].ExitCode == 0 {
		t.Errorf("outcome %+v after %v, want a non-zero exit within 3s", got[0], d)
	}
	if left, _ := os.ReadDir(tmp); len(left) != 0 {
		t.Errorf("copies left in %s: %v", tmp, left)
	}
}

// TestCommandsTimeout: a command past opts.Timeout is killed with its whole
// process group (the sleeping child too) and reports ExitTimeout; without
// the timeout (its negative control) the same command runs to its end.
func TestCommandsTimeout(t *testing.T) {
	dir := plainDir(t)
	pidFile := filepath.Join(t.TempDir(), "child.pid")
	cmd := "sleep 30 & echo $! > " + pidFile + "; wait"
	start := time.Now()
	got, err := Commands(context.Background(), dir, []string{cmd}, Options{TempDir: t.TempDir(), Timeout: 300 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if got[0].ExitCode != ExitTimeout || !strings.Contains(got[0].OutputTail, "timed out after 300ms") || time.Since(start) > 10*time.Second {
		t.Fatalf("outcome %+v after %s, want a timeout", got[0], time.Since(start))
	}
	if alive(t, pidFile) {
		t.Errorf("the command's child outlived the timeout")
	}
	got, err = Commands(context.Background(), dir, []string{"sleep 0.5; echo done"}, Options{TempDir: t.TempDir()})
	if err != nil || got[0].ExitCode != 0 || got[0].Took < 500*time.Millisecond {
		t.Errorf("without a timeout: %+v, %v; want it run to its end", got[0], err)
	}
}

// alive reports whether the process whose pid is in file still runs.
func alive(t *testing.T, file string) bool {
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	pid := strings.TrimSpace(string(b))
	_, err = os.Stat("/proc/" + pid)
	if err != nil {
		return false
	}
	st, _ := os.ReadFile("/proc/" + pid + "/stat")
	return !strings.Contains(string(st), ") Z ")
}
