package cli

import (
	"os"
	"strings"
	"testing"
)

// TestCertificateFetchUsage: bad flags and unusable token files end with
// exit 2 and a clear error before any request.
func TestCertificateFetchUsage(t *testing.T) {
	w := newCertWorld(t)
	loose := w.tokenFile + ".loose"
	if err := os.WriteFile(loose, []byte("tok\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(loose, 0o644); err != nil {
		t.Fatal(err)
	}
	base := []string{"certificate", "fetch", "--github-url", w.f.URL()}
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no App named", []string{"--repo", "acme/widgets", "--sha", w.sha, "--token-file", w.tokenFile},
			"name the aepgate App whose check runs are trusted with --app-id or --app-slug"},
		{"no sha", []string{"--repo", "acme/widgets", "--app-id", "777"}, `required flag(s) "sha" not set`},
		{"short sha", []string{"--repo", "acme/widgets", "--sha", w.sha[:12], "--app-id", "777"}, "is not 40 lowercase hex characters"},
		{"upper-case sha", []string{"--repo", "acme/widgets", "--sha", strings.ToUpper(w.sha), "--app-id", "777"}, "is not 40 lowercase hex characters"},
		{"repo URL", []string{"--repo", "https://github.com/acme/widgets", "--sha", w.sha, "--app-id", "777"}, "is not owner/name"},
		{"negative App ID", []string{"--repo", "acme/widgets", "--sha", w.sha, "--app-id", "-1"}, "is not a GitHub App ID"},
		{"token file mode 0644", []string{"--repo", "acme/widgets", "--sha", w.sha, "--app-id", "777", "--token-file", loose}, "has mode 0644; run chmod 600"},
		{"token file missing", []string{"--repo", "acme/widgets", "--sha", w.sha, "--app-id", "777", "--token-file", w.tokenFile + ".none"}, "token file unavailable"},
		{"stray argument", []string{"--repo", "acme/widgets", "--sha", w.sha, "--app-id", "777", "extra"}, "unknown command"},
	}
	t.Setenv("GITHUB_TOKEN", w.f.UserToken("reader"))
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w.f.ResetLog()
			code, out, errOut := runCLI(t, append(base, tt.args...)...)
			if code != 2 || out != "" || !strings.HasPrefix(errOut, "error: ") || !strings.Contains(errOut, tt.want) {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit 2, no stdout, an error containing %q", code, out, errOut, tt.want)
			}
			if n := len(w.f.Requests()); n != 0 {
				t.Errorf("%d requests made; want none", n)
			}
		})
	}
}

// TestCertificateFetchAnonymous: without --token-file the read goes without
// credentials (the environment's tokens are never used), and a refusal
// says that anonymous reads see public repositories only.
func TestCertificateFetchAnonymous(t *testing.T) {
	w := newCertWorld(t)
	t.Setenv("GITHUB_TOKEN", w.f.UserToken("reader"))
	t.Setenv("GH_TOKEN", w.f.UserToken("reader"))
	code, out, errOut := runCLI(t, "certificate", "fetch", "--repo", "acme/widgets", "--sha", w.sha, "--app-id", "777", "--github-url", w.f.URL())
	if code != 2 || out != "" || !strings.Contains(errOut, "anonymous reads see public repositories only") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	reqs := w.f.Requests()
	if len(reqs) != 1 || reqs[0].User != "" || reqs[0].Installation != 0 || reqs[0].Status != 401 {
		t.Errorf("requests: %+v; want one anonymous read", reqs)
	}
}

func TestCertificateFetchHelp(t *testing.T) {
	code, out, _ := runCLI(t, "certificate", "fetch", "--help")
	for _, want := range []string{"--app-id", "--app-slug", "--token-file", "--github-url", "There is no default App",
		"never trusted", "sha256:<hex>", "chmod 600", "Exit codes: 0 certified; 2"} {
		if !strings.Contains(out, want) {
			t.Errorf("help lacks %q:\n%s", want, out)
		}
	}
	if code != 0 {
		t.Errorf("--help: exit %d", code)
	}
	code, out, _ = runCLI(t, "certificate", "--help")
	if code != 0 || !strings.Contains(out, "fetch") {
		t.Errorf("certificate --help does not list fetch (exit %d):\n%s", code, out)
	}
}
