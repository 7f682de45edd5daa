package gates_test

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-github/v62/github"

	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/internal/testkit/appkit"
	"github.com/aepgate/aepgate/internal/testkit/ghfake"
)

func TestGatesHoldResumeOnTheUnit(t *testing.T) {
	g := appkit.NewGatesWorld(t)
	hold := g.Unit.Comment("olivia", "Legal has not signed off.\n\n/aep hold waiting for legal")
	r := g.WaitGates(t, "action_required")
	if !strings.Contains(r.Summary, "waiting for legal") || !strings.Contains(r.Summary, "/aep resume") {
		t.Errorf("blocked summary:\n%s", r.Summary)
	}
	if got := g.WaitReaction(t, hold.ID()); len(got) != 1 || got[0] != "+1" {
		t.Errorf("reactions on the HOLD = %v, want [+1]", got)
	}
	g.Unit.Comment("olivia", "/aep resume")
	g.WaitGates(t, "success")
	g.Unit.Comment("olivia", "/aep hold again")
	r = g.WaitGates(t, "action_required")
	first, second := "`unit-hold-"+strconv.Itoa(g.Unit.Number())+"`", "`unit-hold-"+strconv.Itoa(g.Unit.Number())+"-"
	if !strings.Contains(r.Summary, first) || !strings.Contains(r.Summary, second) {
		t.Errorf("a re-HOLD must mint a new gate beside the resumed one:\n%s", r.Summary)
	}
}

func TestGatesProjectHoldBlocksEveryPullRequest(t *testing.T) {
	g := appkit.NewGatesWorld(t)
	other := g.UnitPR("other")
	ctl := g.Repo.OpenIssue("olivia", "control", "", ghfake.WithLabels("aepgate:control"))
	ctl.Comment("olivia", "/aep hold release freeze")
	g.WaitGates(t, "action_required")
	appkit.WaitFor(t, 10*time.Second, "the other pull request blocked", func() bool {
		return appkit.ConclusionOf(g.Repo, other.Head(), checks.NameGates) == "action_required"
	})
	// Closing the control issue (anyone with triage can) lifts nothing.
	ctl.Close("mallory")
	g.Settle(t)
	if r := g.Gates(); r.Conclusion != "action_required" {
		t.Fatal("closing the control issue lifted the project HOLD")
	}
	ctl.Comment("olivia", "/aep resume")
	g.WaitGates(t, "success")
}

