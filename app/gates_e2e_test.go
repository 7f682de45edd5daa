package app_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-github/v62/github"

	"github.com/aepgate/aepgate/app"
	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/internal/testkit/appkit"
	"github.com/aepgate/aepgate/internal/testkit/ghfake"
)

// gatesConfig makes olivia the owner and cody a coordinator.
const gatesConfig = "version: 1\nowners: [olivia]\ncoordinators: [cody]\n"

// gatesWorld is a ghfake world whose default branch names olivia owner and
// cody coordinator, both with write access, and mallory a writer who is
// neither; plus one unit with an open pull request.
type gatesWorld struct {
	*appkit.Live
	unit *ghfake.Issue
	pr   *ghfake.PR
	gh   *github.Client
}

func newGatesWorld(t *testing.T) *gatesWorld { return newGatesWorldOpts(t, nil) }

// newGatesWorldOpts is newGatesWorld with the App's options changed by
// edit (nil: unchanged).
func newGatesWorldOpts(t *testing.T, edit func(*app.Options)) *gatesWorld {
	t.Helper()
	w := appkit.NewLiveOpts(t, true, edit)
	w.Repo.Commit("main", "config", map[string]string{".github/aepgate.yml": gatesConfig})
	w.Repo.Grant("olivia", "admin")
	w.Repo.Grant("cody", "write")
	w.Repo.Grant("mallory", "write")
	g := &gatesWorld{Live: w, gh: w.F.Client(w.Inst.Token())}
	g.unit, g.pr = g.unitAndPR("gates")
	g.waitGates(t, "success")
	return g
}

// unitAndPR opens a milestone with one product unit and a pull request
// naming it, on branch name.
func (g *gatesWorld) unitAndPR(name string) (*ghfake.Issue, *ghfake.PR) {
	ms := g.Repo.CreateMilestone("M-"+name, "")
	u := g.Repo.OpenIssue("alice", "Unit "+name, appkit.Contract("low", "product"), ghfake.InMilestone(ms))
	g.Repo.Branch(name, "main")
	g.Repo.Commit(name, "work", map[string]string{name + ".go": "package x\n"})
	return u, g.Repo.OpenPR("bob", name, "main", "Work "+name, "Work-unit: #"+strconv.Itoa(u.Number()))
}

// gates is the newest aepgate/gates run on the pull request's head.
func (g *gatesWorld) gates() *ghfake.CheckRun {
	return appkit.NewestRunOn(g.Repo, g.pr.Head(), checks.NameGates)
}

// waitGates waits until the gates check concludes want.
func (g *gatesWorld) waitGates(t *testing.T, want string) *ghfake.CheckRun {
	t.Helper()
	appkit.WaitFor(t, 10*time.Second, "aepgate/gates "+want, func() bool { r := g.gates(); return r != nil && r.Conclusion == want })
	return g.gates()
}

// reactions are the contents of the reactions on comment id, read from
// the fake's state (not its API, so polling adds nothing to its request log).
func (g *gatesWorld) reactions(t *testing.T, id int64) []string {
	t.Helper()
	c, ok := g.Repo.CommentByID(id)
	if !ok {
		t.Fatalf("no comment %d", id)
	}
	return c.Reactions
}

// waitReaction waits for a reaction on comment id, then for the App's
// queue to drain, and returns the reactions. The job that reacted writes
// the rest of its answer (a 👎's reply, the answered row) and its
// evaluation's board facts after the reaction, and deliveries sent before
// the comment may run beside it: once the queue holds nothing to run, all
// of that is done.
func (g *gatesWorld) waitReaction(t *testing.T, id int64) []string {
	t.Helper()
	appkit.WaitFor(t, 10*time.Second, "a reaction", func() bool { return len(g.reactions(t, id)) > 0 })
	g.Quiet(t)
	return g.reactions(t, id)
}

// replies are the App's comments on issue n that answer comment id.
func (g *gatesWorld) replies(t *testing.T, n int, id int64) []string {
	t.Helper()
	cs, _, err := g.gh.Issues.ListComments(context.Background(), "acme", "widgets", n, &github.IssueListCommentsOptions{ListOptions: github.ListOptions{PerPage: 100}})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, c := range cs {
		if strings.HasPrefix(c.GetBody(), "<!-- aepgate:reply:"+strconv.FormatInt(id, 10)+" -->") {
			out = append(out, c.GetBody())
		}
	}
	return out
}

