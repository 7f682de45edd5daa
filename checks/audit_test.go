package checks

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/aepgate/aepgate/internal/testkit/golden"
	"github.com/aepgate/aepgate/protocol/command"
	"github.com/aepgate/aepgate/review"
)

// auditFixture is pull request #21 of work unit #42 by exec at head sha,
// with an earlier commit appSHA(1) and reviews added by the cases.
type auditFixture struct {
	in   review.Input
	repo map[string]map[string]string
}

const auditAuth = "package auth\n\nfunc Check(token string) bool {\n\treturn token != \"\"\n}\n"

func newAuditFixture(risk string) *auditFixture {
	return &auditFixture{
		in: review.Input{Risk: risk, Head: sha, Unit: 42, PR: 21, PRAuthor: review.Actor{Login: "exec", Type: "User"},
			Commits:     []review.Commit{{SHA: sha, AuthorLogin: "exec", CommitterLogin: "exec"}},
			Corrections: 1, Exchanges: 3},
		repo: map[string]map[string]string{
			appSHA(1): {"src/auth.go": auditAuth, "src/store.go": "package store\n\nvar cache = map[string]string{}\n"},
			sha:       {"src/auth.go": auditAuth + "// checked\n", "src/store.go": "package store\n\nvar cache = map[string]string{}\n"},
		},
	}
}

func (f *auditFixture) review(id int64, login, at string, a *review.Audit, min int) *auditFixture {
	body, _ := json.MarshalIndent(a, "", "  ")
	r := review.Review{ID: id, URL: "https://github.com/acme/w/pull/21#pullrequestreview-" + strings.Repeat("1", int(id%9)+1), Author: review.Actor{Login: login, Type: "User"},
		CommitSHA: at, State: review.StateCommented, Body: "```aep-audit\n" + string(body) + "\n```", Submitted: time.Date(2025, 3, 1, 9, min, 0, 0, time.UTC)}
	for _, p := range a.EvidencePaths() {
		content, ok := f.repo[at][p]
		r.Bundle = append(r.Bundle, review.File{Path: p, Content: []byte(content), Missing: !ok})
	}
	f.in.Reviews = append(f.in.Reviews, r)
	if f.in.Permissions == nil {
		f.in.Permissions = map[string]string{}
	}
	f.in.Permissions[login] = "write" // every reviewer here is a collaborator
	return f
}

func (f *auditFixture) dispose(id int64, login, finding, kind string, min int) *auditFixture {
	f.in.Dispositions = append(f.in.Dispositions, review.Disposition{CommentID: id, URL: "https://github.com/acme/w/pull/21#issuecomment-9", Author: review.Actor{Login: login, Type: "User"},
		FindingID: finding, Kind: kind, Reason: "see the commit", Created: time.Date(2025, 3, 1, 9, min, 0, 0, time.UTC)})
	return f
}

func auditPass(js ...review.Judgement) *review.Audit {
	return &review.Audit{SchemaVersion: 1, WorkUnit: "#42", Verdict: review.VerdictPass, Summary: "Tokens are checked.",
		Verification: []review.Verification{{Check: "go test ./auth/...", Outcome: "pass", Evidence: []review.Evidence{{Path: "src/store.go", Quote: "var cache = map[string]string{}"}}}}, Verdicts: js}
}

func auditFail(at string) *review.Audit {
	quote := "\treturn token != \"\"\n}"
	return &review.Audit{SchemaVersion: 1, WorkUnit: "#42", Verdict: review.VerdictFail, Summary: "Empty tokens | pass.",
		Findings: []review.Finding{
			{ID: "F1", Severity: "high", Requirement: "a token is verified against the store, not only checked for emptiness", Remedy: "look the token up", Evidence: []review.Evidence{{Path: "src/auth.go", Quote: quote}}},
			{ID: "F2", Severity: "medium", Requirement: "<script>the cache</script> is bounded", Remedy: "use an LRU", Evidence: []review.Evidence{{Path: "src/auth.go", Quote: "package auth"}}},
		}}
}

