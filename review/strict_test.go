package review

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestVerdictRules shows each strict verdict rule refusing its attack with
// its own message, and the attack passing once that one rule is left out
// (its negative control).
func TestVerdictRules(t *testing.T) {
	failed := pass()
	failed.Verification = append(failed.Verification, Verification{Check: "go vet ./...", Outcome: OutcomeFail, Evidence: []Evidence{{"src/auth.go", "package auth"}}})
	bare := pass()
	bare.Verification[0].Evidence = nil
	bareFail := failing(finding("F1", "tokens are checked"))
	bareFail.Verification = []Verification{{Check: "go test ./...", Outcome: OutcomeFail}}
	medium := pass()
	medium.Findings = []Finding{{ID: "F3", Severity: "medium", Requirement: "errors are wrapped", Remedy: "wrap it", Evidence: []Evidence{{"src/auth.go", "func Check("}}}}
	low := pass()
	low.Findings = []Finding{{ID: "F1", Severity: "low", Requirement: "names are clear", Remedy: "rename", Evidence: []Evidence{{"src/auth.go", "func Check("}}}}
	asking := pass()
	asking.EvidenceRequests = []string{"the CI log of the run that passed"}
	both := pass()
	both.Findings = append(low.Findings, medium.Findings...)
	both.EvidenceRequests = []string{"the CI log", "the threat model"}
	tests := []struct {
		name, rule string
		a          *Audit
		want       string
	}{
		{"a PASS beside a failed verification", "pass-no-failed-verification", failed,
			`$.verification[1].outcome: a PASS has no failed verification, and "go vet ./..." failed: the verdict is FAIL (with a finding) or NEEDS_EVIDENCE`},
		{"a passing verification without evidence", "verification-evidence", bare,
			"$.verification[0].evidence: too few entries (at least 1): every verification, pass or fail, quotes the exact evidence it rests on ({path, quote} of a file at the audited commit)"},
		{"a failed verification without evidence", "verification-evidence", bareFail,
			"$.verification[0].evidence: too few entries (at least 1): every verification, pass or fail, quotes the exact evidence it rests on ({path, quote} of a file at the audited commit)"},
		{"a PASS carrying a new medium finding", "pass-is-clean", medium,
			"$.verdict: a PASS carries 1 new finding F3 (medium): a clean verdict has none; make the verdict FAIL or NEEDS_EVIDENCE, or leave them out once settled"},
		{"a PASS carrying a new low finding", "pass-is-clean", low,
			"$.verdict: a PASS carries 1 new finding F1 (low): a clean verdict has none; make the verdict FAIL or NEEDS_EVIDENCE, or leave them out once settled"},
		{"a PASS with an open evidence request", "pass-is-clean", asking,
			`$.verdict: a PASS carries 1 open evidence request $.evidence_requests[0] ("the CI log of the run that passed"): a clean verdict has none; make the verdict FAIL or NEEDS_EVIDENCE, or leave them out once settled`},
		{"a PASS with findings and evidence requests", "pass-is-clean", both,
			`$.verdict: a PASS carries 2 new findings F1 (low), F3 (medium) and 2 open evidence requests $.evidence_requests[0] ("the CI log"), $.evidence_requests[1] ("the threat model"): a clean verdict has none; make the verdict FAIL or NEEDS_EVIDENCE, or leave them out once settled`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, ps := Parse(body(tt.a))
			if diff := cmp.Diff([]string{tt.want}, problemStrings(ps)); diff != "" {
				t.Errorf("with every rule (-want +got):\n%s", diff)
			}
			if _, ps := ParseWith(body(tt.a), WithoutVerdictRule(DefaultVerdictRules(), tt.rule)); len(ps) > 0 {
				t.Errorf("without %s: %v, want the attack to pass", tt.rule, ps)
			}
		})
	}
}