func TestGatesHoldResumeOnTheUnit(t *testing.T) {
	g := newGatesWorld(t)
	hold := g.unit.Comment("olivia", "Legal has not signed off.\n\n/aep hold waiting for legal")
	r := g.waitGates(t, "action_required")
	if !strings.Contains(r.Summary, "waiting for legal") || !strings.Contains(r.Summary, "/aep resume") {
		t.Errorf("blocked summary:\n%s", r.Summary)
	}
	if got := g.waitReaction(t, hold.ID()); len(got) != 1 || got[0] != "+1" {
		t.Errorf("reactions on the HOLD = %v, want [+1]", got)
	}
	g.unit.Comment("olivia", "/aep resume")
	g.waitGates(t, "success")
	g.unit.Comment("olivia", "/aep hold again")
	r = g.waitGates(t, "action_required")
	first, second := "`unit-hold-"+strconv.Itoa(g.unit.Number())+"`", "`unit-hold-"+strconv.Itoa(g.unit.Number())+"-"
	if !strings.Contains(r.Summary, first) || !strings.Contains(r.Summary, second) {
		t.Errorf("a re-HOLD must mint a new gate beside the resumed one:\n%s", r.Summary)
	}
}

func TestGatesProjectHoldBlocksEveryPullRequest(t *testing.T) {
	g := newGatesWorld(t)
	other := g.UnitPR("other")
	ctl := g.Repo.OpenIssue("olivia", "control", "", ghfake.WithLabels("aepgate:control"))
	ctl.Comment("olivia", "/aep hold release freeze")
	g.waitGates(t, "action_required")
	appkit.WaitFor(t, 10*time.Second, "the other pull request blocked", func() bool {
		return appkit.ConclusionOf(g.Repo, other.Head(), checks.NameGates) == "action_required"
	})
	// Closing the control issue (anyone with triage can) lifts nothing.
	ctl.Close("mallory")
	g.settle(t)
	if r := g.gates(); r.Conclusion != "action_required" {
		t.Fatal("closing the control issue lifted the project HOLD")
	}
	ctl.Comment("olivia", "/aep resume")
	g.waitGates(t, "success")
}

func TestGatesCoordinatorGateNeedsTheOwner(t *testing.T) {
	g := newGatesWorld(t)
	block := "Before merging:\n\n```aep-gate\nid: schema-change\nquestion: Drop the legacy column?\nchoices: [approve, reject]\ncategory: irreversible-destructive\neffect: irreversible-data-change\nscope: merge\n```\n"
	opened := g.pr.Comment("cody", block)
	r := g.waitGates(t, "action_required")
	if !strings.Contains(r.Summary, "Drop the legacy column?") || !strings.Contains(r.Summary, "/aep resolve schema-change approve") {
		t.Errorf("summary:\n%s", r.Summary)
	}
	if got := g.waitReaction(t, opened.ID()); len(got) != 1 || got[0] != "+1" {
		t.Errorf("reactions on the gate = %v", got)
	}
	// The coordinator cannot answer it, nor can a choice not offered.
	self := g.pr.Comment("cody", "/aep resolve schema-change approve")
	if got := g.waitReaction(t, self.ID()); len(got) != 1 || got[0] != "-1" {
		t.Errorf("coordinator's resolve reactions = %v, want [-1]", got)
	}
	odd := g.pr.Comment("olivia", "/aep resolve schema-change maybe")
	if got := g.waitReaction(t, odd.ID()); len(got) != 1 || got[0] != "-1" {
		t.Errorf("unlisted choice reactions = %v, want [-1]", got)
	}
	if g.gates().Conclusion != "action_required" {
		t.Fatal("a refused answer unblocked the merge")
	}
	// The owner was asked to review the blocked pull request.
	reviewers, _, err := g.gh.PullRequests.ListReviewers(context.Background(), "acme", "widgets", g.pr.Number(), nil)
	if err != nil || len(reviewers.Users) != 1 || reviewers.Users[0].GetLogin() != "olivia" {
		t.Errorf("requested reviewers = %+v, %v; want olivia", reviewers, err)
	}
	g.pr.Comment("olivia", "/aep resolve schema-change approve")
	g.waitGates(t, "success")
	// A redelivered comment is answered once: still one reply.
	g.redeliverComment(t, self.ID())
	appkit.WaitFor(t, 10*time.Second, "the redelivery judged", func() bool { return g.commandRows(t, self.ID()) >= 2 })
	if n := len(g.replies(t, g.pr.Number(), self.ID())); n != 1 {
		t.Errorf("%d replies to the refused resolve, want 1", n)
	}
	// Every accepted and refused request is a ledger row (written as its
	// answer is, after the check runs).
	var accepted, refused int
	var err2 error
	ok := appkit.WaitUntil(10*time.Second, func() bool {
		row := g.App.Store().SQL.QueryRowContext(context.Background(), `SELECT
			(SELECT COUNT(*) FROM aepgate_ledger WHERE kind = 'command:accepted'),
			(SELECT COUNT(*) FROM aepgate_ledger WHERE kind = 'command:refused')`)
		err2 = row.Scan(&accepted, &refused)
		return err2 == nil && accepted >= 2 && refused >= 2
	})
	if !ok {
		t.Errorf("ledger: %d accepted and %d refused command rows (%v), want at least 2 each", accepted, refused, err2)
	}
}

