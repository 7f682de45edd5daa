package rundir

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/aepgate/aepgate/protocol/rundoc"
)

func TestOutsideLinksReportsLinksLeavingTheRunFolder(t *testing.T) {
	base := t.TempDir()
	run := filepath.Join(base, "run")
	elsewhere := filepath.Join(base, "elsewhere")
	write(t, elsewhere, "log.md", "### P0-T1 — PENDING\n")
	write(t, run, "shared/guide.md", "")
	write(t, run, rundoc.PlanFile, "")
	link := func(target, name string) {
		if err := os.Symlink(target, filepath.Join(run, name)); err != nil {
			if runtime.GOOS == "windows" {
				t.Skipf("symlinks unavailable: %v", err)
			}
			t.Fatal(err) // every unix has symlinks: never skip this check
		}
	}
	link(filepath.Join(elsewhere, "log.md"), rundoc.LogFile)    // absolute, outside
	link(filepath.Join("shared", "guide.md"), rundoc.GuideFile) // relative, inside
	got := OutsideLinks(run)
	want := []Outside{{Name: rundoc.LogFile, Target: filepath.Join(mustReal(t, elsewhere), "log.md")}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("OutsideLinks (-want +got):\n%s", diff)
	}

	// Escaping with .. is outside too; the run folder reached through a
	// symlink of its own is not.
	os.Remove(filepath.Join(run, rundoc.LogFile))
	link(filepath.Join("..", "elsewhere", "log.md"), rundoc.LogFile)
	viaLink := filepath.Join(base, "run-link")
	os.Symlink(run, viaLink)
	if got := OutsideLinks(viaLink); len(got) != 1 || got[0].Name != rundoc.LogFile {
		t.Errorf("OutsideLinks through a linked folder = %v, want the log only", got)
	}
	if _, err := Load(viaLink); err != nil {
		t.Errorf("Load still reads linked documents: %v", err)
	}
}

func mustReal(t *testing.T, p string) string {
	t.Helper()
	r, err := filepath.EvalSymlinks(p)
	if err != nil {
		t.Fatal(err)
	}
	return r
}
