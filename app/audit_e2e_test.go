package app_test

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aepgate/aepgate/app"
	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/internal/testkit/appkit"
	"github.com/aepgate/aepgate/internal/testkit/ghfake"
)

// auditSource is the file the audits quote, committed on the pull request.
const auditSource = "package export\n\n// Export writes the rows as CSV.\nfunc Export(rows []Row) error {\n\treturn writeCSV(rows)\n}\n"

// auditWorld is a unit of the given risk with a pull request by bob whose
// only commit bob authored; carol and dave have write access and wrote
// nothing on it.
type auditWorld struct {
	*appkit.Live
	unit *ghfake.Issue
	pr   *ghfake.PR
}

func newAuditWorld(t *testing.T, risk string) *auditWorld {
	t.Helper()
	return newAuditWorldWith(t, risk, "version: 1\nowners: [olivia]\n", nil)
}

// newAuditWorldWith is newAuditWorld with the given default-branch config
// and the App's options changed by edit (nil: unchanged).
func newAuditWorldWith(t *testing.T, risk, config string, edit func(*app.Options)) *auditWorld {
	t.Helper()
	w := appkit.NewLiveOpts(t, true, edit)
	w.Repo.Commit("main", "config", map[string]string{".github/aepgate.yml": config})
	for _, u := range []string{"olivia", "carol", "dave", "bob"} {
		w.Repo.Grant(u, "write")
	}
	ms := w.Repo.CreateMilestone("M", "")
	unit := w.Repo.OpenIssue("alice", "Export", appkit.Contract(risk, "product"), ghfake.InMilestone(ms))
	w.Repo.Branch("export", "main")
	w.Repo.CommitBy("bob", "export", "export", map[string]string{"export/export.go": auditSource, ".env": "TOKEN=s3cret\n"})
	pr := w.Repo.OpenPR("bob", "export", "main", "Export", "Work-unit: #"+strconv.Itoa(unit.Number()))
	return &auditWorld{Live: w, unit: unit, pr: pr}
}

// audit is the newest aepgate/audit run on the head.
func (a *auditWorld) audit() *ghfake.CheckRun {
	return appkit.NewestRunOn(a.Repo, a.pr.Head(), checks.NameAudit)
}

func (a *auditWorld) waitAudit(t *testing.T, want string) *ghfake.CheckRun {
	t.Helper()
	appkit.WaitFor(t, 10*time.Second, "aepgate/audit "+want, func() bool { r := a.audit(); return r != nil && r.Conclusion == want })
	return a.audit()
}

// auditBody is a review body holding one aep-audit block.
func auditBody(unit int, verdict, evidence string) string {
	findings := "[]"
	if verdict == "FAIL" {
		findings = `[{"id": "F1", "severity": "high", "requirement": "errors are wrapped", "evidence": [` + evidence + `], "remedy": "wrap the error"}]`
	}
	return fmt.Sprintf("Audit notes.\n\n```aep-audit\n"+`{"schema_version": 1, "work_unit": "#%d", "verdict": %q, "summary": "checked the export path",
 "findings": %s,
 "verification": [{"check": "go test ./export/...", "outcome": "pass", "evidence": [%s]}],
 "verdicts": [], "evidence_requests": []}`+"\n```\n", unit, verdict, findings, evidence)
}

const goodQuote = `{"path": "export/export.go", "quote": "func Export(rows []Row) error {\n\treturn writeCSV(rows)\n}"}`

func TestAuditIndependentPassAtHead(t *testing.T) {
	a := newAuditWorld(t, "medium")
	r := a.waitAudit(t, "failure")
	if !strings.Contains(r.Title+r.Summary, "audit") {
		t.Errorf("before any audit: %s\n%s", r.Title, r.Summary)
	}
	a.pr.SubmitReview("carol", "COMMENTED", auditBody(a.unit.Number(), "PASS", goodQuote))
	r = a.waitAudit(t, "success")
	if !strings.Contains(r.Summary, "carol") || !strings.Contains(r.Summary, a.pr.Head()[:12]) {
		t.Errorf("summary names neither the auditor nor the audited SHA:\n%s", r.Summary)
	}
	// A push makes it stale.
	a.pr.Commit("more", map[string]string{"export/more.go": "package export\n"})
	r = a.waitAudit(t, "failure")
	if !strings.Contains(r.Title+r.Summary, "audit is for") {
		t.Errorf("after a push: %s\n%s", r.Title, r.Summary)
	}
}

