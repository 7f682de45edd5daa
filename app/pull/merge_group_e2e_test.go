package pull_test

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aepgate/aepgate/app"
	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/internal/testkit/appkit"
	"github.com/aepgate/aepgate/internal/testkit/fixtures"
	"github.com/aepgate/aepgate/internal/testkit/ghfake"
)

// groupPayload is GitHub's recorded merge_group.checks_requested payload
// with the group's head, branch, installation and repository set to the
// test's.
func groupPayload(t *testing.T, w *appkit.ReadbackWorld, groupSHA, ref string) []byte {
	t.Helper()
	var p map[string]any
	if err := json.Unmarshal(fixtures.Payload(t, "merge_group", "checks_requested"), &p); err != nil {
		t.Fatal(err)
	}
	mg := p["merge_group"].(map[string]any)
	mg["head_sha"], mg["head_ref"] = groupSHA, ref
	p["installation"] = map[string]any{"id": w.Inst.ID}
	p["repository"] = map[string]any{"name": "widgets", "full_name": "acme/widgets", "owner": map[string]any{"login": "acme"}, "default_branch": "main"}
	b, _ := json.Marshal(p)
	return b
}

// TestMergeGroupJudgedOnTheGroupCommit: a merge queue's group commit gets
// aepgate/merge from the queued pull request's report, unit, gates and
// audit, with the required workflows' runs at the group commit; a group
// queued for an older head is not ready.
func TestMergeGroupJudgedOnTheGroupCommit(t *testing.T) {
	w := appkit.NewReadbackWorld(t, appkit.LifecycleYAML, func(o *app.ReadbackSeams) { o.Audited = nil })
	head := w.PR.Head()
	w.PR.Edit("bob", "Work-unit: #"+strconv.Itoa(w.Unit.Number())+"\n\n"+appkit.WorkerReport(w.Unit.Number(), w.PR.Number(), head))
	appkit.WaitFor(t, 10*time.Second, "the edit judged", func() bool {
		r := w.Latest(head, checks.NameMerge)
		return r != nil && !strings.Contains(r.Summary, "worker report | ❌")
	})
	ref := "gh-readonly-queue/main/pr-" + strconv.Itoa(w.PR.Number()) + "-" + head
	group := w.Repo.CommitBy("bob", ref, "Merge queue group", map[string]string{"queued.txt": "group\n"})
	merged := func() *ghfake.CheckRun { return w.Latest(group, checks.NameMerge) }
	if got := appkit.Deliver(t, w.Base, "merge_group", "g-1", groupPayload(t, w, group, "refs/heads/"+ref)); got != 202 {
		t.Fatalf("merge_group delivery: %d", got)
	}
	appkit.WaitFor(t, 10*time.Second, "aepgate/merge on the group", func() bool { return merged() != nil })
	if r := merged(); r.Conclusion != "failure" || !strings.Contains(r.Summary, `no run of workflow "ci" at `+group[:12]) {
		t.Fatalf("group before its CI: %s\n%s", r.Conclusion, r.Summary)
	}
	w.Repo.CompleteWorkflowRun(ghfake.RunOptions{Name: "ci", SHA: group, Branch: ref, Event: "merge_group"})
	// Another delivery for the group (the same bytes under a new ID would
	// be a replay, answered 200 and not queued).
	appkit.Deliver(t, w.Base, "merge_group", "g-2", appkit.CopyPayload(t, groupPayload(t, w, group, "refs/heads/"+ref)))
	appkit.WaitFor(t, 10*time.Second, "the group ready", func() bool { return merged().Conclusion == "success" })

	// Queued for an older head: not ready, whatever the group's CI says.
	stale := "gh-readonly-queue/main/pr-" + strconv.Itoa(w.PR.Number()) + "-" + strings.Repeat("e", 40)
	other := w.Repo.CommitBy("bob", stale, "Merge queue group", map[string]string{"queued.txt": "other\n"})
	w.Repo.CompleteWorkflowRun(ghfake.RunOptions{Name: "ci", SHA: other, Branch: stale, Event: "merge_group"})
	appkit.Deliver(t, w.Base, "merge_group", "g-3", groupPayload(t, w, other, "refs/heads/"+stale))
	appkit.WaitFor(t, 10*time.Second, "the stale group judged", func() bool { return w.Latest(other, checks.NameMerge) != nil })
	if r := w.Latest(other, checks.NameMerge); r.Conclusion != "failure" || !strings.Contains(r.Summary, "the queue holds eeeeeeeeeeee") {
		t.Errorf("stale group: %s\n%s", r.Conclusion, r.Summary)
	}
}

// TestMergeFollowsTheRequiredWorkflow: aepgate/merge waits for the required
// workflow at the head and turns ready when its run completes (the
// workflow_run delivery names the pull request), with no other event.
func TestMergeFollowsTheRequiredWorkflow(t *testing.T) {
	w := appkit.NewReadbackWorld(t, appkit.LifecycleYAML, func(o *app.ReadbackSeams) { o.Audited = nil })
	head := w.PR.Head()
	w.PR.Edit("bob", "Work-unit: #"+strconv.Itoa(w.Unit.Number())+"\n\n"+appkit.WorkerReport(w.Unit.Number(), w.PR.Number(), head))
	// The world's CI run at the head completed before the report was
	// fixed; a new one is what the merge now waits for.
	appkit.WaitFor(t, 10*time.Second, "judged without the report problem", func() bool {
		r := w.Latest(head, checks.NameMerge)
		return r != nil && !strings.Contains(r.Summary, "worker report | ❌")
	})
	w.Repo.CompleteWorkflowRun(ghfake.RunOptions{Name: "ci", SHA: head, Branch: "work", Event: "pull_request", Conclusion: "failure"})
	appkit.WaitFor(t, 10*time.Second, "the failed run seen", func() bool {
		return strings.Contains(w.Latest(head, checks.NameMerge).Summary, "concluded failure")
	})
	w.Repo.CompleteWorkflowRun(ghfake.RunOptions{Name: "ci", SHA: head, Branch: "work", Event: "pull_request"})
	appkit.WaitFor(t, 10*time.Second, "ready after the green re-run", func() bool { return w.Latest(head, checks.NameMerge).Conclusion == "success" })
}
