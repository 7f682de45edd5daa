package action

import (
	"strings"
	"testing"

	"github.com/aepgate/aepgate/checks"
)

// TestActionSaysTheTokenPersisted: a workspace checked out without
// persist-credentials: false holds the job's token in its git config; when
// the step starts a command there (the plans re-run), the job summary and
// a workflow warning say so and how to fix it, once. A workspace without
// it gets no such note.
func TestActionSaysTheTokenPersisted(t *testing.T) {
	for _, persisted := range []bool{true, false} {
		e := newPlansEnv(t, false)
		if persisted {
			gitIn(t, e.ws, nil, "", "config", "http.https://github.com/.extraheader", "AUTHORIZATION: basic eC1hY2Nlc3MtdG9rZW46c2VjcmV0")
		}
		if code := e.run(); code != ExitOK {
			t.Fatalf("persisted %v: exit %d\n%s", persisted, code, e.stdout.String())
		}
		if r := e.runs()[checks.NamePlans]; r.Conclusion != "success" {
			t.Errorf("persisted %v: aep/plans %s", persisted, r.Conclusion)
		}
		const want = "The workspace's git config holds `http.https://github.com/.extraheader`"
		summary, out := e.file("GITHUB_STEP_SUMMARY"), e.stdout.String()
		if got := strings.Count(summary, want) == 1 && strings.Count(out, "::warning::aepgate: "+want) == 1; got != persisted {
			t.Errorf("persisted %v: noted %v\nsummary:\n%s\nlog:\n%s", persisted, got, summary, out)
		}
	}
}
