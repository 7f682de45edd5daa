package rundir

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/aepgate/aepgate/protocol/rundoc"
)

func write(t *testing.T, dir, name, content string) {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestLoad(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, rundoc.GuideFile, "### P0-T1 — a\n**Report:** `P0-T1`\n")
	write(t, dir, rundoc.LogFile, "### P0-T1 — PENDING\n")
	write(t, dir, "annexes/.gitkeep", "")
	write(t, dir, "annexes/P1-fix.md", "x")
	if err := os.Mkdir(filepath.Join(dir, "annexes", "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	run, err := Load(dir)
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	if run.Plan != nil || run.Guide == nil || run.Log == nil {
		t.Errorf("documents: plan %v guide %v log %v", run.Plan != nil, run.Guide != nil, run.Log != nil)
	}
	if diff := cmp.Diff([]string{".gitkeep", "P1-fix.md"}, run.Annexes); diff != "" {
		t.Errorf("annexes (-want +got):\n%s", diff)
	}
}

func TestLoadMissing(t *testing.T) {
	tests := []struct {
		name  string
		setup func(t *testing.T, dir string)
		want  []string
	}{
		{"no dir", func(t *testing.T, dir string) { os.Remove(dir) }, []string{rundoc.GuideFile, rundoc.LogFile}},
		{"no log", func(t *testing.T, dir string) { write(t, dir, rundoc.GuideFile, "") }, []string{rundoc.LogFile}},
		{"guide is a folder", func(t *testing.T, dir string) {
			write(t, dir, rundoc.LogFile, "")
			os.Mkdir(filepath.Join(dir, rundoc.GuideFile), 0o755)
		}, []string{rundoc.GuideFile}},
		{"dir is a file", func(t *testing.T, dir string) {
			os.Remove(dir)
			os.WriteFile(dir, nil, 0o644)
		}, []string{rundoc.GuideFile, rundoc.LogFile}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "run")
			os.Mkdir(dir, 0o755)
			tt.setup(t, dir)
			run, err := Load(dir)
			var me *MissingError
			if !errors.As(err, &me) {
				t.Fatalf("Load error = %v, want *MissingError", err)
			}
			if diff := cmp.Diff(tt.want, me.Names); diff != "" {
				t.Errorf("missing (-want +got):\n%s", diff)
			}
			if run == nil {
				t.Error("Load returned no run with a MissingError")
			}
		})
	}
}

func TestLoadRefuses(t *testing.T) {
	tests := []struct {
		name  string
		setup func(t *testing.T, dir string)
		want  string
	}{
		{"NUL byte", func(t *testing.T, dir string) { write(t, dir, rundoc.LogFile, "ok\nbad\x00") }, "binary file (NUL byte on line 2)"},
		{"invalid UTF-8", func(t *testing.T, dir string) { write(t, dir, rundoc.GuideFile, "a\nb\n\xff\xfe") }, "not valid UTF-8 (line 3)"},
		{"annexes is a file", func(t *testing.T, dir string) { write(t, dir, "annexes", "") }, "exists but is not a folder"},
		{"huge", func(t *testing.T, dir string) {
			f, err := os.Create(filepath.Join(dir, rundoc.PlanFile))
			if err != nil {
				t.Fatal(err)
			}
			if err := f.Truncate(MaxFileSize + 1); err != nil {
				t.Fatal(err)
			}
			f.Close()
		}, "larger than the 50 MB limit"},
	}
	loaders := map[string]func(string) (*rundoc.Run, error){"Load": Load, "LoadForStatus": LoadForStatus}
	for _, tt := range tests {
		for name, load := range loaders {
			t.Run(tt.name+"/"+name, func(t *testing.T) {
				dir := t.TempDir()
				write(t, dir, rundoc.GuideFile, "")
				write(t, dir, rundoc.LogFile, "")
				tt.setup(t, dir)
				run, err := load(dir)
				var ie *InputError
				if !errors.As(err, &ie) || !strings.Contains(err.Error(), tt.want) {
					t.Fatalf("%s error = %v, want *InputError containing %q", name, err, tt.want)
				}
				if run != nil {
					t.Errorf("%s returned a run with an InputError", name)
				}
			})
		}
	}
}

// TestLoadForStatus: the shipped example loads as Load loads it, but for
// the guide's sections and Report references, which status never reads.
func TestLoadForStatus(t *testing.T) {
	dir := filepath.Join("..", "..", "examples", "ledger-service")
	whole, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	got, err := LoadForStatus(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(whole.Guide.Sections) == 0 || len(whole.Guide.Phases) == 0 {
		t.Fatal("the example's guide has no sections or phases: the comparison would prove nothing")
	}
	want := *whole
	g := *whole.Guide
	g.Sections, g.Reports = nil, nil
	want.Guide = &g
	if diff := cmp.Diff(&want, got, cmpopts.IgnoreUnexported(rundoc.Log{})); diff != "" {
		t.Errorf("LoadForStatus differs from Load without the guide's sections (-want +got):\n%s", diff)
	}
}

func TestLoadUnreadable(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root reads files regardless of permissions")
	}
	dir := t.TempDir()
	write(t, dir, rundoc.GuideFile, "")
	write(t, dir, rundoc.LogFile, "")
	if err := os.Chmod(filepath.Join(dir, rundoc.LogFile), 0); err != nil {
		t.Fatal(err)
	}
	_, err := Load(dir)
	var ie *InputError
	if !errors.As(err, &ie) || !strings.Contains(err.Error(), "cannot read") {
		t.Fatalf("Load error = %v, want cannot read", err)
	}
}

// TestLoadSymlinkLoop covers an unreadable document even when the tests run
// as root (where permission bits do not stop reads).
func TestLoadSymlinkLoop(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, rundoc.GuideFile, "")
	log := filepath.Join(dir, rundoc.LogFile)
	if err := os.Symlink(log, log); err != nil {
		if runtime.GOOS == "windows" {
			t.Skipf("symlinks unavailable: %v", err)
		}
		t.Fatal(err) // every unix has symlinks: never skip this check
	}
	_, err := Load(dir)
	var ie *InputError
	if !errors.As(err, &ie) || !strings.Contains(err.Error(), "cannot read") {
		t.Fatalf("Load error = %v, want cannot read", err)
	}
}
