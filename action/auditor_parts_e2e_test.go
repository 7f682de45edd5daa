package action

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/aepgate/aepgate/checks"
)

// TestActionAuditorPart: a pull request that changes a task's Verify
// command in the execution guide fails aep/lint with an [auditor's part]
// problem on the task, saying who may approve it; a writer who is neither
// owner nor auditor approving the head changes nothing, an auditor's
// approving review at the head clears it. The negative control is the
// same pull request without the change (the head's guide as the base's):
// aep/lint is clean without anyone's approval.
func TestActionAuditorPart(t *testing.T) {
	const cfg = "version: 1\nowners: [olivia]\nauditors: [carol, octo]\nrun_documents: [docs/run]\n"
	lie := "printf 'ok  widgets 0.1s\\n'"
	for _, tt := range []struct {
		name, headCmd string
		approvers     []string
		want          string
		message       string
	}{
		{"changed, no approval", lie, nil, "failure",
			"changes the auditor's part of run documents: P0-T1's Verify command; it needs an approving review at the head"},
		{"changed, a writer's approval", lie, []string{"mallory"}, "failure", "from one of @olivia, @carol (an owner or listed auditor other than the author)"},
		{"changed, an auditor's approval", lie, []string{"carol"}, "success", ""},
		{"negative control: unchanged", verifyCheck, nil, "success", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			e := newVerifyEnvConfig(t, cfg, "echo 'ok  widgets 0.1s'\n", "ok  widgets 0.1s", tt.headCmd)
			e.vars["INPUT_VERIFY"] = ""
			authoredBy(t, e.vars["GITHUB_EVENT_PATH"], "octo")
			for _, who := range tt.approvers {
				e.repo.Grant(who, "write")
				e.repo.PR(prNumber).SubmitReview(who, "APPROVED", "")
			}
			e.run()
			r := e.runs()[checks.NameLint]
			if r.Conclusion != tt.want {
				t.Fatalf("aep/lint = %s %q, want %s\n%s\n%s", r.Conclusion, r.Title, tt.want, r.Summary, e.stdout.String())
			}
			if tt.message == "" {
				return
			}
			var got []string
			for _, a := range r.Annotations {
				got = append(got, a.Path+": "+a.Message)
				if a.Path == "docs/run/execution-guide.md" && strings.Contains(a.Message, tt.message) {
					return
				}
			}
			t.Errorf("no annotation on docs/run/execution-guide.md containing %q:\n%s", tt.message, strings.Join(got, "\n"))
		})
	}
}

// authoredBy rewrites the event file at path so that login opened the
// pull request, as it did on the fake.
func authoredBy(t *testing.T, path, login string) {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var ev map[string]any
	if err := json.Unmarshal(raw, &ev); err != nil {
		t.Fatal(err)
	}
	ev["pull_request"].(map[string]any)["user"].(map[string]any)["login"] = login
	out, _ := json.Marshal(ev)
	if err := os.WriteFile(path, out, 0o644); err != nil {
		t.Fatal(err)
	}
}