// redeliverComment sends the issue_comment.created delivery of comment id
// again under a new delivery ID, as GitHub's "Redeliver" with a new GUID.
func (g *gatesWorld) redeliverComment(t *testing.T, id int64) {
	t.Helper()
	for _, d := range g.F.Deliveries() {
		var p struct {
			Comment struct{ ID int64 } `json:"comment"`
		}
		if d.Event == "issue_comment" && d.Action == "created" && json.Unmarshal(d.Payload, &p) == nil && p.Comment.ID == id {
			// A byte-for-byte copy under a new ID is a replay the edge
			// answers 200 without queueing; a copy with a field no job
			// reads gets past the edge and tests the command-once rule.
			if got := appkit.Deliver(t, g.Base, "issue_comment", fmt.Sprintf("again-%d", id), appkit.CopyPayload(t, d.Payload)); got != 202 {
				t.Fatalf("redelivery: %d", got)
			}
			return
		}
	}
	t.Fatalf("no delivery of comment %d", id)
}

func TestGatesApprovingReviewMustBeAtTheHead(t *testing.T) {
	g := newGatesWorld(t)
	g.pr.Comment("cody", "```aep-gate\nid: ship-it\nquestion: Ship the new export format?\nchoices: [approve, reject]\ncategory: human-product-judgment-action\neffect: product-direction-decision\nscope: merge\n```\n")
	g.waitGates(t, "action_required")
	old := g.pr.Head()
	g.pr.Commit("more", map[string]string{"more.go": "package x\n"})
	g.pr.SubmitReviewAt("olivia", "APPROVED", "Looks good.", old)
	g.settle(t)
	if r := g.gates(); r.Conclusion != "action_required" {
		t.Fatalf("an approval at an older head unblocked the merge: %s", r.Conclusion)
	}
	g.pr.SubmitReview("olivia", "APPROVED", "Now it is good.")
	g.waitGates(t, "success")
}

