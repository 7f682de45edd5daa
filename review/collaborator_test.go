package review

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// robot is a commit authored and committed under an identity linked to
// no GitHub account.
var robot = Commit{SHA: head, AuthorName: "Build Robot", AuthorEmail: "robot@corp.example", CommitterName: "Build Robot", CommitterEmail: "robot@corp.example"}

// TestCollaboratorAndPusherRules: who may audit by live role, by push and
// with an unattributed commit; each row's review by ann at the head.
func TestCollaboratorAndPusherRules(t *testing.T) {
	tests := []struct {
		name    string
		edit    func(*Input)
		outcome string
		reason  string // the review's ignored reason; "" when it counts
	}{
		{"write", func(in *Input) {}, OutcomePassed, ""},
		{"maintain", func(in *Input) { in.Permissions = map[string]string{"ann": "maintain"} }, OutcomePassed, ""},
		{"admin, login in another case", func(in *Input) { in.Permissions = map[string]string{"ANN": "admin"} }, OutcomePassed, ""},
		{"no permission", func(in *Input) { in.Permissions = map[string]string{"ann": "none"} }, OutcomeMissing,
			`ann's permission on this repository is "none"; an auditor is a collaborator with write, maintain or admin`},
		{"read", func(in *Input) { in.Permissions = map[string]string{"ann": "read"} }, OutcomeMissing,
			`ann's permission on this repository is "read"; an auditor is a collaborator with write, maintain or admin`},
		{"triage without audit_triage", func(in *Input) { in.Permissions = map[string]string{"ann": "triage"} }, OutcomeMissing,
			"ann's role on this repository is triage; an auditor needs write, maintain or admin (or triage, when the config sets audit_triage: true)"},
		{"triage with audit_triage", func(in *Input) { in.Permissions, in.AuditTriage = map[string]string{"ann": "triage"}, true }, OutcomePassed, ""},
		{"permission not read", func(in *Input) { in.Permissions = nil }, OutcomeMissing,
			"ann's permission on this repository could not be read, so the review does not count yet; aepgate reads it again on the next evaluation"},
		{"listed but read only", func(in *Input) { in.Auditors, in.Permissions = []string{"ann"}, map[string]string{"ann": "read"} }, OutcomeMissing,
			`ann's permission on this repository is "read"; an auditor is a collaborator with write, maintain or admin`},
		{"the pusher", func(in *Input) { in.Pushers = []Push{{SHA: shaA, Login: "exec"}, {SHA: head, Login: "Ann"}} }, OutcomeMissing,
			"ann pushed commit cccccccccccc to this pull request; whoever pushed the change cannot audit it"},
		{"another pusher", func(in *Input) { in.Pushers = []Push{{SHA: head, Login: "exec"}} }, OutcomePassed, ""},
		{"an unattributed commit, no auditors", func(in *Input) { in.Commits = append(in.Commits, robot) }, OutcomeMissing,
			"commit cccccccccccc is authored by Build Robot <robot@corp.example> and committed by Build Robot <robot@corp.example>, linked to no GitHub account, so who wrote it cannot be told apart from any reviewer; with no auditors configured nobody may audit this pull request: list the auditors in .github/aepgate.yml on the default branch (auditors: [login, ...])"},
		{"an unattributed commit, a listed auditor", func(in *Input) { in.Commits, in.Auditors = append(in.Commits, robot), []string{"ann"} }, OutcomePassed, ""},
		{"one side linked", func(in *Input) { c := robot; c.CommitterLogin = "exec"; in.Commits = append(in.Commits, c) }, OutcomePassed, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := with(fixture(RiskMedium), []Review{rev(9, "ann", head, pass(), 1)})
			in.Permissions = map[string]string{"ann": "write"}
			tt.edit(&in)
			d := Evaluate(in)
			got := ""
			if len(d.Ignored) > 0 {
				got = d.Ignored[0].Reason
			}
			if diff := cmp.Diff(tt.outcome+"|"+tt.reason, d.Outcome+"|"+got); diff != "" {
				t.Errorf("outcome|reason (-want +got):\n%s", diff)
			}
		})
	}
}

// TestUnattributedMissingReason: with no review yet, the audit already
// says that nobody may audit and how to fix it.
func TestUnattributedMissingReason(t *testing.T) {
	in := fixture(RiskMedium)
	in.Commits = append(in.Commits, robot)
	d := Evaluate(in)
	if d.Outcome != OutcomeMissing || !strings.Contains(d.Reason, "list the auditors in .github/aepgate.yml") {
		t.Errorf("got %s: %s", d.Outcome, d.Reason)
	}
	in.Auditors = []string{"ann"}
	if d := Evaluate(in); strings.Contains(d.Reason, "linked to no GitHub account") {
		t.Errorf("with auditors listed: %s", d.Reason)
	}
}

// TestCollaboratorNegativeControls: each attack is refused with every rule
// and passes with its one rule removed.
func TestCollaboratorNegativeControls(t *testing.T) {
	base := func(edit func(*Input)) Input {
		in := with(fixture(RiskMedium), []Review{rev(9, "ann", head, pass(), 1)})
		in.Permissions = map[string]string{"ann": "write"}
		edit(&in)
		return in
	}
	tests := []struct {
		name, rule string
		in         Input
	}{
		{"a stranger audits", "collaborator", base(func(in *Input) { in.Permissions = map[string]string{"ann": "none"} })},
		{"a reader audits", "collaborator", base(func(in *Input) { in.Permissions = map[string]string{"ann": "read"} })},
		{"the pusher of an unlinked commit audits", "not-pusher", base(func(in *Input) {
			in.Commits, in.Auditors = append(in.Commits, robot), []string{"ann"}
			in.Pushers = []Push{{SHA: head, Login: "ann"}}
		})},
		{"anyone audits an unattributed commit", "unattributed-needs-listed", base(func(in *Input) { in.Commits = append(in.Commits, robot) })},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if d := Evaluate(tt.in); d.Outcome == OutcomePassed {
				t.Fatalf("with every rule the attack passes: %s", d.Reason)
			}
			if d := EvaluateOptions(tt.in, withoutRule(tt.rule)); d.Outcome != OutcomePassed {
				t.Errorf("without %s: %s (%s); want passed", tt.rule, d.Outcome, d.Reason)
			}
		})
	}
}
