package app_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/aepgate/aepgate/app"
	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/internal/testkit/appkit"
	"github.com/aepgate/aepgate/internal/testkit/ghfake"
)

// unmarked is the negative control of incremental thread reads: a store
// that remembers no thread's mark, so every long thread is read whole on
// every evaluation (as the App did before).
type unmarked struct{ app.Keeper }

func (unmarked) ThreadMark(context.Context, string, int) (int64, error)             { return 0, nil }
func (unmarked) SetThreadMark(context.Context, string, int, int64, time.Time) error { return nil }

// floodComments is how many comments a stranger floods the control issue
// with (GitHub's attack in the probe needed about 2,050).
const floodComments = 2500

// TestControlIssueFlood: a stranger's 2,500 comments on the control issue
// leave every pull request's gates correct (the owner's project HOLD holds,
// nothing turns "cannot be judged"), and one more comment then costs at
// most 3 reads. The negative control reads threads whole (no marks): the
// gates stay correct, but each new comment costs a read per 100 comments.
func TestControlIssueFlood(t *testing.T) {
	for _, control := range []bool{false, true} {
		name := "marks"
		if control {
			name = "negative control: no marks"
		}
		t.Run(name, func(t *testing.T) {
			var edit func(*app.Options)
			if control {
				edit = func(o *app.Options) { o.Seams.Keeper = func(k app.Keeper) app.Keeper { return unmarked{k} } }
			}
			g := appkit.NewGatesWorldOpts(t, edit)
			prs := []*ghfake.PR{g.PR, g.UnitPR("second"), g.UnitPR("third")}
			ctl := g.Repo.OpenIssue("olivia", "control", "", ghfake.WithLabels("aepgate:control"))
			ctl.Comment("olivia", "/aep hold release freeze")
			for _, pr := range prs {
				g.WaitOn(t, pr, "action_required")
			}
			// The flood arrives while the App hears nothing (as if GitHub's
			// deliveries were lost), then one more of the stranger's comments
			// is delivered: its answer reads the long thread.
			g.F.CollectWebhooks(appkit.Secret, g.GHApp)
			for i := range floodComments {
				body := fmt.Sprintf("spam %d", i)
				if i%10 == 0 {
					body = "/aep resume"
				}
				ctl.Comment("spammer", body)
			}
			g.F.SendWebhooks(g.Base+"/webhook", appkit.Secret, g.GHApp)
			first := ctl.Comment("spammer", "/aep resume")
			g.WaitReaction(t, first.ID())
			for _, pr := range prs {
				c := pr.Comment("olivia", "/aep recheck")
				g.WaitReaction(t, c.ID())
				if r := appkit.NewestRunOn(g.Repo, pr.Head(), checks.NameGates); r.Conclusion != "action_required" || !strings.Contains(r.Summary, "release freeze") {
					t.Fatalf("after the flood #%d's gates say %s:\n%s", pr.Number(), r.Conclusion, r.Summary)
				}
			}
			g.F.ResetLog()
			last := ctl.Comment("spammer", "/aep resume")
			g.WaitReaction(t, last.ID())
			g.F.Deliveries() // every delivery sent so far was answered
			st := g.F.Stats()
			reads := 0
			for route, n := range st.ByRoute {
				if strings.HasPrefix(route, "GET ") || route == "POST /graphql" {
					reads += n
				}
			}
			t.Logf("one more comment after %d: %d reads %v", floodComments, reads, st.ByRoute)
			if control {
				if reads <= 3 {
					t.Fatalf("without marks one comment still cost %d reads, so the marks are not what keeps it cheap", reads)
				}
				return
			}
			if reads > 3 {
				t.Errorf("one comment on the flooded control issue cost %d reads, want at most 3: %v", reads, st.ByRoute)
			}
		})
	}
}
