package cli

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/aepgate/aepgate/internal/isolate"
	"github.com/aepgate/aepgate/protocol/rundoc"
)

// headGuide reads the folder's own guide: the rule removed, the negative
// control of baseGuide.
func headGuide(_ context.Context, dir, _ string) (*rundoc.Guide, string, error) {
	b, err := os.ReadFile(filepath.Join(dir, rundoc.GuideFile))
	if err != nil {
		return nil, "", err
	}
	return rundoc.ParseGuide(rundoc.GuideFile, string(b)), "the working tree", nil
}

// TestVerifyRerunFromBase: on a branch, the executor changes a failing
// task's Verify command to a printf of the pasted last line. verify
// --rerun takes the command from the base (the merge base with main),
// reports the change and does not say ok. The negative control reads the
// head's guide and gives the false ok.
func TestVerifyRerunFromBase(t *testing.T) {
	const pasted = "ok  src 0.1s"
	lie := "printf '" + pasted + "\\n'"
	for _, tt := range []struct {
		name     string
		guideAt  func(ctx context.Context, dir, rev string) (*rundoc.Guide, string, error)
		base     string
		wantCode int
		want     []string
		notWant  string
	}{
		{"the base's command", baseGuide, "", 1, []string{
			"at the merge base of HEAD and main",
			"P0-T1      CHANGED      not run",
			"compliance-log.md:3: P0-T1: the Verify command changed on this pull request; not re-run from the head's text",
			"1 changed Verify command(s) not run"}, "P0-T1      ok"},
		{"an explicit --base", baseGuide, "main", 1, []string{"at main (", "P0-T1      CHANGED"}, "P0-T1      ok"},
		{"negative control: the head's guide", headGuide, "", 0, []string{"P0-T1      ok", "0 false green(s)"}, "CHANGED"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := &plansRepo{t: t, dir: t.TempDir()}
			r.git("init", "-q", "-b", "main")
			r.commit("guide", verifyRun([]string{"echo 'FAIL src'; exit 1"}, []string{"(none yet)"}))
			r.git("checkout", "-q", "-b", "work")
			r.commit("done", verifyRun([]string{lie}, []string{pasted}))
			var out, errb bytes.Buffer
			o := verifyOptions{run: isolate.Commands, guideAt: tt.guideAt, base: tt.base, rerun: true, timeout: time.Minute, format: "text"}
			err := o.exec(context.Background(), streams{out: &out, err: &errb}, filepath.Join(r.dir, "docs/run"))
			code := 0
			if ee := (*exitError)(nil); errors.As(err, &ee) {
				code = ee.code
				errb.WriteString(ee.Error())
			}
			if code != tt.wantCode {
				t.Errorf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tt.wantCode, out.String(), errb.String())
			}
			for _, w := range tt.want {
				if !strings.Contains(out.String(), w) {
					t.Errorf("stdout lacks %q:\n%s", w, out.String())
				}
			}
			if strings.Contains(out.String(), tt.notWant) {
				t.Errorf("stdout has %q:\n%s", tt.notWant, out.String())
			}
		})
	}
}

// TestVerifyRerunNeedsBase: outside a git repository verify --rerun
// fails instead of trusting the folder's own guide.
func TestVerifyRerunNeedsBase(t *testing.T) {
	dir := t.TempDir()
	for p, body := range verifyRun([]string{"true"}, []string{""}) {
		full := filepath.Join(dir, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	code, out, errOut := runCLI(t, "verify", filepath.Join(dir, "docs/run"), "--rerun")
	if code != 2 || !strings.Contains(errOut, "never from the folder's own") {
		t.Errorf("exit %d, want 2\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
}
