package deploy_test

import (
	"strings"
	"testing"

	"github.com/aepgate/aepgate/internal/testkit/appkit"
	"github.com/aepgate/aepgate/internal/testkit/ghfake"
	"github.com/aepgate/aepgate/protocol/deployrules"
)

// TestDeployLineage: production received certified merge #1; then merge
// #2 is certified too. With a commit pushed to main in between (no unit,
// no certificate) the deploy of #2 is rejected naming it — #2's own
// certificate would otherwise carry it out; with every commit since a
// certified merge it is approved. Each answer costs at most 3 reads and 1
// write. Negative control: without the lineage rule the deploy over the
// uncertified commit is approved.
func TestDeployLineage(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name   string
		rules  []deployrules.Rule
		hotfix bool
		want   string
	}{
		{"every commit since certified", nil, false, deployrules.Approved},
		{"an uncertified commit in between", nil, true, deployrules.Rejected},
		{"negative control: without the lineage rule", withoutDeployRule("lineage"), true, deployrules.Approved},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			w := newDeployWorld(t, certifiedYAML, tt.rules)
			first := w.CertifiedMergeNamed(t, "one")
			if got := appkit.Answered(t, w.Deploy(first)); got.State != deployrules.Approved {
				t.Fatalf("first deployment: %s (%s)", got.State, got.Comment)
			}
			hotfix := ""
			if tt.hotfix {
				hotfix = w.Repo.Commit("main", "hotfix straight to main", map[string]string{"hotfix.go": "package x\n"})
			}
			second := w.CertifiedMergeNamed(t, "two")
			run := w.DeployCounted(t, second)
			got := appkit.Answered(t, run)
			w.Quiet(t)
			if got.State != tt.want {
				t.Fatalf("answer %s (%s), want %s", got.State, got.Comment, tt.want)
			}
			if tt.want == deployrules.Rejected && !strings.Contains(got.Comment, hotfix[:12]+" reached the branch without being a certified unit's merge commit") {
				t.Errorf("the rejection does not name the uncertified commit %s: %q", hotfix[:12], got.Comment)
			}
			reads, writes := costUntilAnswer(w.F.Requests())
			t.Logf("%s: %d reads, %d writes until the answer (all requests: %v)", tt.name, reads, writes, w.F.Stats().ByRoute)
			if reads > 3 || writes != 1 {
				t.Errorf("a deployment answered at once cost %d reads and %d writes (want ≤ 3 and 1)", reads, writes)
			}
		})
	}
}

// answerRoute is the deployment protection rule's callback.
const answerRoute = "POST /repos/{owner}/{repo}/actions/runs/{run_id}/deployment_protection_rule"

// costUntilAnswer counts the requests up to and including the
// deployment's answer, the App's credentials aside: a rejected run then
// completes, and the App's judging of that workflow_run is not the
// deployment's cost.
func costUntilAnswer(reqs []ghfake.Request) (reads, writes int) {
	for _, r := range reqs {
		switch {
		case r.Pattern == "GET /app" || r.Pattern == "POST /app/installations/{installation_id}/access_tokens":
			continue
		case r.Pattern == answerRoute:
			return reads, writes + 1
		case r.Write && r.Pattern != "POST /graphql":
			writes++
		default:
			reads++
		}
	}
	return reads, writes
}
