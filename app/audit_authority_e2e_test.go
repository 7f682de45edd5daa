package app_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aepgate/aepgate/app"
	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/internal/testkit/appkit"
	"github.com/aepgate/aepgate/internal/testkit/ghfake"
	"github.com/aepgate/aepgate/review"
	"github.com/google/go-github/v62/github"
)

// withoutAuditRule is the App's audit with one review rule removed, for a
// negative control.
func withoutAuditRule(name string) func(*app.Options) {
	return func(o *app.Options) {
		o.Seams.AuditRules = slices.DeleteFunc(review.DefaultRules(), func(r review.Rule) bool { return r.Name == name })
	}
}

// robotIdent is a git identity linked to no GitHub account.
var robotIdent = ghfake.Signature{Name: "Build Robot", Email: "robot@corp.example"}

// waitAuditMentions waits until aepgate/audit on the head mentions want.
func (a *auditWorld) waitAuditMentions(t *testing.T, want string) *ghfake.CheckRun {
	t.Helper()
	appkit.WaitFor(t, 10*time.Second, "aepgate/audit saying "+want, func() bool {
		r := a.audit()
		return r != nil && strings.Contains(r.Title+r.Summary, want)
	})
	return a.audit()
}

// TestAuditStrangerCannotAudit: with auditors unset, a user with no
// permission on the repository posts a valid PASS on a medium-risk unit;
// it does not pass aepgate/audit, and aepgate/config warns that any
// writer may audit. Without the collaborator rule the PASS passes.
func TestAuditStrangerCannotAudit(t *testing.T) {
	t.Run("refused", func(t *testing.T) {
		a := newAuditWorld(t, "medium")
		a.waitAudit(t, "failure")
		a.pr.SubmitReview("stranger", "COMMENTED", auditBody(a.unit.Number(), "PASS", goodQuote))
		r := a.waitAuditMentions(t, `stranger's permission on this repository is "none"`)
		if r.Conclusion == "success" {
			t.Fatalf("a stranger's PASS passed the audit:\n%s", r.Summary)
		}
		appkit.WaitFor(t, 5*time.Second, "the merge check", func() bool { return appkit.ConclusionOf(a.Repo, a.pr.Head(), checks.NameMerge) == "failure" })
		cfg := appkit.NewestRunOn(a.Repo, a.pr.Head(), checks.NameConfig)
		if cfg == nil || cfg.Conclusion != "neutral" || !strings.Contains(cfg.Summary, "any collaborator with write, maintain or admin access may audit") {
			t.Errorf("aepgate/config does not warn that any writer may audit: %+v", cfg)
		}
	})
	t.Run("negative control: without the collaborator rule", func(t *testing.T) {
		a := newAuditWorldWith(t, "medium", "version: 1\nowners: [olivia]\n", withoutAuditRule("collaborator"))
		a.waitAudit(t, "failure")
		a.pr.SubmitReview("stranger", "COMMENTED", auditBody(a.unit.Number(), "PASS", goodQuote))
		a.waitAudit(t, "success")
	})
}

// TestAuditTriageByConfig: a triage collaborator audits only where the
// config sets audit_triage; with auditors listed aepgate/config shows no
// warning.
func TestAuditTriageByConfig(t *testing.T) {
	for _, tt := range []struct {
		config, want string
	}{
		{"version: 1\nowners: [olivia]\nauditors: [tina]\n", `tina's role on this repository is triage`},
		{"version: 1\nowners: [olivia]\nauditors: [tina]\naudit_triage: true\n", "Independent PASS by tina"},
	} {
		a := newAuditWorldWith(t, "medium", tt.config, nil)
		a.Repo.Grant("tina", "triage")
		a.waitAudit(t, "failure")
		a.pr.SubmitReview("tina", "COMMENTED", auditBody(a.unit.Number(), "PASS", goodQuote))
		a.waitAuditMentions(t, tt.want)
		if r := appkit.NewestRunOn(a.Repo, a.pr.Head(), checks.NameConfig); r != nil {
			t.Errorf("aepgate/config with auditors listed: %s %s", r.Conclusion, r.Title)
		}
	}
}