// TestPassIsCleanLeavesTheRest: the clean-PASS rule judges only a PASS's
// own new findings and evidence requests: a PASS judging earlier findings
// (any judgement), a FAIL with findings and requests, and a NEEDS_EVIDENCE
// with a finding stay valid.
func TestPassIsCleanLeavesTheRest(t *testing.T) {
	f := Finding{ID: "F2", Severity: "low", Requirement: "names are clear", Remedy: "rename", Evidence: []Evidence{{"src/auth.go", "func Check("}}}
	failWithRequest := failing(f)
	failWithRequest.EvidenceRequests = []string{"the CI log"}
	needs := &Audit{SchemaVersion: 1, WorkUnit: "#42", Verdict: VerdictNeedsEvidence, Summary: "unclear", Findings: []Finding{f}, EvidenceRequests: []string{"the CI log"}}
	for name, a := range map[string]*Audit{
		"a PASS judging earlier findings": pass(judge("F1@r1", Agree), judge("F2@r1", DisagreeConcern), judge("F3@r1", DisagreeEvidence, Evidence{"src/auth.go", "func Check("})),
		"a FAIL with a request":           failWithRequest,
		"a NEEDS_EVIDENCE with a finding": needs,
	} {
		t.Run(name, func(t *testing.T) {
			if got := PassIsClean(a); len(got) > 0 {
				t.Errorf("PassIsClean = %v, want none", got)
			}
			if _, ps := Parse(body(a)); len(ps) > 0 {
				t.Errorf("Parse = %v, want valid", ps)
			}
		})
	}
}

// TestPassIsCleanInEvaluate: the App's evaluation refuses a PASS carrying a
// new medium finding as an invalid review, and passes it once the rule is
// left out (the negative control).
func TestPassIsCleanInEvaluate(t *testing.T) {
	a := pass()
	a.Findings = []Finding{{ID: "F3", Severity: "medium", Requirement: "errors are wrapped", Remedy: "wrap it", Evidence: []Evidence{{"src/auth.go", "func Check("}}}}
	in := with(fixture(RiskMedium), []Review{rev(2, "ann", head, a, 10)})
	d := Evaluate(in)
	want := []string{"$.verdict: a PASS carries 1 new finding F3 (medium): a clean verdict has none; make the verdict FAIL or NEEDS_EVIDENCE, or leave them out once settled"}
	if diff := cmp.Diff(want, problemStrings(d.Problems)); d.Outcome != OutcomeInvalid || diff != "" {
		t.Fatalf("outcome %s, want invalid; problems (-want +got):\n%s", d.Outcome, diff)
	}
	o := DefaultOptions()
	o.VerdictRules = WithoutVerdictRule(o.VerdictRules, "pass-is-clean")
	if d := EvaluateOptions(in, o); d.Outcome != OutcomePassed {
		t.Errorf("without pass-is-clean: %s %v, want passed", d.Outcome, d.Problems)
	}
}

// TestVerificationQuoteMustOccur: a verification's quote that does not
// occur at the audited commit makes the PASS invalid (the verbatim bundle
// rule), and it passes once that rule is left out.
func TestVerificationQuoteMustOccur(t *testing.T) {
	a := pass()
	a.Verification[0].Evidence = []Evidence{{"src/auth.go", "ok  \tgithub.com/acme/w/auth"}}
	in := with(fixture(RiskMedium), []Review{rev(2, "ann", head, a, 10)})
	d := Evaluate(in)
	if d.Outcome != OutcomeInvalid || len(d.Problems) != 1 || d.Problems[0].Path != "$.verification[0].evidence[0].quote" {
		t.Fatalf("outcome %s, problems %v; want invalid at $.verification[0].evidence[0].quote", d.Outcome, d.Problems)
	}
	o := DefaultOptions()
	o.BundleRules = withoutBundleRule(o.BundleRules, "verbatim")
	if d := EvaluateOptions(in, o); d.Outcome != OutcomePassed {
		t.Errorf("without verbatim: %s %v, want passed", d.Outcome, d.Problems)
	}
}

