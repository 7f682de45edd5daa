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

// TestCertificateFetchTokenFromTheEnvironment: without --token-file the
// token is GH_TOKEN, else GITHUB_TOKEN; with neither the read goes without
// credentials, and a refusal says that anonymous reads see public
// repositories only.
func TestCertificateFetchTokenFromTheEnvironment(t *testing.T) {
	for _, tc := range []struct {
		name, ghToken, githubToken, wantUser string
	}{
		{"GH_TOKEN first", "gh-reader", "github-reader", "gh-reader"},
		{"GITHUB_TOKEN", "", "github-reader", "github-reader"},
		{"anonymous", "", "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newCertWorld(t)
			for name, user := range map[string]string{"GH_TOKEN": tc.ghToken, "GITHUB_TOKEN": tc.githubToken} {
				tok := ""
				if user != "" {
					tok = w.f.UserToken(user)
				}
				t.Setenv(name, tok)
			}
			code, out, errOut := runCLI(t, "certificate", "fetch", "--repo", "acme/widgets", "--sha", w.sha, "--app-id", "777", "--github-url", w.f.URL())
			if code != 1 || out != "" {
				t.Errorf("exit %d, stdout %q, stderr %q; want 1 (not certified)", code, out, errOut)
			}
			reqs := w.f.Requests()
			if len(reqs) != 1 || reqs[0].User != tc.wantUser {
				t.Fatalf("requests: %+v; want one read as %q", reqs, tc.wantUser)
			}
			if tc.wantUser == "" && !strings.Contains(errOut, "anonymous reads see public repositories only") {
				t.Errorf("anonymous refusal without the hint: %q", errOut)
			}
		})
	}
}

// TestCertificateFetchUnreachableIsExit3: GitHub not answering is exit 3,
// not the "not certified" of exit 1.
func TestCertificateFetchUnreachableIsExit3(t *testing.T) {
	code, _, errOut := runCLI(t, "certificate", "fetch", "--repo", "acme/widgets", "--sha", strings.Repeat("a", 40), "--app-id", "777", "--github-url", "http://127.0.0.1:1/")
	if code != 3 || !strings.Contains(errOut, "connection refused") {
		t.Errorf("exit %d, stderr %q; want 3", code, errOut)
	}
}

func TestCertificateFetchHelp(t *testing.T) {
	code, out, _ := runCLI(t, "certificate", "fetch", "--help")
	for _, want := range []string{"--app-id", "--app-slug", "--token-file", "--github-url", "There is no default App",
		"never trusted", "sha256:<hex>", "chmod 600", "GH_TOKEN", "Exit codes: 0 certified; 1 not certified"} {
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