// pushRobot has writer mallory push a commit authored and committed by an
// identity linked to no account onto the pull request, and waits for the
// App to judge the new head.
func (a *auditWorld) pushRobot(t *testing.T) {
	t.Helper()
	a.Repo.Grant("mallory", "write")
	sha := a.Repo.PushAs("mallory", "export", "generated", robotIdent, map[string]string{"export/gen.go": "package export\n"})
	appkit.WaitFor(t, 10*time.Second, "the pushed head judged", func() bool { return a.pr.Head() == sha && a.audit() != nil })
}

// TestAuditPusherCannotAudit: a listed auditor with write access pushes a
// commit under an unlinked identity and audits it; the PASS is refused
// because the App recorded who pushed the head. Without the not-pusher
// rule it passes.
func TestAuditPusherCannotAudit(t *testing.T) {
	const config = "version: 1\nowners: [olivia]\nauditors: [carol, mallory]\n"
	t.Run("refused", func(t *testing.T) {
		a := newAuditWorldWith(t, "medium", config, nil)
		a.pushRobot(t)
		a.pr.SubmitReview("mallory", "COMMENTED", auditBody(a.unit.Number(), "PASS", goodQuote))
		r := a.waitAuditMentions(t, "mallory pushed commit")
		if r.Conclusion == "success" {
			t.Fatalf("the pusher's PASS passed:\n%s", r.Summary)
		}
		// An independent listed auditor still can.
		a.pr.SubmitReview("carol", "COMMENTED", auditBody(a.unit.Number(), "PASS", goodQuote))
		a.waitAudit(t, "success")
	})
	t.Run("negative control: without the not-pusher rule", func(t *testing.T) {
		a := newAuditWorldWith(t, "medium", config, withoutAuditRule("not-pusher"))
		a.pushRobot(t)
		a.pr.SubmitReview("mallory", "COMMENTED", auditBody(a.unit.Number(), "PASS", goodQuote))
		a.waitAudit(t, "success")
	})
}

// TestAuditUnattributedNeedsAuditors: with auditors unset, a pull request
// holding a commit linked to no account cannot be audited, and
// aepgate/audit says to list auditors. Without the rule an independent
// writer's PASS passes.
func TestAuditUnattributedNeedsAuditors(t *testing.T) {
	t.Run("refused", func(t *testing.T) {
		a := newAuditWorld(t, "medium")
		a.pushRobot(t)
		a.waitAuditMentions(t, "list the auditors in .github/aepgate.yml")
		a.pr.SubmitReview("carol", "COMMENTED", auditBody(a.unit.Number(), "PASS", goodQuote))
		appkit.WaitFor(t, 10*time.Second, "carol's review judged", func() bool { return strings.Contains(a.audit().Summary, "carol") })
		if r := a.audit(); r.Conclusion == "success" || !strings.Contains(r.Summary, "linked to no GitHub account") {
			t.Errorf("an audit of an unattributed commit with no auditors: %s\n%s", r.Conclusion, r.Summary)
		}
	})
	t.Run("negative control: without the unattributed-needs-listed rule", func(t *testing.T) {
		a := newAuditWorldWith(t, "medium", "version: 1\nowners: [olivia]\n", withoutAuditRule("unattributed-needs-listed"))
		a.pushRobot(t)
		a.pr.SubmitReview("carol", "COMMENTED", auditBody(a.unit.Number(), "PASS", goodQuote))
		a.waitAudit(t, "success")
	})
}

// TestAuditDismissedPassStopsCounting: an admin's dismissal through REST
// (pull_request_review.dismissed) takes a passing audit back.
func TestAuditDismissedPassStopsCounting(t *testing.T) {
	a := newAuditWorld(t, "medium")
	a.waitAudit(t, "failure")
	id := a.pr.SubmitReview("carol", "COMMENTED", auditBody(a.unit.Number(), "PASS", goodQuote))
	a.waitAudit(t, "success")
	a.Repo.Grant("olivia", "admin")
	c := a.F.Client(a.F.UserToken("olivia"))
	if err := dismissREST(c, a.pr.Number(), id); err != nil {
		t.Fatal(err)
	}
	a.waitAuditMentions(t, "dismissed")
	if r := a.audit(); r.Conclusion == "success" {
		t.Errorf("a dismissed PASS still passes:\n%s", r.Summary)
	}
}

// dismissREST dismisses review id of pull request n of acme/widgets.
func dismissREST(c *github.Client, n int, id int64) error {
	_, _, err := c.PullRequests.DismissReview(context.Background(), "acme", "widgets", n, id, &github.PullRequestReviewDismissalRequest{Message: github.String("not an audit")})
	return err
}
