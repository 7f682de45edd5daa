package app_test

import (
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/internal/testkit/appkit"
)

func TestE2EWorkUnitCheck(t *testing.T) {
	w := appkit.NewWorld(t)
	w.AddPR(10, "Implements the export.\n\nWork-unit: #1")
	w.AddPR(11, "No unit named here.")
	_, base := appkit.Start(t, appkit.Options(t, w, ""))

	if got := appkit.Deliver(t, base, "pull_request", "d-10", w.PREvent("opened", 10, "Work-unit: #1")); got != 202 {
		t.Fatalf("status %d, want 202", got)
	}
	appkit.Deliver(t, base, "pull_request", "d-11", w.PREvent("opened", 11, "No unit named here."))
	appkit.WaitFor(t, 5*time.Second, "both check runs", func() bool {
		return w.Run(checks.NameWorkUnit, 10) != nil && w.Run(checks.NameWorkUnit, 11) != nil
	})
	if r := w.Run(checks.NameWorkUnit, 10); r.Conclusion != "success" || r.Title != "Work unit #1: Export reports" {
		t.Errorf("PR 10: %s %q\n%s", r.Conclusion, r.Title, r.Summary)
	}
	if r := w.Run(checks.NameWorkUnit, 11); r.Conclusion != "failure" || !strings.Contains(r.Summary, "names no work unit") {
		t.Errorf("PR 11: %s %q\n%s", r.Conclusion, r.Title, r.Summary)
	}

	// A dependency reopens: the issues event re-evaluates PR 10.
	w.Issues[2].Reopen("alice")
	appkit.Deliver(t, base, "issues", "d-i2", w.IssueEvent("reopened", 2))
	appkit.WaitFor(t, 5*time.Second, "PR 10 to fail", func() bool { return w.Run(checks.NameWorkUnit, 10).Conclusion == "failure" })
	if r := w.Run(checks.NameWorkUnit, 10); !strings.Contains(r.Summary, "dependency #2 is still open") {
		t.Errorf("PR 10 summary:\n%s", r.Summary)
	}
	if d := w.Duplicates(); len(d) > 0 {
		t.Errorf("duplicate check runs: %v", d)
	}
}

func TestE2EBrokenConfigFailsClosed(t *testing.T) {
	w := appkit.NewWorld(t)
	w.Repo.Commit("main", "config", map[string]string{".github/aepgate.yml": "version: 1\nno_such_key: true\n"})
	w.AddPR(10, "Work-unit: #1")
	_, base := appkit.Start(t, appkit.Options(t, w, ""))
	appkit.Deliver(t, base, "pull_request", "d-1", w.PREvent("opened", 10, "Work-unit: #1"))
	appkit.WaitFor(t, 5*time.Second, "config check", func() bool { return w.Run(checks.NameConfig, 10) != nil })
	if r := w.Run(checks.NameConfig, 10); r.Conclusion != "failure" || !strings.Contains(r.Summary, "no_such_key") {
		t.Errorf("config run: %s\n%s", r.Conclusion, r.Summary)
	}
	appkit.WaitFor(t, 5*time.Second, "work-unit check", func() bool { return w.Run(checks.NameWorkUnit, 10) != nil })
	if r := w.Run(checks.NameWorkUnit, 10); r.Conclusion != "failure" {
		t.Errorf("work-unit with a broken config: %s", r.Conclusion)
	}
}

func TestE2EDuplicateDeliveryDoesNothing(t *testing.T) {
	w := appkit.NewWorld(t)
	w.AddPR(10, "Work-unit: #1")
	a, base := appkit.Start(t, appkit.Options(t, w, ""))
	body := w.PREvent("opened", 10, "Work-unit: #1")
	if got := appkit.Deliver(t, base, "pull_request", "same", body); got != 202 {
		t.Fatalf("first: %d", got)
	}
	if got := appkit.Deliver(t, base, "pull_request", "same", body); got != 200 {
		t.Fatalf("redelivery: %d, want 200", got)
	}
	appkit.WaitFor(t, 10*time.Second, "every check run written", func() bool {
		_, writes, _ := w.Counts()
		return writes >= appkit.ChecksOnNewHead
	})
	appkit.Drained(t, w.F, a) // a second evaluation, were there one, has run too
	reads, writes, _ := w.Counts()
	// One evaluation: the snapshot query (and the App's login, read once
	// per process); one write per check run on the new head.
	if reads > 2 || writes != appkit.ChecksOnNewHead {
		t.Errorf("reads=%d writes=%d, want ≤2 and %d", reads, writes, appkit.ChecksOnNewHead)
	}
}