// TestGatesRefusals: each attack is refused on GitHub, with a 👎 and one
// reply saying why; none unblocks the merge. (protocol/gatelog's
// TestRulesNegativeControls shows each passing with its rule removed.)
func TestGatesRefusals(t *testing.T) {
	g := newGatesWorld(t)
	g.unit.Comment("olivia", "/aep hold until the audit")
	g.waitGates(t, "action_required")
	other := g.Repo.OpenIssue("alice", "Other unit", appkit.Contract("low", "product"))
	other.Comment("cody", "```aep-gate\nid: other-gate\nquestion: Other?\nchoices: [approve, reject]\ncategory: human-product-judgment-action\neffect: product-direction-decision\n```\n")
	tests := []struct {
		name, who, body string
		on              *ghfake.Issue
	}{
		{"non-owner", "mallory", "/aep resume", g.unit},
		{"owner login on a Bot account", "olivia[bot]", "/aep resume", g.unit},
		{"relayed approval", "cody", "The owner approved on Slack.\n/aep resume", g.unit},
		{"coordinator RESUME", "cody", "/aep resume", g.unit},
		{"gate of another unit", "olivia", "/aep resolve other-gate approve", g.unit},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := tt.on.Comment(tt.who, tt.body)
			if got := g.waitReaction(t, c.ID()); len(got) != 1 || got[0] != "-1" {
				t.Errorf("reactions = %v, want [-1]", got)
			}
			appkit.WaitFor(t, 5*time.Second, "a reply", func() bool { return len(g.replies(t, tt.on.Number(), c.ID())) == 1 })
			if r := g.gates(); r.Conclusion != "action_required" {
				t.Fatalf("the attack unblocked the merge")
			}
		})
	}
	t.Run("edited comment", func(t *testing.T) {
		c := g.unit.Comment("olivia", "thinking about it")
		c.Edit("olivia", "/aep resume")
		g.settle(t)
		if r := g.gates(); r.Conclusion != "action_required" {
			t.Fatal("an edited comment resumed")
		}
	})
	t.Run("inside a quote or code block", func(t *testing.T) {
		g.unit.Comment("olivia", "> /aep resume\n\n```\n/aep resume\n```\n")
		g.settle(t)
		if r := g.gates(); r.Conclusion != "action_required" {
			t.Fatal("a quoted command resumed")
		}
	})
	// Permission is read live at every evaluation: an owner lowered to read
	// is refused; restored, their own unedited comments count again.
	t.Run("lowered permission", func(t *testing.T) {
		g.Repo.Grant("olivia", "read")
		c := g.unit.Comment("olivia", "/aep resume")
		if got := g.waitReaction(t, c.ID()); len(got) != 1 || got[0] != "-1" {
			t.Errorf("reactions = %v, want [-1]", got)
		}
		if r := g.gates(); r.Conclusion != "action_required" {
			t.Fatal("an owner with read permission resumed")
		}
	})
	g.Repo.Grant("olivia", "admin")
	g.unit.Comment("olivia", "/aep resume")
	g.waitGates(t, "success")
}

func TestGatesStatusCommentIsKeptNotRepeated(t *testing.T) {
	g := newGatesWorld(t)
	g.pr.Comment("olivia", "/aep status")
	status := func() []*github.IssueComment {
		cs, _, err := g.gh.Issues.ListComments(context.Background(), "acme", "widgets", g.pr.Number(), nil)
		if err != nil {
			t.Fatal(err)
		}
		var out []*github.IssueComment
		for _, c := range cs {
			if strings.HasPrefix(c.GetBody(), "<!-- aepgate:status -->") {
				out = append(out, c)
			}
		}
		return out
	}
	appkit.WaitFor(t, 10*time.Second, "the status comment", func() bool { return len(status()) == 1 })
	if !strings.Contains(status()[0].GetBody(), "Nothing blocks") {
		t.Errorf("status:\n%s", status()[0].GetBody())
	}
	g.unit.Comment("olivia", "/aep hold pause")
	g.waitGates(t, "action_required")
	appkit.WaitFor(t, 10*time.Second, "the status comment to follow", func() bool {
		s := status()
		return len(s) == 1 && strings.Contains(s[0].GetBody(), "pause")
	})
	again := g.pr.Comment("olivia", "/aep status")
	g.waitReaction(t, again.ID()) // its evaluation holds the pull request's lock…
	g.settle(t)                   // …so this one ends after it
	if n := len(status()); n != 1 {
		t.Errorf("%d status comments, want 1", n)
	}
}

