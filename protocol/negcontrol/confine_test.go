package negcontrol

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// confineFixture makes copy/ (the confined tree, holding guard.txt and a
// sub-folder) and outside/guard.txt beside it, and returns both folders.
func confineFixture(t *testing.T) (copyDir, outside string) {
	t.Helper()
	base := t.TempDir()
	copyDir, outside = filepath.Join(base, "copy"), filepath.Join(base, "outside")
	for _, d := range []string{copyDir, filepath.Join(copyDir, "sub"), outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(d, "guard.txt"), []byte(guardOn), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return copyDir, outside
}

func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Skipf("symlinks unavailable: %v", err)
	}
}

// TestConfineRefusesPathsLeavingTheCopy: a declared file or working
// directory that resolves outside Confine is a usage error before anything
// runs; links that stay inside are fine.
func TestConfineRefusesPathsLeavingTheCopy(t *testing.T) {
	copyDir, outside := confineFixture(t)
	symlink(t, filepath.Join(outside, "guard.txt"), filepath.Join(copyDir, "abs.txt"))
	symlink(t, filepath.Join("..", "outside", "guard.txt"), filepath.Join(copyDir, "dotdot.txt"))
	symlink(t, filepath.Join("sub", "guard.txt"), filepath.Join(copyDir, "inside.txt"))
	symlink(t, outside, filepath.Join(copyDir, "outdir"))
	for _, tc := range []struct {
		name, dir, file string
		want            string // "" for allowed
	}{
		{"plain file", copyDir, "guard.txt", ""},
		{"link inside", copyDir, "inside.txt", ""},
		{"sub-folder", filepath.Join(copyDir, "sub"), "guard.txt", ""},
		{"link to an absolute path", copyDir, "abs.txt", `"abs.txt" leads outside`},
		{"link escaping with ..", copyDir, "dotdot.txt", `"dotdot.txt" leads outside`},
		{"file through a linked folder", copyDir, "outdir/guard.txt", `"outdir/guard.txt" leads outside`},
		{"working directory through a link", filepath.Join(copyDir, "outdir"), "guard.txt", "the working directory leads outside"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := Validate(Spec{Test: "true", Break: "true", File: tc.file, Dir: tc.dir, Confine: copyDir})
			var ue *UsageError
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("Validate = %v, want nil", err)
			case tc.want != "" && (!errors.As(err, &ue) || !strings.Contains(err.Error(), tc.want)):
				t.Fatalf("Validate = %v, want a usage error saying %q", err, tc.want)
			}
		})
	}
}

// TestConfineKeepsTheOriginalUnchanged runs a control whose declared file
// is a link to a file outside the copy. Confined, nothing runs and the
// outside file is untouched; without Confine (the protection removed) the
// break writes through the link.
func TestConfineKeepsTheOriginalUnchanged(t *testing.T) {
	for _, tc := range []struct {
		name        string
		confine     bool
		wantChanged bool
	}{{"confined", true, false}, {"not confined", false, true}} {
		t.Run(tc.name, func(t *testing.T) {
			copyDir, outside := confineFixture(t)
			symlink(t, filepath.Join(outside, "guard.txt"), filepath.Join(copyDir, "link.txt"))
			witness := filepath.Join(t.TempDir(), "seen")
			s := Spec{File: "link.txt", Break: "echo guard=off > link.txt", Dir: copyDir, BackupDir: t.TempDir(),
				Test: "cat '" + filepath.Join(outside, "guard.txt") + "' >> '" + witness + "'; grep -q guard=on link.txt"}
			if tc.confine {
				s.Confine = copyDir
			}
			res := Run(context.Background(), s)
			seen, _ := os.ReadFile(witness)
			if changed := strings.Contains(string(seen), "guard=off"); changed != tc.wantChanged {
				t.Fatalf("outside file broken during the run = %v, want %v (err %v)\n%s", changed, tc.wantChanged, res.Err, res.Transcript)
			}
			if tc.confine && res.ExitCode() != 2 {
				t.Errorf("confined: exit %d, want 2 (refused)", res.ExitCode())
			}
		})
	}
}

// TestConfineRefusesRestoringThroughALinkTheBreakMade: a break that turns
// the declared file into a link out of the copy does not get the backup
// written through that link; without Confine it does.
func TestConfineRefusesRestoringThroughALinkTheBreakMade(t *testing.T) {
	for _, tc := range []struct {
		name        string
		confine     bool
		wantChanged bool
	}{{"confined", true, false}, {"not confined", false, true}} {
		t.Run(tc.name, func(t *testing.T) {
			copyDir, outside := confineFixture(t)
			target := filepath.Join(outside, "guard.txt")
			os.WriteFile(target, []byte("precious\n"), 0o644)
			s := Spec{File: "guard.txt", Break: "rm guard.txt && ln -s '" + target + "' guard.txt", Dir: copyDir,
				BackupDir: t.TempDir(), Test: testCmd}
			if tc.confine {
				s.Confine = copyDir
			}
			res := Run(context.Background(), s)
			b, _ := os.ReadFile(target)
			if changed := string(b) != "precious\n"; changed != tc.wantChanged {
				t.Fatalf("outside file changed = %v, want %v\n%s", changed, tc.wantChanged, res.Transcript)
			}
			if tc.confine && (res.OK || !strings.Contains(res.Transcript, "not restored through it")) {
				t.Errorf("confined: ok=%v, transcript:\n%s", res.OK, res.Transcript)
			}
		})
	}
}
