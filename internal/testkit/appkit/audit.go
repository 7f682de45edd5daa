package appkit

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aepgate/aepgate/app"
	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/internal/testkit/ghfake"
)

// AuditAfter submits login's PASS at the head, waits for the App to judge
// it, and returns the audit run.
func (a *AuditWorld) AuditAfter(t *testing.T, login string) *ghfake.CheckRun {
	t.Helper()
	a.PR.SubmitReview(login, "COMMENTED", AuditBody(a.Unit.Number(), "PASS", GoodQuote))
	a.Quiet(t)
	r := a.Audit()
	if r == nil {
		t.Fatal("no aepgate/audit run")
	}
	return r
}

// AuditRows counts the ledger's aepgate/audit rows: one per evaluation.
func (a *AuditWorld) AuditRows(t *testing.T) int {
	t.Helper()
	var n int
	if err := a.App.Store().SQL.QueryRowContext(context.Background(), `SELECT COUNT(*) FROM aepgate_ledger WHERE kind = ?`, "check_run:"+checks.NameAudit).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// WaitAuditMentions waits until aepgate/audit on the head mentions want.
func (a *AuditWorld) WaitAuditMentions(t *testing.T, want string) *ghfake.CheckRun {
	t.Helper()
	WaitFor(t, 10*time.Second, "aepgate/audit saying "+want, func() bool {
		r := a.Audit()
		return r != nil && strings.Contains(r.Title+r.Summary, want)
	})
	return a.Audit()
}

// PushRobot has writer mallory push a commit authored and committed by an
// identity linked to no account onto the pull request, and waits for the
// App to judge the new head.
func (a *AuditWorld) PushRobot(t *testing.T) {
	t.Helper()
	a.Repo.Grant("mallory", "write")
	sha := a.Repo.PushAs("mallory", "export", "generated", RobotIdent, map[string]string{"export/gen.go": "package export\n"})
	WaitFor(t, 10*time.Second, "the pushed head judged", func() bool { return a.PR.Head() == sha && a.Audit() != nil })
}

// AuditSource is the file the audits quote, committed on the pull request.
const AuditSource = "package export\n\n// Export writes the rows as CSV.\nfunc Export(rows []Row) error {\n\treturn writeCSV(rows)\n}\n"

// AuditWorld is a unit of the given risk with a pull request by bob whose
// only commit bob authored; carol and dave have write access and wrote
// nothing on it.
type AuditWorld struct {
	*Live
	Unit *ghfake.Issue
	PR   *ghfake.PR
}

// NewAuditWorld is NewAuditWorldWith olivia as the only owner.
func NewAuditWorld(t *testing.T, risk string) *AuditWorld {
	t.Helper()
	return NewAuditWorldWith(t, risk, "version: 1\nowners: [olivia]\n", nil)
}

// NewAuditWorldWith is NewAuditWorld with the given default-branch config
// and the App's options changed by edit (nil: unchanged).
func NewAuditWorldWith(t *testing.T, risk, config string, edit func(*app.Options)) *AuditWorld {
	t.Helper()
	w := NewLiveOpts(t, true, edit)
	w.Repo.Commit("main", "config", map[string]string{".github/aepgate.yml": config})
	for _, u := range []string{"olivia", "carol", "dave", "bob"} {
		w.Repo.Grant(u, "write")
	}
	ms := w.Repo.CreateMilestone("M", "")
	unit := w.Repo.OpenIssue("alice", "Export", Contract(risk, "product"), ghfake.InMilestone(ms))
	w.Repo.Branch("export", "main")
	w.Repo.CommitBy("bob", "export", "export", map[string]string{"export/export.go": AuditSource, ".env": "TOKEN=s3cret\n"})
	pr := w.Repo.OpenPR("bob", "export", "main", "Export", "Work-unit: #"+strconv.Itoa(unit.Number()))
	return &AuditWorld{Live: w, Unit: unit, PR: pr}
}

// Audit is the newest aepgate/audit run on the head.
func (a *AuditWorld) Audit() *ghfake.CheckRun {
	return NewestRunOn(a.Repo, a.PR.Head(), checks.NameAudit)
}

// WaitAudit waits for the head's aepgate/audit run to conclude want.
func (a *AuditWorld) WaitAudit(t *testing.T, want string) *ghfake.CheckRun {
	t.Helper()
	WaitFor(t, 10*time.Second, "aepgate/audit "+want, func() bool { r := a.Audit(); return r != nil && r.Conclusion == want })
	return a.Audit()
}

// AuditBody is a review body holding one aep-audit block.
func AuditBody(unit int, verdict, evidence string) string {
	findings := "[]"
	if verdict == "FAIL" {
		findings = `[{"id": "F1", "severity": "high", "requirement": "errors are wrapped", "evidence": [` + evidence + `], "remedy": "wrap the error"}]`
	}
	return fmt.Sprintf("Audit notes.\n\n```aep-audit\n"+`{"schema_version": 1, "work_unit": "#%d", "verdict": %q, "summary": "checked the export path",
 "findings": %s,
 "verification": [{"check": "go test ./export/...", "outcome": "pass", "evidence": [%s]}],
 "verdicts": [], "evidence_requests": []}`+"\n```\n", unit, verdict, findings, evidence)
}

// GoodQuote is audit evidence quoting AuditSource exactly.
const GoodQuote = `{"path": "export/export.go", "quote": "func Export(rows []Row) error {\n\treturn writeCSV(rows)\n}"}`

// WaitWorkUnit waits for the head's aepgate/work-unit run to say what
// contains.
func (a *AuditWorld) WaitWorkUnit(t *testing.T, contains string) *ghfake.CheckRun {
	t.Helper()
	WaitFor(t, 10*time.Second, "aepgate/work-unit saying "+contains, func() bool {
		r := NewestRunOn(a.Repo, a.PR.Head(), checks.NameWorkUnit)
		return r != nil && strings.Contains(r.Summary, contains)
	})
	return NewestRunOn(a.Repo, a.PR.Head(), checks.NameWorkUnit)
}

// RobotIdent is a git identity linked to no GitHub account.
var RobotIdent = ghfake.Signature{Name: "Build Robot", Email: "robot@corp.example"}

// AgentBot is the coding agent's account in these tests.
const AgentBot = "copilot-swe-agent[bot]"

// AgentsLine is the config line naming AgentBot the repository's agent.
const AgentsLine = "agents: [\"" + AgentBot + "\"]\n"