func TestGatesCoordinatorGateNeedsTheOwner(t *testing.T) {
	g := appkit.NewGatesWorld(t)
	block := "Before merging:\n\n```aep-gate\nid: schema-change\nquestion: Drop the legacy column?\nchoices: [approve, reject]\ncategory: irreversible-destructive\neffect: irreversible-data-change\nscope: merge\n```\n"
	opened := g.PR.Comment("cody", block)
	r := g.WaitGates(t, "action_required")
	if !strings.Contains(r.Summary, "Drop the legacy column?") || !strings.Contains(r.Summary, "/aep resolve schema-change approve") {
		t.Errorf("summary:\n%s", r.Summary)
	}
	if got := g.WaitReaction(t, opened.ID()); len(got) != 1 || got[0] != "+1" {
		t.Errorf("reactions on the gate = %v", got)
	}
	// The coordinator cannot answer it, nor can a choice not offered.
	self := g.PR.Comment("cody", "/aep resolve schema-change approve")
	if got := g.WaitReaction(t, self.ID()); len(got) != 1 || got[0] != "-1" {
		t.Errorf("coordinator's resolve reactions = %v, want [-1]", got)
	}
	odd := g.PR.Comment("olivia", "/aep resolve schema-change maybe")
	if got := g.WaitReaction(t, odd.ID()); len(got) != 1 || got[0] != "-1" {
		t.Errorf("unlisted choice reactions = %v, want [-1]", got)
	}
	if g.Gates().Conclusion != "action_required" {
		t.Fatal("a refused answer unblocked the merge")
	}
	// The owner was asked to review the blocked pull request.
	reviewers, _, err := g.GH.PullRequests.ListReviewers(context.Background(), "acme", "widgets", g.PR.Number(), nil)
	if err != nil || len(reviewers.Users) != 1 || reviewers.Users[0].GetLogin() != "olivia" {
		t.Errorf("requested reviewers = %+v, %v; want olivia", reviewers, err)
	}
	g.PR.Comment("olivia", "/aep resolve schema-change approve")
	g.WaitGates(t, "success")
	// A redelivered comment is answered once: still one reply.
	g.RedeliverComment(t, self.ID())
	appkit.WaitFor(t, 10*time.Second, "the redelivery judged", func() bool { return g.CommandRows(t, self.ID()) >= 2 })
	if n := len(g.Replies(t, g.PR.Number(), self.ID())); n != 1 {
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

func TestGatesApprovingReviewMustBeAtTheHead(t *testing.T) {
	g := appkit.NewGatesWorld(t)
	g.PR.Comment("cody", "```aep-gate\nid: ship-it\nquestion: Ship the new export format?\nchoices: [approve, reject]\ncategory: human-product-judgment-action\neffect: product-direction-decision\nscope: merge\n```\n")
	g.WaitGates(t, "action_required")
	old := g.PR.Head()
	g.PR.Commit("more", map[string]string{"more.go": "package x\n"})
	g.PR.SubmitReviewAt("olivia", "APPROVED", "Looks good.", old)
	g.Settle(t)
	if r := g.Gates(); r.Conclusion != "action_required" {
		t.Fatalf("an approval at an older head unblocked the merge: %s", r.Conclusion)
	}
	g.PR.SubmitReview("olivia", "APPROVED", "Now it is good.")
	g.WaitGates(t, "success")
}

// TestGatesRefusals: each attack is refused on GitHub, with a 👎 and one
// reply saying why; none unblocks the merge. (protocol/gatelog's
// TestRulesNegativeControls shows each passing with its rule removed.)
func TestGatesRefusals(t *testing.T) {
	g := appkit.NewGatesWorld(t)
	g.Unit.Comment("olivia", "/aep hold until the audit")
	g.WaitGates(t, "action_required")
	other := g.Repo.OpenIssue("alice", "Other unit", appkit.Contract("low", "product"))
	other.Comment("cody", "```aep-gate\nid: other-gate\nquestion: Other?\nchoices: [approve, reject]\ncategory: human-product-judgment-action\neffect: product-direction-decision\n```\n")
	tests := []struct {
		name, who, body string
		on              *ghfake.Issue
	}{
		{"non-owner", "mallory", "/aep resume", g.Unit},
		{"owner login on a Bot account", "olivia[bot]", "/aep resume", g.Unit},
		{"relayed approval", "cody", "The owner approved on Slack.\n/aep resume", g.Unit},
		{"coordinator RESUME", "cody", "/aep resume", g.Unit},
		{"gate of another unit", "olivia", "/aep resolve other-gate approve", g.Unit},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := tt.on.Comment(tt.who, tt.body)
			if got := g.WaitReaction(t, c.ID()); len(got) != 1 || got[0] != "-1" {
				t.Errorf("reactions = %v, want [-1]", got)
			}
			appkit.WaitFor(t, 5*time.Second, "a reply", func() bool { return len(g.Replies(t, tt.on.Number(), c.ID())) == 1 })
			if r := g.Gates(); r.Conclusion != "action_required" {
				t.Fatalf("the attack unblocked the merge")
			}
		})
	}
	t.Run("edited comment", func(t *testing.T) {
		c := g.Unit.Comment("olivia", "thinking about it")
		c.Edit("olivia", "/aep resume")
		g.Settle(t)
		if r := g.Gates(); r.Conclusion != "action_required" {
			t.Fatal("an edited comment resumed")
		}
	})
	t.Run("inside a quote or code block", func(t *testing.T) {
		g.Unit.Comment("olivia", "> /aep resume\n\n```\n/aep resume\n```\n")
		g.Settle(t)
		if r := g.Gates(); r.Conclusion != "action_required" {
			t.Fatal("a quoted command resumed")
		}
	})
	// Permission is read live at every evaluation: an owner lowered to read
	// is refused; restored, their own unedited comments count again.
	t.Run("lowered permission", func(t *testing.T) {
		g.Repo.Grant("olivia", "read")
		c := g.Unit.Comment("olivia", "/aep resume")
		if got := g.WaitReaction(t, c.ID()); len(got) != 1 || got[0] != "-1" {
			t.Errorf("reactions = %v, want [-1]", got)
		}
		if r := g.Gates(); r.Conclusion != "action_required" {
			t.Fatal("an owner with read permission resumed")
		}
	})
	g.Repo.Grant("olivia", "admin")
	g.Unit.Comment("olivia", "/aep resume")
	g.WaitGates(t, "success")
}