func TestGatesContractChangeNeedsApproval(t *testing.T) {
	g := newGatesWorld(t)
	head := g.pr.Commit("tighten the policy", map[string]string{".github/aepgate.yml": gatesConfig + "command_prefix: /aep\n"})
	r := g.waitGates(t, "action_required")
	if !strings.Contains(r.Summary, "contract-pr"+strconv.Itoa(g.pr.Number())+"-"+head[:12]) {
		t.Errorf("summary:\n%s", r.Summary)
	}
	g.pr.SubmitReview("olivia", "APPROVED", "")
	g.waitGates(t, "success")
	// A later push to a contract path reopens it for the new head.
	g.pr.Commit("again", map[string]string{".github/aepgate.yml": gatesConfig + "command_prefix: /aep\n# reviewed\n"})
	g.waitGates(t, "action_required")
}

// TestGatesWorkflowChangeNeedsApproval: a workflow is a contract path
// whatever the config says; changing one waits for an owner's approval.
func TestGatesWorkflowChangeNeedsApproval(t *testing.T) {
	g := newGatesWorld(t)
	head := g.pr.Commit("skip the tests", map[string]string{".github/workflows/ci.yml": "on: push\njobs: {}\n"})
	r := g.waitGates(t, "action_required")
	if !strings.Contains(r.Summary, "contract-pr"+strconv.Itoa(g.pr.Number())+"-"+head[:12]) || !strings.Contains(r.Summary, ".github/workflows/ci.yml") {
		t.Errorf("summary:\n%s", r.Summary)
	}
	g.pr.SubmitReview("olivia", "APPROVED", "")
	g.waitGates(t, "success")
}

// TestGatesHoldOnOneAttemptBlocksTheUnitsOthers: a HOLD made on one pull
// request of a unit blocks its other pull requests too (the App finds them
// through GitHub's cross-references on the unit's issue), and a RESUME on
// the second lifts it for both.
func TestGatesHoldOnOneAttemptBlocksTheUnitsOthers(t *testing.T) {
	g := newGatesWorld(t)
	g.Repo.Branch("second", "main")
	g.Repo.Commit("second", "another try", map[string]string{"second.go": "package x\n"})
	second := g.Repo.OpenPR("bob", "second", "main", "Second try", "Work-unit: #"+strconv.Itoa(g.unit.Number()))
	secondGates := func() string { return appkit.ConclusionOf(g.Repo, second.Head(), checks.NameGates) }
	appkit.WaitFor(t, 10*time.Second, "the second attempt judged", func() bool { return secondGates() == "success" })
	g.pr.Comment("olivia", "/aep hold rethink the approach")
	g.waitGates(t, "action_required")
	appkit.WaitFor(t, 10*time.Second, "the second attempt held", func() bool { return secondGates() == "action_required" })
	second.Comment("olivia", "/aep resume")
	appkit.WaitFor(t, 10*time.Second, "the second attempt resumed", func() bool { return secondGates() == "success" })
	g.waitGates(t, "success")
}

// TestGatesAPICallsPerEvaluation: judging a pull request's gates after an
// owner's comment costs two reads (the snapshot query and the owner's live
// permission) and writes only what changed: here the 👍 on the comment.
func TestGatesAPICallsPerEvaluation(t *testing.T) {
	g := newGatesWorld(t)
	hold := g.pr.Comment("olivia", "/aep hold wait")
	g.waitGates(t, "action_required")
	// The HOLD's evaluation ends with its answer and the review request.
	g.waitReaction(t, hold.ID())
	appkit.WaitFor(t, 10*time.Second, "the review request", func() bool {
		rs, _, err := g.gh.PullRequests.ListReviewers(context.Background(), "acme", "widgets", g.pr.Number(), nil)
		return err == nil && len(rs.Users) == 1
	})
	g.Quiet(t)
	g.F.ResetLog()
	c := g.pr.Comment("olivia", "/aep recheck")
	g.waitReaction(t, c.ID()) // and its job's other reads and writes
	st := g.F.Stats()
	delete(st.ByRoute, "GET /repos/{owner}/{repo}/issues/comments/{comment_id}/reactions") // the test's own reads
	want := map[string]int{
		"POST /graphql": 1,
		"GET /repos/{owner}/{repo}/collaborators/{username}/permission":     1,
		"POST /repos/{owner}/{repo}/issues/comments/{comment_id}/reactions": 1,
	}
	if diff := cmp.Diff(want, st.ByRoute); diff != "" {
		t.Errorf("API calls of one evaluation (-want +got):\n%s", diff)
	}
}

