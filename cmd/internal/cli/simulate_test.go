package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/aepgate/aepgate/internal/testkit/ghfake"
)

// simulatedRun is one run in simulate's --format json.
type simulatedRun struct {
	Name       string `json:"name"`
	Conclusion string `json:"conclusion"`
	Title      string `json:"title"`
	Summary    string `json:"summary"`
}

// simulateRepo is a repository on the fake with one unit and an open pull
// request naming it, and an owner's HOLD on the unit.
func simulateRepo(t *testing.T) (*ghfake.Fake, *ghfake.PR) {
	t.Helper()
	f := ghfake.New(t)
	repo := f.CreateRepo("acme/widgets")
	repo.Commit("main", "config", map[string]string{".github/aepgate.yml": "version: 1\nowners: [olivia]\nauditors: [carol]\n"})
	repo.Grant("olivia", "admin")
	repo.Grant("rita", "read")
	ms := repo.CreateMilestone("M", "")
	unit := repo.OpenIssue("alice", "Export", "Story.\n\n```yaml\ngoal: ship it\nacceptance: [it works]\nnon_goals: [the rest]\nrisk: low\nclass: product\n```\n", ghfake.InMilestone(ms))
	repo.Branch("export", "main")
	repo.Commit("export", "export", map[string]string{"export.go": "package export\n"})
	pr := repo.OpenPR("bob", "export", "main", "Export", "Work-unit: #1")
	unit.Comment("olivia", "/aep hold waiting for legal")
	return f, pr
}

// TestSimulate: the held pull request is judged as the App would judge it
// (gates blocked by the HOLD), under a local advisory config nothing
// blocks, and the simulation writes nothing to GitHub.
func TestSimulate(t *testing.T) {
	f, pr := simulateRepo(t)
	t.Setenv("GH_TOKEN", "")
	t.Setenv("GITHUB_TOKEN", f.UserToken("rita"))
	advisory := filepath.Join(t.TempDir(), "policy.yml")
	if err := os.WriteFile(advisory, []byte("version: 1\nowners: [olivia]\nauditors: [carol]\nmode: advisory\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		extra []string
		want  map[string]string
	}{
		{"repository config", nil, map[string]string{"aepgate/work-unit": "success", "aepgate/audit": "success", "aepgate/gates": "action_required", "aepgate/merge": "failure"}},
		{"local advisory config", []string{"--config", advisory}, map[string]string{"aepgate/work-unit": "neutral", "aepgate/audit": "neutral", "aepgate/gates": "neutral", "aepgate/merge": "neutral"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f.ResetLog()
			code, out, errOut := runCLI(t, append([]string{"simulate", "--github-url", f.URL(), "--repo", "acme/widgets", "--pr", "2", "--format", "json"}, tt.extra...)...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			var runs []simulatedRun
			if err := json.Unmarshal([]byte(out), &runs); err != nil {
				t.Fatalf("stdout: %v\n%s", err, out)
			}
			got := map[string]string{}
			for _, r := range runs {
				got[r.Name] = r.Conclusion
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("conclusions (-want +got):\n%s", diff)
			}
			for _, r := range f.Writes() {
				if r.Pattern != "POST /graphql" {
					t.Errorf("simulate wrote to GitHub: %s", r)
				}
			}
		})
	}
	_ = pr
}

// TestSimulateUsage: bad flags end with exit 2 before any request.
func TestSimulateUsage(t *testing.T) {
	f, _ := simulateRepo(t)
	t.Setenv("GH_TOKEN", "")
	t.Setenv("GITHUB_TOKEN", "")
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no token", []string{"--repo", "acme/widgets", "--pr", "2"}, "no token"},
		{"bad repo", []string{"--repo", "widgets", "--pr", "2"}, "is not owner/name"},
		{"bad pr", []string{"--repo", "acme/widgets", "--pr", "0"}, "is not a pull request number"},
		{"bad format", []string{"--repo", "acme/widgets", "--pr", "2", "--format", "xml"}, "--format must be"},
		{"missing config", []string{"--repo", "acme/widgets", "--pr", "2", "--config", "/nonexistent.yml"}, "--config"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f.ResetLog()
			code, _, errOut := runCLI(t, append([]string{"simulate", "--github-url", f.URL()}, tt.args...)...)
			if code != 2 || !strings.Contains(errOut, tt.want) {
				t.Errorf("exit %d, stderr %q; want 2 and %q", code, errOut, tt.want)
			}
			if n := len(f.Requests()); n != 0 {
				t.Errorf("%d requests before the usage was checked", n)
			}
		})
	}
}
