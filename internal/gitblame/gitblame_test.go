package gitblame

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func git(t *testing.T, dir, mail string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=n", "-c", "user.email=" + mail, "-C", dir}, args...)...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

func TestBlame(t *testing.T) {
	dir := t.TempDir()
	git(t, dir, "x@example.com", "init", "-q")
	write := func(s string) {
		if err := os.WriteFile(filepath.Join(dir, "log.md"), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("a\nb\n")
	git(t, dir, "7+exec@users.noreply.github.com", "add", "-A")
	git(t, dir, "7+exec@users.noreply.github.com", "commit", "-q", "-m", "report")
	write("a\nb\nAPPROVED\n")
	git(t, dir, "ann@example.com", "commit", "-qam", "verdict")
	got, err := Blame(context.Background(), dir, "HEAD", "log.md")
	if err != nil {
		t.Fatal(err)
	}
	mails := map[int]string{}
	for n, l := range got {
		if len(l.Commit) != 40 {
			t.Errorf("line %d commit %q", n, l.Commit)
		}
		mails[n] = l.AuthorMail
	}
	want := map[int]string{1: "7+exec@users.noreply.github.com", 2: "7+exec@users.noreply.github.com", 3: "ann@example.com"}
	if diff := cmp.Diff(want, mails); diff != "" {
		t.Errorf("blame (-want +got):\n%s", diff)
	}
}

func TestNoreplyLogin(t *testing.T) {
	for mail, want := range map[string]string{
		"7+Exec@users.noreply.github.com": "exec", "octo@users.noreply.github.com": "octo",
		"ann@example.com": "", "x@users.noreply.github.com.evil.example": "", "": "",
	} {
		if got := NoreplyLogin(mail); got != want {
			t.Errorf("NoreplyLogin(%q) = %q, want %q", mail, got, want)
		}
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte("0123456789012345678901234567890123456789 1 1 1\nauthor-mail <a@b>\n\tx\n"))
	f.Fuzz(func(t *testing.T, b []byte) { _, _ = Parse(b) })
}
