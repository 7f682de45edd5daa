package pull_test

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aepgate/aepgate/app"
	"github.com/aepgate/aepgate/app/pull"
	"github.com/aepgate/aepgate/app/route"
	"github.com/aepgate/aepgate/internal/testkit/appkit"
	"github.com/aepgate/aepgate/internal/testkit/ghfake"
)

// newBackdatedWorld is newChannelWorld's world with dave's comment
// commanding the agent, after which the agent pushes a commit it dated an
// hour before the pull request was opened: by its committed date nobody
// had yet commanded it, dave least of all.
func newBackdatedWorld(t *testing.T, edit func(*app.Options)) *appkit.AuditWorld {
	t.Helper()
	w := appkit.NewLiveOpts(t, true, edit)
	cfg := "version: 1\nowners: [olivia, dave]\ncontract_paths: [\"api/**\"]\n" + agentAccounts(0)
	w.Repo.Commit("main", "config", map[string]string{".github/aepgate.yml": cfg})
	for _, u := range []string{"olivia", "dave", "carol", "erin"} {
		w.Repo.Grant(u, "write")
	}
	ms := w.Repo.CreateMilestone("M", "")
	unit := w.Repo.OpenIssue("olivia", "Export", appkit.Contract("medium", "product"), ghfake.InMilestone(ms))
	unit.Assign("erin", appkit.AgentBot)
	w.Repo.Branch("export", "main")
	w.Repo.CommitBy(appkit.AgentBot, "export", "export", map[string]string{"export/export.go": appkit.AuditSource, "api/orders.yaml": "orders: v2\n"})
	opened := w.F.Now()
	pr := w.Repo.OpenPR(appkit.AgentBot, "export", "main", "Export", "Work-unit: #"+strconv.Itoa(unit.Number()))
	a := &appkit.AuditWorld{Live: w, Unit: unit, PR: pr}
	a.Quiet(t)
	w.F.Advance(time.Minute)
	pr.Comment("dave", "@copilot also write the CSV header")
	w.F.Advance(time.Minute)
	sig := ghfake.Signature{Name: appkit.AgentBot, Email: appkit.AgentBot + "@users.noreply.github.com", Date: opened.Add(-time.Hour)}
	w.Repo.PushAs(appkit.AgentBot, "export", "csv", sig, map[string]string{"export/csv.go": "package export\n"})
	a.Quiet(t)
	return a
}

// withoutPushRecords drops the App's records of pushes (a RecordPush
// handler that keeps nothing, registered after the App's): no push has a
// known time.
func withoutPushRecords(o *app.Options) {
	drop := app.Feature{Name: "no push records", Register: func(h *route.Handlers, _ *app.Installation) {
		route.Handle(h, func(context.Context, route.Where, pull.RecordPush) error { return nil })
	}}
	o.Seams.Features = append(app.Features(), drop)
}

// TestBackdatedPushKeepsInstructor: the agent's last push carries a
// committed date from before dave's command, but the App recorded the
// push after it: dave instructed that push (push 1: the timeline lists
// commits by their committed dates, which only numbers the pushes), his PASS does not pass the
// audit, carol's does. With the App's records of pushes dropped, no push
// has a known time and dave is still refused, as one who may have
// instructed it: an unknown time never clears an instructor. (The
// negative control, the committed date taken as the push's time, is
// TestPerPushBackdatedOnFake in app/instructed: there dave is cleared.)
func TestBackdatedPushKeepsInstructor(t *testing.T) {
	tests := []struct {
		name, why string
		edit      func(*app.Options)
	}{
		{"recorded push", ": instructed push 1 (commanded it in a comment)", nil},
		{"no record: fail closed", ": may have instructed push 1, pushed at no known time (commanded it in a comment)", withoutPushRecords},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			a := newBackdatedWorld(t, tt.edit)
			if r := a.AuditAfter(t, "dave"); r.Conclusion != "failure" || !strings.Contains(r.Summary, "dave instructed the agent "+appkit.AgentBot) ||
				!strings.Contains(r.Summary, tt.why) {
				t.Errorf("after dave's PASS: %s %s; want failure naming %q\n%s", r.Conclusion, r.Title, tt.why, r.Summary)
			}
			if r := a.AuditAfter(t, "carol"); r.Conclusion != "success" {
				t.Errorf("after carol's PASS: %s %s\n%s", r.Conclusion, r.Title, r.Summary)
			}
		})
	}
}