// TestGatesSweepAnswersMissedComments: an owner's command whose webhook was
// lost is answered by the reconcile sweep, once; a second sweep writes
// nothing.
func TestGatesSweepAnswersMissedComments(t *testing.T) {
	w := appkit.NewLiveWith(t, false) // webhooks recorded, never sent
	w.Repo.Commit("main", "config", map[string]string{".github/aepgate.yml": gatesConfig})
	w.Repo.Grant("olivia", "admin")
	g := &gatesWorld{Live: w, gh: w.F.Client(w.Inst.Token())}
	g.unit, g.pr = g.unitAndPR("missed")
	c := g.pr.Comment("olivia", "/aep hold lost webhook")
	if err := w.App.Sweep(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := g.reactions(t, c.ID()); len(got) != 1 || got[0] != "+1" {
		t.Errorf("reactions after the sweep = %v, want [+1]", got)
	}
	if r := g.gates(); r == nil || r.Conclusion != "action_required" {
		t.Errorf("gates after the sweep: %+v", r)
	}
	// The sweep also asked for a board update, which opens the board issue
	// and pins it last: its writes are the first sweep's.
	appkit.WaitFor(t, 10*time.Second, "the board issue, pinned", func() bool {
		is := w.Repo.IssuesLabelled(checks.BoardLabel)
		return len(is) == 1 && is[0].Pinned
	})
	w.F.ResetLog()
	if err := w.App.Sweep(context.Background()); err != nil {
		t.Fatal(err)
	}
	if _, writes := appkit.APICalls(w.F.Stats()); writes != 0 {
		t.Errorf("a second sweep wrote %d times: %v", writes, w.F.Stats().ByRoute)
	}
}

// settle makes sure an evaluation has read everything posted so far (the
// owner's /aep recheck is answered only after an evaluation that read the
// whole conversation as GitHub holds it now) and that every job queued
// before it has run (waitReaction), so nothing still changes what the
// test reads next.
func (g *gatesWorld) settle(t *testing.T) {
	t.Helper()
	c := g.pr.Comment("olivia", "/aep recheck")
	g.waitReaction(t, c.ID())
}

// commandRows counts the ledger's command rows about comment id (one per
// request each time it is judged on its own delivery).
func (g *gatesWorld) commandRows(t *testing.T, id int64) int {
	t.Helper()
	var n int
	err := g.App.Store().SQL.QueryRowContext(context.Background(),
		`SELECT COUNT(*) FROM aepgate_ledger WHERE kind LIKE 'command:%' AND subject LIKE '%/' || ? || ':%'`, strconv.FormatInt(id, 10)).Scan(&n)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestAdvisoryModeBlocksNothing: under `mode: advisory` an owner's HOLD
// leaves aepgate/gates and aepgate/merge neutral, each saying in its title
// what it would have concluded. The negative control is the same HOLD
// under `mode: enforce`, which blocks.
func TestAdvisoryModeBlocksNothing(t *testing.T) {
	for _, tt := range []struct{ mode, gates, merge string }{
		{"advisory", "neutral", "neutral"},
		{"enforce", "action_required", "failure"},
	} {
		t.Run(tt.mode, func(t *testing.T) {
			g := newGatesWorld(t)
			g.Repo.Commit("main", "mode", map[string]string{".github/aepgate.yml": gatesConfig + "mode: " + tt.mode + "\n"})
			g.pr.Comment("olivia", "/aep hold waiting for legal")
			g.waitGates(t, tt.gates)
			g.Quiet(t)
			merge := appkit.NewestRunOn(g.Repo, g.pr.Head(), checks.NameMerge)
			if merge == nil || merge.Conclusion != tt.merge {
				t.Fatalf("aepgate/merge = %+v, want %s", merge, tt.merge)
			}
			advised := strings.HasPrefix(g.gates().Title, "Advisory (would be action_required)")
			if advised != (tt.mode == "advisory") {
				t.Errorf("aepgate/gates title %q under mode %s", g.gates().Title, tt.mode)
			}
		})
	}
}
