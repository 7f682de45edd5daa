package pull_test

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/aepgate/aepgate/app"
	"github.com/aepgate/aepgate/app/verdict"
	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/internal/testkit/appkit"
	"github.com/aepgate/aepgate/internal/testkit/ghfake"
)

// TestToyCheckJoinsThePipeline shows what adding an App check costs: one
// entry in the list with a pure evaluation. The toy check is published on
// the head beside the real ones and gets its own ledger row.
func TestToyCheckJoinsThePipeline(t *testing.T) {
	toy := verdict.Check{Name: "aepgate/toy", Eval: func(ev *verdict.Evaluation) verdict.Outcome {
		p := ev.Snap.Pull
		return verdict.Outcome{
			Run:   checks.Run{Name: "aepgate/toy", HeadSHA: p.HeadSHA, Conclusion: checks.ConclusionNeutral, Title: "toy saw #" + strconv.Itoa(p.Number), Summary: "A toy.\n"},
			Facts: map[string]any{"toy": p.Number},
		}
	}}
	w := appkit.NewLiveOpts(t, true, func(o *app.Options) { o.Seams.Checks = append(verdict.DefaultChecks(), toy) })
	ms := w.Repo.CreateMilestone("M", "")
	u := w.Repo.OpenIssue("alice", "Unit", appkit.Contract("low", "product"), ghfake.InMilestone(ms))
	w.Repo.Branch("toy", "main")
	w.Repo.Commit("toy", "toy", map[string]string{"toy.go": "package toy\n"})
	pr := w.Repo.OpenPR("bob", "toy", "main", "Toy", "Work-unit: #"+strconv.Itoa(u.Number()))
	head := pr.Head()
	names := func() map[string]string {
		out := map[string]string{}
		for _, r := range w.Repo.CheckRuns(head) {
			out[r.Name] = r.Title
		}
		return out
	}
	appkit.WaitFor(t, 10*time.Second, "the toy check", func() bool { return names()["aepgate/toy"] != "" })
	if got := names(); got["aepgate/toy"] != "toy saw #"+strconv.Itoa(pr.Number()) || got[checks.NameWorkUnit] == "" {
		t.Fatalf("runs on the head: %v", got)
	}
	rows, err := w.App.Store().SQL.QueryContext(context.Background(), `SELECT body FROM aepgate_ledger WHERE kind = 'check_run:aepgate/toy'`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	n := 0
	for rows.Next() {
		var body string
		if err := rows.Scan(&body); err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(body), &m); err != nil {
			t.Fatal(err)
		}
		if m["toy"] != float64(pr.Number()) || m["head_sha"] != head || m["conclusion"] != "neutral" {
			t.Errorf("ledger row %v", m)
		}
		n++
	}
	if n == 0 {
		t.Error("no ledger row for the toy check")
	}
}

// TestChecksInAnyOrder: every value one check derives for another (the
// work unit's verdict, the gate log, the audit decision) comes through an
// accessor, so the checks' order in the list changes nothing they publish.
func TestChecksInAnyOrder(t *testing.T) {
	judge := func(order func([]verdict.Check) []verdict.Check) map[string]string {
		g := appkit.NewGatesWorldOpts(t, func(o *app.Options) { o.Seams.Checks = order(verdict.DefaultChecks()) })
		g.Unit.Comment("olivia", "/aep hold waiting for legal")
		g.WaitGates(t, "action_required")
		g.Quiet(t)
		out := map[string]string{}
		for _, r := range g.Repo.CheckRuns(g.PR.Head()) {
			out[r.Name] = r.Conclusion + ": " + r.Title
		}
		return out
	}
	want := judge(func(cs []verdict.Check) []verdict.Check { return cs })
	for name, order := range map[string]func([]verdict.Check) []verdict.Check{
		"reversed": func(cs []verdict.Check) []verdict.Check { slices.Reverse(cs); return cs },
		"shuffled": func(cs []verdict.Check) []verdict.Check {
			rand.New(rand.NewPCG(1, 2)).Shuffle(len(cs), func(i, j int) { cs[i], cs[j] = cs[j], cs[i] })
			return cs
		},
	} {
		if diff := cmp.Diff(want, judge(order)); diff != "" {
			t.Errorf("%s: check runs (-list order +%s):\n%s", name, name, diff)
		}
	}
}

// TestChecksDeclareTheirReads: what the App reads besides the snapshot
// follows the checks' declared Reads. With the audit in the list, carol's
// PASS costs a read of her live role and passes; with no check that reads
// audits, her role is never read; and an audit check that declares no reads
// is starved of them and cannot pass (the declaration is what feeds it).
func TestChecksDeclareTheirReads(t *testing.T) {
	run := func(cs []verdict.Check) (roleReads int, audit string) {
		a := appkit.NewAuditWorldWith(t, "medium", "version: 1\nowners: [olivia]\n", func(o *app.Options) { o.Seams.Checks = cs })
		a.PR.SubmitReview("carol", "COMMENTED", appkit.AuditBody(a.Unit.Number(), "PASS", appkit.GoodQuote))
		a.Quiet(t)
		for _, r := range a.F.Requests() {
			if strings.Contains(r.Path, "/collaborators/carol/") {
				roleReads++
			}
		}
		if r := a.Audit(); r != nil {
			audit = r.Conclusion
		}
		return roleReads, audit
	}
	without := func(names ...string) []verdict.Check {
		return slices.DeleteFunc(verdict.DefaultChecks(), func(c verdict.Check) bool { return slices.Contains(names, c.Name) })
	}
	starved := verdict.DefaultChecks()
	for i := range starved {
		starved[i].Reads = verdict.Reads{}
	}
	for _, tt := range []struct {
		name      string
		checks    []verdict.Check
		reads     bool
		wantAudit string
	}{
		{"default", verdict.DefaultChecks(), true, "success"},
		{"no check reads audits", without(checks.NameAudit, checks.NameMerge), false, ""},
		{"audit declares no reads", starved, false, "failure"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			n, audit := run(tt.checks)
			if (n > 0) != tt.reads || audit != tt.wantAudit {
				t.Errorf("carol's role read %d times, audit %q; want reads %v, audit %q", n, audit, tt.reads, tt.wantAudit)
			}
		})
	}
}