// TestFixedNeedsChange: an auditor's AGREE with a fixed disposition closes
// the finding only when a commit after the finding's audited commit changed
// the quoted file, as the two reviews' frozen bundles show; each refusal
// has its own reason, and without the rule every attack passes.
func TestFixedNeedsChange(t *testing.T) {
	med := fixture(RiskMedium)
	f1 := finding("F1", "tokens are checked")
	failA := rev(1, "ann", shaA, failing(f1), 1)
	changed := Evidence{"src/auth.go", "// v3"}
	storeOnly := pass(judge("F1@r1", Agree, Evidence{"src/store.go", "package store"}))
	storeOnly.Verification[0].Evidence = []Evidence{{"src/store.go", "package store"}}
	failHead := rev(1, "ann", head, failing(f1), 1)
	sameCommit := with(med, []Review{failHead, rev(2, "bob", head, pass(judge("F1@r1", Agree)), 10)}, dispose(100, "exec", "F1@r1", "fixed", 5))
	tests := []struct {
		name string
		in   Input
		want string // the reason, "" when it closes
	}{
		{"the quoted file changed since", with(med, []Review{failA, rev(2, "bob", head, pass(judge("F1@r1", Agree, changed)), 10)}, dispose(100, "exec", "F1@r1", "fixed", 5)), ""},
		{"no commit after the audited one", sameCommit,
			"the AGREE with F1@r1's fixed disposition is refused: this review is of cccccccccccc, the commit the finding was made at, so no later commit changed src/auth.go"},
		{"the agreeing review does not cite the file", with(med, []Review{failA, rev(2, "bob", head, storeOnly, 10)}, dispose(100, "exec", "F1@r1", "fixed", 5)),
			"the AGREE with F1@r1's fixed disposition is refused: this review cites none of the files the finding quotes (src/auth.go), so it cannot show that a commit after aaaaaaaaaaaa changed one; quote the changed file in the AGREE's evidence"},
		{"the quoted file is unchanged", unchangedAuth(med, failA),
			"the AGREE with F1@r1's fixed disposition is refused: src/auth.go is unchanged from aaaaaaaaaaaa to cccccccccccc: no commit after the audited commit changed the file the finding quotes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := Evaluate(tt.in)
			if tt.want == "" {
				if d.Outcome != OutcomePassed {
					t.Errorf("outcome %s (%s), want passed", d.Outcome, d.Reason)
				}
				return
			}
			if d.Outcome != OutcomeInvalid || !strings.Contains(d.Reason, tt.want) {
				t.Errorf("outcome %s, reason %q; want invalid naming the refusal", d.Outcome, d.Reason)
			}
			o := DefaultOptions()
			o.Closing = WithoutClosingRule(o.Closing, "fixed-needs-change")
			if d := EvaluateOptions(tt.in, o); d.Outcome != OutcomePassed {
				t.Errorf("without fixed-needs-change: %s (%s), want the AGREE to close it", d.Outcome, d.Reason)
			}
		})
	}
}

// TestRefusedAgreeIsShown: an auditor's FAIL that AGREEs with a fixed
// disposition nothing backs leaves the finding proposed, with the reason.
func TestRefusedAgreeIsShown(t *testing.T) {
	f1 := finding("F1", "tokens are checked")
	again := failing(finding("F2", "sessions expire"))
	again.Verdicts = []Judgement{judge("F1@r1", Agree)}
	in := with(fixture(RiskMedium), []Review{rev(1, "ann", head, failing(f1), 1), rev(2, "bob", head, again, 10)}, dispose(100, "exec", "F1@r1", "fixed", 5))
	d := Evaluate(in)
	if len(d.Findings) != 2 || d.Findings[0].Status != StatusProposed || !strings.Contains(d.Findings[0].Refused, "no later commit changed src/auth.go") {
		t.Errorf("findings %+v, want F1@r1 proposed with the refusal", d.Findings)
	}
}

// unchangedAuth is a pull request whose head leaves src/auth.go as it was
// at shaA, where F1 was found: a fixed disposition then has nothing to
// show.
func unchangedAuth(med Input, failA Review) Input {
	r := rev(2, "bob", head, pass(judge("F1@r1", Agree, Evidence{"src/auth.go", "func Check("})), 10)
	for i := range r.Bundle {
		if r.Bundle[i].Path == "src/auth.go" {
			r.Bundle[i].Content = []byte(repo[shaA]["src/auth.go"])
		}
	}
	return with(med, []Review{failA, r}, dispose(100, "exec", "F1@r1", "fixed", 5))
}

// TestRefusedFixedOnlyForFixed: the rule judges only fixed dispositions;
// an AGREE with outside_scope closes without a changed file.
func TestRefusedFixedOnlyForFixed(t *testing.T) {
	failA := rev(1, "ann", shaA, failing(finding("F1", "tokens are checked")), 1)
	in := unchangedAuth(fixture(RiskMedium), failA)
	in.Dispositions[0].Kind = "outside_scope"
	if d := Evaluate(in); d.Outcome != OutcomePassed {
		t.Errorf("outcome %s (%s), want passed", d.Outcome, d.Reason)
	}
}

func problemStrings(ps Problems) []string {
	out := []string{}
	for _, p := range ps {
		out = append(out, p.Error())
	}
	return out
}

func withoutBundleRule(rules []BundleRule, name string) []BundleRule {
	var out []BundleRule
	for _, r := range rules {
		if r.Name != name {
			out = append(out, r)
		}
	}
	return out
}
