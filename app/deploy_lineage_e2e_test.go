package app_test

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/internal/testkit/appkit"
	"github.com/aepgate/aepgate/internal/testkit/ghfake"
	deployrules "github.com/aepgate/aepgate/protocol/deploy"
)

// certifiedMergeNamed is certifiedMerge for a unit and branch called name,
// so one world can certify several merges.
func (w *deployWorld) certifiedMergeNamed(t *testing.T, name string) string {
	t.Helper()
	unit := w.Repo.OpenIssue("alice", "Unit "+name, appkit.Contract("low", "product"), ghfake.InMilestone(w.Repo.CreateMilestone("M "+name, "")))
	w.Repo.Branch(name, "main")
	w.Repo.Commit(name, "work "+name, map[string]string{name + ".go": "package x\n"})
	pr := w.Repo.OpenPR("bob", name, "main", "Work "+name, "Work-unit: #"+strconv.Itoa(unit.Number()))
	appkit.WaitFor(t, 10*time.Second, "aepgate/gates on the head", func() bool { return appkit.NewestRunOn(w.Repo, pr.Head(), checks.NameGates) != nil })
	w.Repo.CompleteWorkflowRun(ghfake.RunOptions{Name: "ci", SHA: pr.Head(), Branch: name, Event: "pull_request"})
	merge := pr.Merge(ghfake.MergeCommit)
	w.Repo.CompleteWorkflowRun(ghfake.RunOptions{Name: "ci", SHA: merge, Branch: "main", Event: "push"})
	appkit.WaitFor(t, 15*time.Second, "certificate", func() bool { return appkit.NewestRunOn(w.Repo, merge, checks.NameCertificate) != nil })
	w.Quiet(t)
	return merge
}

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
			first := w.certifiedMergeNamed(t, "one")
			if got := answered(t, w.deploy(first)); got.State != deployrules.Approved {
				t.Fatalf("first deployment: %s (%s)", got.State, got.Comment)
			}
			hotfix := ""
			if tt.hotfix {
				hotfix = w.Repo.Commit("main", "hotfix straight to main", map[string]string{"hotfix.go": "package x\n"})
			}
			second := w.certifiedMergeNamed(t, "two")
			run := w.deployCounted(t, second)
			got := answered(t, run)
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