func TestGatesStatusCommentIsKeptNotRepeated(t *testing.T) {
	g := appkit.NewGatesWorld(t)
	g.PR.Comment("olivia", "/aep status")
	status := func() []*github.IssueComment {
		cs, _, err := g.GH.Issues.ListComments(context.Background(), "acme", "widgets", g.PR.Number(), nil)
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
	g.Unit.Comment("olivia", "/aep hold pause")
	g.WaitGates(t, "action_required")
	appkit.WaitFor(t, 10*time.Second, "the status comment to follow", func() bool {
		s := status()
		return len(s) == 1 && strings.Contains(s[0].GetBody(), "pause")
	})
	again := g.PR.Comment("olivia", "/aep status")
	g.WaitReaction(t, again.ID()) // its evaluation holds the pull request's lock…
	g.Settle(t)                   // …so this one ends after it
	if n := len(status()); n != 1 {
		t.Errorf("%d status comments, want 1", n)
	}
}

func TestGatesContractChangeNeedsApproval(t *testing.T) {
	g := appkit.NewGatesWorld(t)
	head := g.PR.Commit("tighten the policy", map[string]string{".github/aepgate.yml": appkit.GatesConfig + "command_prefix: /aep\n"})
	r := g.WaitGates(t, "action_required")
	if !strings.Contains(r.Summary, "contract-pr"+strconv.Itoa(g.PR.Number())+"-"+head[:12]) {
		t.Errorf("summary:\n%s", r.Summary)
	}
	g.PR.SubmitReview("olivia", "APPROVED", "")
	g.WaitGates(t, "success")
	// A later push to a contract path reopens it for the new head.
	g.PR.Commit("again", map[string]string{".github/aepgate.yml": appkit.GatesConfig + "command_prefix: /aep\n# reviewed\n"})
	g.WaitGates(t, "action_required")
}

// TestGatesWorkflowChangeNeedsApproval: a workflow is a contract path
// whatever the config says; changing one waits for an owner's approval.
func TestGatesWorkflowChangeNeedsApproval(t *testing.T) {
	g := appkit.NewGatesWorld(t)
	head := g.PR.Commit("skip the tests", map[string]string{".github/workflows/ci.yml": "on: push\njobs: {}\n"})
	r := g.WaitGates(t, "action_required")
	if !strings.Contains(r.Summary, "contract-pr"+strconv.Itoa(g.PR.Number())+"-"+head[:12]) || !strings.Contains(r.Summary, ".github/workflows/ci.yml") {
		t.Errorf("summary:\n%s", r.Summary)
	}
	g.PR.SubmitReview("olivia", "APPROVED", "")
	g.WaitGates(t, "success")
}

// TestGatesHoldOnOneAttemptBlocksTheUnitsOthers: a HOLD made on one pull
// request of a unit blocks its other pull requests too (the App finds them
// through GitHub's cross-references on the unit's issue), and a RESUME on
// the second lifts it for both.
func TestGatesHoldOnOneAttemptBlocksTheUnitsOthers(t *testing.T) {
	g := appkit.NewGatesWorld(t)
	g.Repo.Branch("second", "main")
	g.Repo.Commit("second", "another try", map[string]string{"second.go": "package x\n"})
	second := g.Repo.OpenPR("bob", "second", "main", "Second try", "Work-unit: #"+strconv.Itoa(g.Unit.Number()))
	secondGates := func() string { return appkit.ConclusionOf(g.Repo, second.Head(), checks.NameGates) }
	appkit.WaitFor(t, 10*time.Second, "the second attempt judged", func() bool { return secondGates() == "success" })
	g.PR.Comment("olivia", "/aep hold rethink the approach")
	g.WaitGates(t, "action_required")
	appkit.WaitFor(t, 10*time.Second, "the second attempt held", func() bool { return secondGates() == "action_required" })
	second.Comment("olivia", "/aep resume")
	appkit.WaitFor(t, 10*time.Second, "the second attempt resumed", func() bool { return secondGates() == "success" })
	g.WaitGates(t, "success")
}

// TestGatesAPICallsPerEvaluation: judging a pull request's gates after an
// owner's comment costs two reads (the snapshot query and the owner's live
// permission) and writes only what changed: here the 👍 on the comment.
func TestGatesAPICallsPerEvaluation(t *testing.T) {
	g := appkit.NewGatesWorld(t)
	hold := g.PR.Comment("olivia", "/aep hold wait")
	g.WaitGates(t, "action_required")
	// The HOLD's evaluation ends with its answer and the review request.
	g.WaitReaction(t, hold.ID())
	appkit.WaitFor(t, 10*time.Second, "the review request", func() bool {
		rs, _, err := g.GH.PullRequests.ListReviewers(context.Background(), "acme", "widgets", g.PR.Number(), nil)
		return err == nil && len(rs.Users) == 1
	})
	g.Quiet(t)
	g.F.ResetLog()
	c := g.PR.Comment("olivia", "/aep recheck")
	g.WaitReaction(t, c.ID()) // and its job's other reads and writes
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
	w.Repo.Commit("main", "config", map[string]string{".github/aepgate.yml": appkit.GatesConfig})
	w.Repo.Grant("olivia", "admin")
	g := &appkit.GatesWorld{Live: w, GH: w.F.Client(w.Inst.Token())}
	g.Unit, g.PR = g.UnitAndPR("missed")
	c := g.PR.Comment("olivia", "/aep hold lost webhook")
	if err := w.App.Sweep(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := g.Reactions(t, c.ID()); len(got) != 1 || got[0] != "+1" {
		t.Errorf("reactions after the sweep = %v, want [+1]", got)
	}
	if r := g.Gates(); r == nil || r.Conclusion != "action_required" {
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
			g := appkit.NewGatesWorld(t)
			g.Repo.Commit("main", "mode", map[string]string{".github/aepgate.yml": appkit.GatesConfig + "mode: " + tt.mode + "\n"})
			g.PR.Comment("olivia", "/aep hold waiting for legal")
			g.WaitGates(t, tt.gates)
			g.Quiet(t)
			merge := appkit.NewestRunOn(g.Repo, g.PR.Head(), checks.NameMerge)
			if merge == nil || merge.Conclusion != tt.merge {
				t.Fatalf("aepgate/merge = %+v, want %s", merge, tt.merge)
			}
			advised := strings.HasPrefix(g.Gates().Title, "Advisory (would be action_required)")
			if advised != (tt.mode == "advisory") {
				t.Errorf("aepgate/gates title %q under mode %s", g.Gates().Title, tt.mode)
			}
		})
	}
}