func TestRenderAudit(t *testing.T) {
	ctx := AuditContext{Unit: 42, PR: 21, Risk: "medium", PRURL: "https://github.com/acme/w/pull/21"}
	high := ctx
	high.Risk = "high"
	tampered := high
	tampered.ContractTamper = "the contract was changed by `bob`, who may not change it, so the kept contract counts (risk lowered from high to low); an owner or coordinator edits the issue to make a change count"
	needs := &review.Audit{SchemaVersion: 1, WorkUnit: "#42", Verdict: review.VerdictNeedsEvidence, Summary: "s",
		EvidenceRequests: []string{"the go test output at this head", "where tokens are stored"}}
	badQuote := auditPass()
	badQuote.Verification[0].Evidence[0].Quote = "var cache map[string]string"
	tests := []struct {
		file string
		ctx  AuditContext
		f    *auditFixture
		want Conclusion
	}{
		{"audit-passed.golden", ctx, newAuditFixture("medium").review(1, "ann", appSHA(1), auditFail(appSHA(1)), 1).dispose(7, "exec", "F1@r1", "fixed", 2).
			dispose(8, "exec", "F2@r1", "refuted", 3).review(2, "bob", sha, auditPass(review.Judgement{FindingID: "F1@r1", Verdict: review.Agree, Evidence: []review.Evidence{{Path: "src/auth.go", Quote: "// checked"}}}), 4).
			review(3, "exec", sha, auditPass(), 5), ConclusionSuccess},
		{"audit-owner.golden", high, newAuditFixture("high").review(2, "bob", sha, auditPass(), 4), ConclusionActionRequired},
		{"audit-failed.golden", ctx, newAuditFixture("medium").review(1, "ann", sha, auditFail(sha), 1).dispose(7, "exec", "F2@r1", "outside_scope", 2), ConclusionFailure},
		{"audit-bounds.golden", ctx, newAuditFixture("medium").review(1, "ann", appSHA(1), auditFail(appSHA(1)), 1).review(2, "ann", sha, auditFail(sha), 4), ConclusionActionRequired},
		{"audit-invalid.golden", ctx, newAuditFixture("medium").review(2, "bob", sha, badQuote, 4), ConclusionFailure},
		{"audit-stale.golden", ctx, newAuditFixture("medium").review(2, "bob", appSHA(1), auditPass(), 4), ConclusionFailure},
		{"audit-missing.golden", ctx, newAuditFixture("medium").review(3, "exec", sha, auditPass(), 5), ConclusionFailure},
		{"audit-needs-evidence.golden", ctx, newAuditFixture("medium").review(2, "bob", sha, needs, 4), ConclusionActionRequired},
		{"audit-not-required.golden", AuditContext{Unit: 42, PR: 21, Risk: "low"}, newAuditFixture("low"), ConclusionSuccess},
		{"audit-tampered.golden", tampered, newAuditFixture("high"), ConclusionFailure},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			run := Audit(sha, tt.ctx, review.Evaluate(tt.f.in))
			if run.Conclusion != tt.want {
				t.Errorf("conclusion %s, want %s", run.Conclusion, tt.want)
			}
			if err := Validate(Fit(run)); err != nil {
				t.Errorf("rendered run is invalid: %v", err)
			}
			text := dumpApp(run) + "--- details\n" + run.DetailsURL + "\n"
			if cmds := command.Parse(text, ""); len(cmds) != 0 {
				t.Errorf("rendered text holds commands, which a replay would read: %+v", cmds)
			}
			if strings.Contains(run.Summary, "<script>") {
				t.Errorf("summary holds raw HTML from the review")
			}
			golden.CheckString(t, filepath.Join("testdata", tt.file), text)
		})
	}
}

func TestAuditConclusions(t *testing.T) {
	tests := map[string]Conclusion{
		review.OutcomeNotRequired: ConclusionSuccess, review.OutcomePassed: ConclusionSuccess,
		review.OutcomeFailed: ConclusionFailure, review.OutcomeInvalid: ConclusionFailure, review.OutcomeStale: ConclusionFailure,
		review.OutcomeMissing: ConclusionFailure, review.OutcomeOwner: ConclusionActionRequired, review.OutcomeNeedsEvidence: ConclusionActionRequired,
		"": ConclusionFailure, "bogus": ConclusionFailure,
	}
	for outcome, want := range tests {
		if got := Audit(sha, AuditContext{}, review.Decision{Outcome: outcome}).Conclusion; got != want {
			t.Errorf("%q: %s, want %s", outcome, got, want)
		}
	}
	levels := map[string]Level{"critical": LevelFailure, "high": LevelFailure, "medium": LevelWarning, "low": LevelNotice, "": LevelNotice}
	for s, want := range levels {
		if got := severityLevel(s); got != want {
			t.Errorf("severity %q: %s, want %s", s, got, want)
		}
	}
}
