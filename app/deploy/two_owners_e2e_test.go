package deploy_test

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aepgate/aepgate/internal/testkit/appkit"
	"github.com/aepgate/aepgate/internal/testkit/ghfake"
	"github.com/aepgate/aepgate/protocol/approval"
	"github.com/aepgate/aepgate/protocol/deployrules"
)

// twoOwnersYAML asks two owners for the production deploy gate, whose
// category is human-product-judgment-action (deployrules.Gate).
const twoOwnersYAML = "version: 1\nowners: [olivia, oscar]\ngates:\n  human-product-judgment-action: {approvals: 2}\n" +
	"deploy:\n  environments:\n    production:\n      require: none\n      owner_gate: true\n"

// TestDeployTwoOwners: a deploy gate whose category needs two owners
// keeps the deployment waiting when one owner approves twice (the second
// answer refused with a reply) and approves it when a second owner does.
// Negative control: counting repeats (Seams.Approvals), one owner's two
// answers approve the deployment.
func TestDeployTwoOwners(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name     string
		distinct approval.Rules
	}{
		{"the same owner twice is refused", approval.Rules{}},
		{"negative control: repeats counted", approval.Rules{CountRepeats: true}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			w := newDeployWorld(t, twoOwnersYAML, nil)
			w.Stop()
			w.Opts.Seams.Approvals = tt.distinct
			w.Repo.Grant("oscar", "admin")
			w.Start(t)
			ctl := w.ControlIssue()
			run := w.Deploy(w.Repo.Head("main"))
			appkit.WaitFor(t, 10*time.Second, "the gate's question", func() bool { return appkit.AppComments(ctl, run) == 1 })
			id := deployrules.GateID("production", run.ID())
			first := ctl.Comment("olivia", "/aep resolve "+id+" approve")
			if got := reactions(t, w, first.ID()); len(got) != 1 || got[0] != "+1" {
				t.Errorf("reactions on the first approval = %v, want [+1] (it counts)", got)
			}
			if n := len(run.DeploymentReviews()); n != 0 {
				t.Fatalf("one owner's approval answered the deployment: %+v", run.DeploymentReviews())
			}
			again := ctl.Comment("olivia", "/aep resolve "+id+" approve")
			got := reactions(t, w, again.ID())
			if tt.distinct.CountRepeats {
				if a := appkit.Answered(t, run); a.State != deployrules.Approved {
					t.Errorf("negative control: answer %+v, want approved by one owner twice", a)
				}
				return
			}
			if len(got) != 1 || got[0] != "-1" {
				t.Errorf("reactions on the same owner's second approval = %v, want [-1]", got)
			}
			if r := reply(ctl, again.ID()); !strings.Contains(r, "olivia already counted") {
				t.Errorf("reply to the second approval = %q, want it to say olivia already counted", r)
			}
			w.Settle(t)
			if n := len(run.DeploymentReviews()); n != 0 {
				t.Fatalf("one owner approving twice answered the deployment: %+v", run.DeploymentReviews())
			}
			ctl.Comment("oscar", "/aep resolve "+id+" approve")
			if a := appkit.Answered(t, run); a.State != deployrules.Approved || !strings.Contains(a.Comment, id) {
				t.Fatalf("answer %+v, want approved once two owners approved", a)
			}
		})
	}
}

// reactions waits for a reaction on control-issue comment id and returns
// them once the App is idle.
func reactions(t *testing.T, w *appkit.DeployWorld, id int64) []string {
	t.Helper()
	look := func() []string {
		c, ok := w.Repo.CommentByID(id)
		if !ok {
			t.Fatalf("no comment %d", id)
		}
		return c.Reactions
	}
	appkit.WaitFor(t, 10*time.Second, "a reaction", func() bool { return len(look()) > 0 })
	w.Settle(t)
	return look()
}

// reply is the App's reply on issue to comment id, or "".
func reply(issue *ghfake.Issue, id int64) string {
	for _, c := range issue.Comments() {
		if strings.HasPrefix(c.Body, "<!-- aepgate:reply:"+strconv.FormatInt(id, 10)+" -->") {
			return c.Body
		}
	}
	return ""
}
