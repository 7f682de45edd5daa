package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/aepgate/aepgate/internal/testkit/golden"
)

// TestBoardGolden draws the shipped example run.
func TestBoardGolden(t *testing.T) {
	var out, errb bytes.Buffer
	s := streams{out: &out, err: &errb}
	now := time.Date(2026, 11, 12, 9, 30, 0, 0, time.UTC)
	if err := runBoard(s, filepath.Join("..", "..", "..", "examples", "ledger-service"), "-", formatText, now); err != nil {
		t.Fatal(err)
	}
	if errb.Len() != 0 {
		t.Errorf("stderr %q", errb.String())
	}
	golden.Check(t, filepath.Join("testdata", "board", "ledger-service.html.golden"), out.Bytes())
}

// TestBoardWritesFile: the board goes to --out, by default board.html in
// the working directory, and never into the run folder (the checkout).
func TestBoardWritesFile(t *testing.T) {
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("..", "..", "..", "examples", "ledger-service"))); err != nil {
		t.Fatal(err)
	}
	wd := t.TempDir()
	t.Chdir(wd)
	other := filepath.Join(t.TempDir(), "status.html")
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"default", []string{"board", dir}, filepath.Join(wd, "board.html")},
		{"--out", []string{"board", dir, "--out", other}, other},
		{"--format json", []string{"board", dir, "--out", other + ".2", "--format", "json"}, other + ".2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errs := runCLI(t, tt.args...)
			if code != 0 || !strings.Contains(out, "wrote") || errs != "" {
				t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errs)
			}
			b, err := os.ReadFile(tt.want)
			if err != nil || !bytes.Contains(b, []byte("P1-T2 · AWAITING AUDIT")) || bytes.Contains(b, []byte("<script")) {
				t.Errorf("%s: %v; want the run's board without a script", tt.want, err)
			}
			if _, err := os.Stat(filepath.Join(dir, "board.html")); err == nil {
				t.Errorf("a board was written into the run folder %s", dir)
			}
		})
	}
}

func TestBoardMissingLog(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	code, _, errs := runCLI(t, "board", dir)
	if code != 2 || !strings.Contains(errs, "compliance-log.md") {
		t.Errorf("exit %d, stderr %q; want 2 naming the log", code, errs)
	}
	if _, err := os.Stat(filepath.Join(dir, "board.html")); err == nil {
		t.Error("a board was written for a run without a log")
	}
}

// TestServeBoardFlags: the /board page's flags go together, and the public
// URL must be an address without a path.
func TestServeBoardFlags(t *testing.T) {
	dir := t.TempDir()
	key := writeKey(t, dir)
	secret := filepath.Join(dir, "secret")
	os.WriteFile(secret, []byte("s3cret\n"), 0o600)
	base := []string{"serve", "--app-id", "1", "--private-key-file", key, "--webhook-secret-file", secret, "--addr", "127.0.0.1:-1"}
	tests := []struct {
		name    string
		args    []string
		wantErr string
	}{
		{"client id alone", []string{"--client-id", "Iv1.x"}, "needs --client-id, --client-secret-file and --public-url together"},
		{"no public url", []string{"--client-id", "Iv1.x", "--client-secret-file", secret}, "together"},
		{"public url with a path", []string{"--client-id", "Iv1.x", "--client-secret-file", secret, "--public-url", "https://a.example/aep"}, `--public-url "https://a.example/aep"`},
		{"public url not http", []string{"--client-id", "Iv1.x", "--client-secret-file", secret, "--public-url", "ftp://a.example"}, "--public-url"},
		{"missing client secret", []string{"--client-id", "Iv1.x", "--client-secret-file", filepath.Join(dir, "nope"), "--public-url", "https://a.example"}, "--client-secret-file: "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, errs := runCLI(t, append(append([]string(nil), base...), tt.args...)...)
			if code != 2 || !strings.Contains(errs, tt.wantErr) {
				t.Errorf("exit %d, stderr %q; want 2 and %q", code, errs, tt.wantErr)
			}
		})
	}
	code, out, _ := runCLI(t, "serve", "--help")
	for _, f := range []string{"--client-id", "--client-secret-file", "--public-url", "/board/callback"} {
		if code != 0 || !strings.Contains(out, f) {
			t.Errorf("serve --help lacks %s", f)
		}
	}
}