func TestE2EEndpoints(t *testing.T) {
	w := appkit.NewWorld(t)
	w.AddPR(10, "Work-unit: #1")
	_, base := appkit.Start(t, appkit.Options(t, w, ""))
	appkit.Deliver(t, base, "pull_request", "m-1", w.PREvent("opened", 10, "Work-unit: #1"))
	appkit.WaitFor(t, 5*time.Second, "check runs", func() bool { return w.Run(checks.NameWorkUnit, 10) != nil && w.Run(checks.NameMerge, 10) != nil })
	// The job's metrics are counted when it returns, after its last write.
	appkit.WaitFor(t, 10*time.Second, "the delivery's job to end", func() bool {
		resp, err := http.Get(base + "/metrics")
		if err != nil {
			return false
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return strings.Contains(string(b), `aepgate_job_duration_seconds_count{kind="aepgate_delivery",result="ok"} 1`)
	})
	for path, want := range map[string][]string{
		"/healthz": {"ok"},
		"/readyz":  {"ready"},
		"/metrics": {
			`aepgate_webhook_deliveries_total{event="pull_request",result="accepted"} 1`,
			`aepgate_github_calls_total{method="POST",route="/graphql",status="200"}`,
			fmt.Sprintf(`aepgate_github_calls_total{method="POST",route="/repos/{owner}/{repo}/check-runs",status="201"} %d`, appkit.ChecksOnNewHead),
			`aepgate_check_runs_total{name="aepgate/work-unit",outcome="written"} 1`,
			`aepgate_job_duration_seconds_count{kind="aepgate_delivery",result="ok"} 1`,
		},
	} {
		resp, err := http.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		for _, w := range want {
			if resp.StatusCode != 200 || !strings.Contains(string(b), w) {
				t.Errorf("GET %s: %d, missing %q", path, resp.StatusCode, w)
			}
		}
	}
}

func TestE2ECheckRunRerequested(t *testing.T) {
	w := appkit.NewWorld(t)
	w.AddPR(10, "Work-unit: #1")
	_, base := appkit.Start(t, appkit.Options(t, w, ""))
	body := w.Payload("rerequested", map[string]any{
		"check_run": map[string]any{"name": checks.NameWorkUnit, "app": map[string]any{"id": appkit.AppID}, "pull_requests": []any{map[string]any{"number": w.PRs[10].Number()}}}})
	appkit.Deliver(t, base, "check_run", "rr-1", body)
	// A re-request is coalesced (coalesce.go): it waits for requests to pause.
	appkit.WaitFor(t, 15*time.Second, "check run", func() bool { return w.Run(checks.NameWorkUnit, 10) != nil })
	if r := w.Run(checks.NameWorkUnit, 10); r.Conclusion != "success" {
		t.Errorf("conclusion %s", r.Conclusion)
	}
}

func TestE2EConcurrentDeliveriesForOnePRWriteOnce(t *testing.T) {
	w := appkit.NewWorld(t)
	w.AddPR(10, "Work-unit: #1")
	o := appkit.Options(t, w, "")
	o.Workers = 16
	a, base := appkit.Start(t, o)
	for i := range 20 {
		appkit.Deliver(t, base, "pull_request", fmt.Sprintf("c-%d", i), w.PREvent("edited", 10, "Work-unit: #1"))
	}
	appkit.WaitFor(t, 5*time.Second, "check run", func() bool { return w.Run(checks.NameWorkUnit, 10) != nil })
	appkit.Drained(t, w.F, a) // every delivery judged
	if d := w.Duplicates(); len(d) > 0 {
		t.Errorf("concurrent evaluations duplicated the check run: %v", d)
	}
	if _, writes, _ := w.Counts(); writes != appkit.ChecksOnNewHead {
		t.Errorf("%d writes for 20 identical evaluations, want %d (one per check)", writes, appkit.ChecksOnNewHead)
	}
}

func TestE2EIssueEventReevaluatesOnlyAffectedPRs(t *testing.T) {
	w := appkit.NewWorld(t)
	w.OpenIssue(t, 3, "Other", appkit.Contract("low", "product"), w.Repo.CreateMilestone("M2", ""))
	w.AddPR(10, "Work-unit: #1")
	w.AddPR(11, "Work-unit: #3")
	a, base := appkit.Start(t, appkit.Options(t, w, ""))
	appkit.Deliver(t, base, "pull_request", "a-10", w.PREvent("opened", 10, "Work-unit: #1"))
	appkit.Deliver(t, base, "pull_request", "a-11", w.PREvent("opened", 11, "Work-unit: #3"))
	appkit.WaitFor(t, 5*time.Second, "both judged", func() bool {
		return w.Run(checks.NameWorkUnit, 10) != nil && w.Run(checks.NameWorkUnit, 11) != nil
	})
	appkit.Drained(t, w.F, a) // both judgements done before the count
	reads0, _, _ := w.Counts()
	// Issue #2 (milestone 1) changes: PR 10 (unit #1, same milestone) is
	// re-evaluated, PR 11 (unit #3, milestone 2) is not.
	body := w.Payload("reopened", map[string]any{"issue": map[string]any{"number": 2, "milestone": map[string]any{"number": 1}}})
	w.Issues[2].Reopen("alice")
	appkit.Deliver(t, base, "issues", "a-i2", body)
	appkit.WaitFor(t, 5*time.Second, "PR 10 to fail", func() bool { return w.Run(checks.NameWorkUnit, 10).Conclusion == "failure" })
	appkit.Drained(t, w.F, a) // the job goes on past PR 10 (the increment) before the count
	reads, _, _ := w.Counts()
	// affected-units query + open PR list + PR 10's snapshot + the lookups
	// of PR 10's two changed runs (work-unit and merge); then milestone 1's
	// increment: the milestone, its issues, and the config with the control
	// issue (a story is open, so nothing past the stories is read).
	if got := reads - reads0; got != 5+3 {
		t.Errorf("%d reads for the issues event, want 5+3 (PR 11 must not be re-read)", got)
	}
}

// TestE2EStalePayloadBodyIsNotTrusted: the payload's body names unit #3,
// but the pull request now names #1; the App judges what GitHub holds now.
func TestE2EStalePayloadBodyIsNotTrusted(t *testing.T) {
	w := appkit.NewWorld(t)
	w.OpenIssue(t, 3, "Other", appkit.Contract("low", "product"), w.Repo.CreateMilestone("M2", ""))
	w.AddPR(10, "Work-unit: #1")
	a, base := appkit.Start(t, appkit.Options(t, w, ""))
	appkit.Deliver(t, base, "pull_request", "stale", w.PREvent("opened", 10, "Work-unit: #3"))
	appkit.WaitFor(t, 5*time.Second, "check run", func() bool { return w.Run(checks.NameWorkUnit, 10) != nil })
	if r := w.Run(checks.NameWorkUnit, 10); r.Conclusion != "success" || !strings.Contains(r.Title, "#1") {
		t.Errorf("%s %q", r.Conclusion, r.Title)
	}
	appkit.Drained(t, w.F, a)
	// Two snapshot queries (the guess missed) and the App's login; the
	// snapshot showed no runs, so the publisher looks for none.
	if reads, writes, _ := w.Counts(); reads != 3 || writes != appkit.ChecksOnNewHead {
		t.Errorf("reads=%d writes=%d, want 3 and %d", reads, writes, appkit.ChecksOnNewHead)
	}
}
