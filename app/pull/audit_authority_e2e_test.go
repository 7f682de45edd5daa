package pull_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aepgate/aepgate/app"
	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/internal/testkit/appkit"
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

// TestAuditStrangerCannotAudit: with auditors unset, a user with no
// permission on the repository posts a valid PASS on a medium-risk unit;
// it does not pass aepgate/audit, and aepgate/config warns that any
// writer may audit. Without the collaborator rule the PASS passes.
func TestAuditStrangerCannotAudit(t *testing.T) {
	t.Run("refused", func(t *testing.T) {
		a := appkit.NewAuditWorld(t, "medium")
		a.WaitAudit(t, "failure")
		a.PR.SubmitReview("stranger", "COMMENTED", appkit.AuditBody(a.Unit.Number(), "PASS", appkit.GoodQuote))
		r := a.WaitAuditMentions(t, `stranger's permission on this repository is "none"`)
		if r.Conclusion == "success" {
			t.Fatalf("a stranger's PASS passed the audit:\n%s", r.Summary)
		}
		appkit.WaitFor(t, 5*time.Second, "the merge check", func() bool { return appkit.ConclusionOf(a.Repo, a.PR.Head(), checks.NameMerge) == "failure" })
		cfg := appkit.NewestRunOn(a.Repo, a.PR.Head(), checks.NameConfig)
		if cfg == nil || cfg.Conclusion != "neutral" || !strings.Contains(cfg.Summary, "any collaborator with write, maintain or admin access may audit") {
			t.Errorf("aepgate/config does not warn that any writer may audit: %+v", cfg)
		}
	})
	t.Run("negative control: without the collaborator rule", func(t *testing.T) {
		a := appkit.NewAuditWorldWith(t, "medium", "version: 1\nowners: [olivia]\n", withoutAuditRule("collaborator"))
		a.WaitAudit(t, "failure")
		a.PR.SubmitReview("stranger", "COMMENTED", appkit.AuditBody(a.Unit.Number(), "PASS", appkit.GoodQuote))
		a.WaitAudit(t, "success")
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
		a := appkit.NewAuditWorldWith(t, "medium", tt.config, nil)
		a.Repo.Grant("tina", "triage")
		a.WaitAudit(t, "failure")
		a.PR.SubmitReview("tina", "COMMENTED", appkit.AuditBody(a.Unit.Number(), "PASS", appkit.GoodQuote))
		a.WaitAuditMentions(t, tt.want)
		if r := appkit.NewestRunOn(a.Repo, a.PR.Head(), checks.NameConfig); r != nil {
			t.Errorf("aepgate/config with auditors listed: %s %s", r.Conclusion, r.Title)
		}
	}
}

// TestAuditPusherCannotAudit: a listed auditor with write access pushes a
// commit under an unlinked identity and audits it; the PASS is refused
// because the App recorded who pushed the head. Without the not-pusher
// rule it passes.
func TestAuditPusherCannotAudit(t *testing.T) {
	const config = "version: 1\nowners: [olivia]\nauditors: [carol, mallory]\n"
	t.Run("refused", func(t *testing.T) {
		a := appkit.NewAuditWorldWith(t, "medium", config, nil)
		a.PushRobot(t)
		a.PR.SubmitReview("mallory", "COMMENTED", appkit.AuditBody(a.Unit.Number(), "PASS", appkit.GoodQuote))
		r := a.WaitAuditMentions(t, "mallory pushed commit")
		if r.Conclusion == "success" {
			t.Fatalf("the pusher's PASS passed:\n%s", r.Summary)
		}
		// An independent listed auditor still can.
		a.PR.SubmitReview("carol", "COMMENTED", appkit.AuditBody(a.Unit.Number(), "PASS", appkit.GoodQuote))
		a.WaitAudit(t, "success")
	})
	t.Run("negative control: without the not-pusher rule", func(t *testing.T) {
		a := appkit.NewAuditWorldWith(t, "medium", config, withoutAuditRule("not-pusher"))
		a.PushRobot(t)
		a.PR.SubmitReview("mallory", "COMMENTED", appkit.AuditBody(a.Unit.Number(), "PASS", appkit.GoodQuote))
		a.WaitAudit(t, "success")
	})
}

// TestAuditUnattributedNeedsAuditors: with auditors unset, a pull request
// holding a commit linked to no account cannot be audited, and
// aepgate/audit says to list auditors. Without the rule an independent
// writer's PASS passes.
func TestAuditUnattributedNeedsAuditors(t *testing.T) {
	t.Run("refused", func(t *testing.T) {
		a := appkit.NewAuditWorld(t, "medium")
		a.PushRobot(t)
		a.WaitAuditMentions(t, "list the auditors in .github/aepgate.yml")
		a.PR.SubmitReview("carol", "COMMENTED", appkit.AuditBody(a.Unit.Number(), "PASS", appkit.GoodQuote))
		appkit.WaitFor(t, 10*time.Second, "carol's review judged", func() bool { return strings.Contains(a.Audit().Summary, "carol") })
		if r := a.Audit(); r.Conclusion == "success" || !strings.Contains(r.Summary, "linked to no GitHub account") {
			t.Errorf("an audit of an unattributed commit with no auditors: %s\n%s", r.Conclusion, r.Summary)
		}
	})
	t.Run("negative control: without the unattributed-needs-listed rule", func(t *testing.T) {
		a := appkit.NewAuditWorldWith(t, "medium", "version: 1\nowners: [olivia]\n", withoutAuditRule("unattributed-needs-listed"))
		a.PushRobot(t)
		a.PR.SubmitReview("carol", "COMMENTED", appkit.AuditBody(a.Unit.Number(), "PASS", appkit.GoodQuote))
		a.WaitAudit(t, "success")
	})
}

// TestAuditDismissedPassStopsCounting: an admin's dismissal through REST
// (pull_request_review.dismissed) takes a passing audit back.
func TestAuditDismissedPassStopsCounting(t *testing.T) {
	a := appkit.NewAuditWorld(t, "medium")
	a.WaitAudit(t, "failure")
	id := a.PR.SubmitReview("carol", "COMMENTED", appkit.AuditBody(a.Unit.Number(), "PASS", appkit.GoodQuote))
	a.WaitAudit(t, "success")
	a.Repo.Grant("olivia", "admin")
	c := a.F.Client(a.F.UserToken("olivia"))
	if err := dismissREST(c, a.PR.Number(), id); err != nil {
		t.Fatal(err)
	}
	a.WaitAuditMentions(t, "dismissed")
	if r := a.Audit(); r.Conclusion == "success" {
		t.Errorf("a dismissed PASS still passes:\n%s", r.Summary)
	}
}

// dismissREST dismisses review id of pull request n of acme/widgets.
func dismissREST(c *github.Client, n int, id int64) error {
	_, _, err := c.PullRequests.DismissReview(context.Background(), "acme", "widgets", n, id, &github.PullRequestReviewDismissalRequest{Message: github.String("not an audit")})
	return err
}
