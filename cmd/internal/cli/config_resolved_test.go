package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aepgate/aepgate/internal/testkit/ghfake"
	"github.com/aepgate/aepgate/internal/testkit/golden"
)

// TestConfigValidateResolved: --resolved --base prints the effective policy
// with each value's source (golden); a file that tries to drop an inherited
// owner or add an auditor is refused, naming the inherited value; a file
// that extends a base is not resolved without it.
func TestConfigValidateResolved(t *testing.T) {
	const dir = "testdata/config/"
	for _, tt := range []struct {
		name     string
		args     []string
		wantExit int
		golden   string
		wantErr  string
	}{
		{"resolved", []string{dir + "extends.yml", "--resolved", "--base", dir + "org-base.yml"}, exitOK, "resolved.golden", ""},
		{"resolved json", []string{dir + "extends.yml", "--resolved", "--base", dir + "org-base.yml", "--format", "json"}, exitOK, "resolved-json.golden", ""},
		{"merged without --resolved", []string{dir + "extends.yml", "--base", dir + "org-base.yml"}, exitOK, "merged.golden", ""},
		{"drop refused", []string{dir + "extends-drop.yml", "--base", dir + "org-base.yml"}, exitFindings, "drop.golden", ""},
		{"standalone resolved", []string{dir + "org-base.yml", "--resolved"}, exitOK, "standalone.golden", ""},
		// An owners map is shown as the file's owners key, set by the
		// repository (not as path_owners from the default).
		{"owners map resolved", []string{dir + "owners-map.yml", "--resolved"}, exitOK, "owners-map.golden", ""},
		{"no base given", []string{dir + "extends.yml", "--resolved"}, exitUsage, "", "give --base FILE (a copy of it) or --repo owner/name"},
		{"base for a file that extends none", []string{dir + "org-base.yml", "--base", dir + "org-base.yml"}, exitUsage, "", "extends no base"},
		{"both sources", []string{dir + "extends.yml", "--base", dir + "org-base.yml", "--repo", "acme/widgets"}, exitUsage, "", "none of the others can be"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errs := runCLI(t, append([]string{"config", "validate"}, tt.args...)...)
			if code != tt.wantExit || !strings.Contains(errs, tt.wantErr) {
				t.Fatalf("exit %d, stdout %q, stderr %q; want exit %d, stderr containing %q", code, out, errs, tt.wantExit, tt.wantErr)
			}
			if tt.golden != "" {
				golden.CheckString(t, filepath.Join(dir, tt.golden), out)
			}
		})
	}
}

// TestConfigValidateResolvedRepo: with --repo and a token the repository's
// own config and its base are read through GitHub as the App reads them,
// and a base GitHub does not show is refused with the reason (exit 2).
func TestConfigValidateResolvedRepo(t *testing.T) {
	ghfake.RequireGraphQL(t)
	f := ghfake.New(t)
	base, _ := os.ReadFile("testdata/config/org-base.yml")
	ext, _ := os.ReadFile("testdata/config/extends.yml")
	f.CreateRepo("acme/.github").Commit("main", "policy", map[string]string{"aepgate.yml": string(base)})
	f.CreateRepo("acme/widgets").Commit("main", "config", map[string]string{".github/aepgate.yml": string(ext)})
	f.CreateRepo("acme/lost").Commit("main", "config", map[string]string{".github/aepgate.yml": "version: 1\nextends: acme/gone:aepgate.yml\n"})
	token := filepath.Join(t.TempDir(), "token")
	if err := os.WriteFile(token, []byte(f.UserToken("reader")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	args := func(repo string) []string {
		return []string{"config", "validate", "--resolved", "--repo", repo, "--token-file", token, "--github-url", f.URL()}
	}
	code, out, errs := runCLI(t, args("acme/widgets")...)
	if code != exitOK {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	golden.CheckString(t, "testdata/config/resolved-repo.golden", out)
	code, _, errs = runCLI(t, args("acme/lost")...)
	if code != exitUsage || !strings.Contains(errs, "extends acme/gone:aepgate.yml, which cannot be read: aepgate.yml is not on the default branch of acme/gone") {
		t.Errorf("a base GitHub does not show: exit %d, stderr %q; want exit 2 with the reason", code, errs)
	}
}