func TestAuditLowRiskNeedsNone(t *testing.T) {
	a := newAuditWorld(t, "low")
	a.waitAudit(t, "success")
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
			a := newAuditWorld(t, "medium")
			a.waitAudit(t, "failure")
			ev := tt.body
			if ev == "" {
				ev = goodQuote
			}
			a.pr.SubmitReview(tt.who, "COMMENTED", auditBody(a.unit.Number(), "PASS", ev))
			appkit.WaitFor(t, 10*time.Second, "the review judged", func() bool { r := a.audit(); return strings.Contains(r.Title+r.Summary, tt.want) })
			r := a.audit()
			if r.Conclusion == "success" {
				t.Fatalf("the audit passed:\n%s", r.Summary)
			}
			if !strings.Contains(r.Title+r.Summary, tt.want) {
				t.Errorf("the reason does not mention %q: %s\n%s", tt.want, r.Title, r.Summary)
			}
		})
	}
	t.Run("a commit's author", func(t *testing.T) {
		a := newAuditWorld(t, "medium")
		a.Repo.CommitBy("dave", "export", "help", map[string]string{"export/help.go": "package export\n"})
		appkit.WaitFor(t, 10*time.Second, "the new head judged", func() bool { return a.audit() != nil })
		a.pr.SubmitReview("dave", "COMMENTED", auditBody(a.unit.Number(), "PASS", goodQuote))
		appkit.WaitFor(t, 10*time.Second, "the review judged", func() bool { return strings.Contains(a.audit().Summary, "dave") })
		if r := a.audit(); r.Conclusion == "success" || !strings.Contains(r.Summary, "dave") {
			t.Errorf("a commit author's audit: %s\n%s", r.Conclusion, r.Summary)
		}
	})
	t.Run("a review at an older head", func(t *testing.T) {
		a := newAuditWorld(t, "medium")
		old := a.pr.Head()
		a.pr.Commit("more", map[string]string{"export/more.go": "package export\n"})
		appkit.WaitFor(t, 10*time.Second, "the new head judged", func() bool { return a.audit() != nil })
		a.pr.SubmitReviewAt("carol", "COMMENTED", auditBody(a.unit.Number(), "PASS", goodQuote), old)
		appkit.WaitFor(t, 10*time.Second, "the review judged", func() bool { r := a.audit(); return strings.Contains(r.Title+r.Summary, "audit is for") })
		if r := a.audit(); r.Conclusion == "success" || !strings.Contains(r.Title+r.Summary, "audit is for") {
			t.Errorf("an audit of an older head: %s\n%s", r.Conclusion, r.Summary)
		}
	})
}

// TestAuditHighRiskNeedsTheOwner: a high-risk unit's PASS opens an owner
// gate that blocks the merge until the owner answers it.
func TestAuditHighRiskNeedsTheOwner(t *testing.T) {
	a := newAuditWorld(t, "high")
	a.waitAudit(t, "failure")
	a.pr.SubmitReview("carol", "COMMENTED", auditBody(a.unit.Number(), "PASS", goodQuote))
	if r := a.waitAudit(t, "action_required"); !strings.Contains(r.Title+r.Summary, "owner") {
		t.Errorf("a high-risk PASS does not say it waits for the owner: %s\n%s", r.Title, r.Summary)
	}
	gates := func() string { return appkit.ConclusionOf(a.Repo, a.pr.Head(), checks.NameGates) }
	appkit.WaitFor(t, 10*time.Second, "the owner gate", func() bool { return gates() == "action_required" })
	a.pr.SubmitReview("olivia", "APPROVED", "Accepted.")
	appkit.WaitFor(t, 10*time.Second, "the owner's answer", func() bool { return gates() == "success" })
	a.waitAudit(t, "success")
}

// TestAuditDisposeIsAnswered: a dispose command that can be read gets a 👍
// (only an auditor's later AGREE closes the finding), a malformed one a 👎
// and a reply saying why.
func TestAuditDisposeIsAnswered(t *testing.T) {
	a := newAuditWorld(t, "medium")
	a.waitAudit(t, "failure")
	id := a.pr.SubmitReview("carol", "COMMENTED", auditBody(a.unit.Number(), "FAIL", goodQuote))
	g := &gatesWorld{Live: a.Live, unit: a.unit, pr: a.pr, gh: a.F.Client(a.Inst.Token())}
	good := a.pr.Comment("bob", "/aep dispose F1@r"+strconv.FormatInt(id, 10)+" fixed -- the error is wrapped now")
	if got := g.waitReaction(t, good.ID()); len(got) != 1 || got[0] != "+1" {
		t.Errorf("reactions on a readable dispose = %v, want [+1]", got)
	}
	bad := a.pr.Comment("bob", "/aep dispose F1 done")
	if got := g.waitReaction(t, bad.ID()); len(got) != 1 || got[0] != "-1" {
		t.Errorf("reactions on a malformed dispose = %v, want [-1]", got)
	}
	appkit.WaitFor(t, 5*time.Second, "a reply", func() bool { return len(g.replies(t, a.pr.Number(), bad.ID())) == 1 })
	if r := a.audit(); r.Conclusion == "success" {
		t.Errorf("a disposition closed the finding by itself:\n%s", r.Summary)
	}
}
