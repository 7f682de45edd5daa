package pull_test

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/internal/testkit/appkit"
)

func TestAuditIndependentPassAtHead(t *testing.T) {
	a := appkit.NewAuditWorld(t, "medium")
	r := a.WaitAudit(t, "failure")
	if !strings.Contains(r.Title+r.Summary, "audit") {
		t.Errorf("before any audit: %s\n%s", r.Title, r.Summary)
	}
	a.PR.SubmitReview("carol", "COMMENTED", appkit.AuditBody(a.Unit.Number(), "PASS", appkit.GoodQuote))
	r = a.WaitAudit(t, "success")
	if !strings.Contains(r.Summary, "carol") || !strings.Contains(r.Summary, a.PR.Head()[:12]) {
		t.Errorf("summary names neither the auditor nor the audited SHA:\n%s", r.Summary)
	}
	// A push makes it stale.
	a.PR.Commit("more", map[string]string{"export/more.go": "package export\n"})
	r = a.WaitAudit(t, "failure")
	if !strings.Contains(r.Title+r.Summary, "audit is for") {
		t.Errorf("after a push: %s\n%s", r.Title, r.Summary)
	}
}

func TestAuditLowRiskNeedsNone(t *testing.T) {
	a := appkit.NewAuditWorld(t, "low")
	a.WaitAudit(t, "success")
}

// TestAuditRefusals: each review fails the audit with its reason
// (review's own tests show each passing with its rule removed).
func TestAuditRefusals(t *testing.T) {
	many := make([]string, 65)
	for i := range many {
		many[i] = fmt.Sprintf(`{"path": "f%d.go", "quote": "x"}`, i)
	}
	tests := []struct {
		name, who, body, want string
	}{
		{"the pull request's author", "bob", "", "author"},
		{"a quote that does not occur", "carol", `{"path": "export/export.go", "quote": "func Import("}`, "quote"},
		{"a quote from a .env file", "carol", `{"path": ".env", "quote": "TOKEN=s3cret"}`, ".env"},
		{"a 65-file bundle", "carol", strings.Join(many, ", "), "64"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := appkit.NewAuditWorld(t, "medium")
			a.WaitAudit(t, "failure")
			ev := tt.body
			if ev == "" {
				ev = appkit.GoodQuote
			}
			a.PR.SubmitReview(tt.who, "COMMENTED", appkit.AuditBody(a.Unit.Number(), "PASS", ev))
			appkit.WaitFor(t, 10*time.Second, "the review judged", func() bool { r := a.Audit(); return strings.Contains(r.Title+r.Summary, tt.want) })
			r := a.Audit()
			if r.Conclusion == "success" {
				t.Fatalf("the audit passed:\n%s", r.Summary)
			}
			if !strings.Contains(r.Title+r.Summary, tt.want) {
				t.Errorf("the reason does not mention %q: %s\n%s", tt.want, r.Title, r.Summary)
			}
		})
	}
	t.Run("a commit's author", func(t *testing.T) {
		a := appkit.NewAuditWorld(t, "medium")
		a.Repo.CommitBy("dave", "export", "help", map[string]string{"export/help.go": "package export\n"})
		appkit.WaitFor(t, 10*time.Second, "the new head judged", func() bool { return a.Audit() != nil })
		a.PR.SubmitReview("dave", "COMMENTED", appkit.AuditBody(a.Unit.Number(), "PASS", appkit.GoodQuote))
		appkit.WaitFor(t, 10*time.Second, "the review judged", func() bool { return strings.Contains(a.Audit().Summary, "dave") })
		if r := a.Audit(); r.Conclusion == "success" || !strings.Contains(r.Summary, "dave") {
			t.Errorf("a commit author's audit: %s\n%s", r.Conclusion, r.Summary)
		}
	})
	t.Run("a review at an older head", func(t *testing.T) {
		a := appkit.NewAuditWorld(t, "medium")
		old := a.PR.Head()
		a.PR.Commit("more", map[string]string{"export/more.go": "package export\n"})
		appkit.WaitFor(t, 10*time.Second, "the new head judged", func() bool { return a.Audit() != nil })
		a.PR.SubmitReviewAt("carol", "COMMENTED", appkit.AuditBody(a.Unit.Number(), "PASS", appkit.GoodQuote), old)
		appkit.WaitFor(t, 10*time.Second, "the review judged", func() bool { r := a.Audit(); return strings.Contains(r.Title+r.Summary, "audit is for") })
		if r := a.Audit(); r.Conclusion == "success" || !strings.Contains(r.Title+r.Summary, "audit is for") {
			t.Errorf("an audit of an older head: %s\n%s", r.Conclusion, r.Summary)
		}
	})
}

// TestAuditHighRiskNeedsTheOwner: a high-risk unit's PASS opens an owner
// gate that blocks the merge until the owner answers it.
func TestAuditHighRiskNeedsTheOwner(t *testing.T) {
	a := appkit.NewAuditWorld(t, "high")
	a.WaitAudit(t, "failure")
	a.PR.SubmitReview("carol", "COMMENTED", appkit.AuditBody(a.Unit.Number(), "PASS", appkit.GoodQuote))
	if r := a.WaitAudit(t, "action_required"); !strings.Contains(r.Title+r.Summary, "owner") {
		t.Errorf("a high-risk PASS does not say it waits for the owner: %s\n%s", r.Title, r.Summary)
	}
	gates := func() string { return appkit.ConclusionOf(a.Repo, a.PR.Head(), checks.NameGates) }
	appkit.WaitFor(t, 10*time.Second, "the owner gate", func() bool { return gates() == "action_required" })
	a.PR.SubmitReview("olivia", "APPROVED", "Accepted.")
	appkit.WaitFor(t, 10*time.Second, "the owner's answer", func() bool { return gates() == "success" })
	a.WaitAudit(t, "success")
}

// TestAuditDisposeIsAnswered: a dispose command that can be read gets a 👍
// (only an auditor's later AGREE closes the finding), a malformed one a 👎
// and a reply saying why.
func TestAuditDisposeIsAnswered(t *testing.T) {
	a := appkit.NewAuditWorld(t, "medium")
	a.WaitAudit(t, "failure")
	id := a.PR.SubmitReview("carol", "COMMENTED", appkit.AuditBody(a.Unit.Number(), "FAIL", appkit.GoodQuote))
	g := &appkit.GatesWorld{Live: a.Live, Unit: a.Unit, PR: a.PR, GH: a.F.Client(a.Inst.Token())}
	good := a.PR.Comment("bob", "/aep dispose F1@r"+strconv.FormatInt(id, 10)+" fixed -- the error is wrapped now")
	if got := g.WaitReaction(t, good.ID()); len(got) != 1 || got[0] != "+1" {
		t.Errorf("reactions on a readable dispose = %v, want [+1]", got)
	}
	bad := a.PR.Comment("bob", "/aep dispose F1 done")
	if got := g.WaitReaction(t, bad.ID()); len(got) != 1 || got[0] != "-1" {
		t.Errorf("reactions on a malformed dispose = %v, want [-1]", got)
	}
	appkit.WaitFor(t, 5*time.Second, "a reply", func() bool { return len(g.Replies(t, a.PR.Number(), bad.ID())) == 1 })
	if r := a.Audit(); r.Conclusion == "success" {
		t.Errorf("a disposition closed the finding by itself:\n%s", r.Summary)
	}
}
