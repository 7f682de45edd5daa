package review

import (
	"fmt"
	"slices"
	"strings"
)

// VerdictRule is one rule of what a verdict needs, judged on the block
// alone: Check returns its problems, nil when the rule holds.
type VerdictRule struct {
	Name  string
	Check func(*Audit) Problems
}

// DefaultVerdictRules are the verdict rules of the review contract
// (docs/audit.md), in the order their problems are reported.
func DefaultVerdictRules() []VerdictRule {
	return []VerdictRule{
		{"fail-needs-finding", FailNeedsFinding},
		{"needs-evidence-request", NeedsEvidenceRequest},
		{"pass-needs-passing-verification", PassNeedsPassingVerification},
		{"pass-no-failed-verification", PassNoFailedVerification},
		{"pass-is-clean", PassIsClean},
		{"verification-evidence", VerificationEvidence},
	}
}

// WithoutVerdictRule returns rules minus the one called name (for a
// negative control).
func WithoutVerdictRule(rules []VerdictRule, name string) []VerdictRule {
	return slices.DeleteFunc(slices.Clone(rules), func(r VerdictRule) bool { return r.Name == name })
}

// FailNeedsFinding: a FAIL names the findings it rests on.
func FailNeedsFinding(a *Audit) Problems {
	var ps Problems
	if a.Verdict == VerdictFail && len(a.Findings) == 0 {
		ps.add("$.findings", "too few entries (at least 1): a FAIL names the findings it rests on")
	}
	return ps
}

// NeedsEvidenceRequest: NEEDS_EVIDENCE says which evidence is missing.
func NeedsEvidenceRequest(a *Audit) Problems {
	var ps Problems
	if a.Verdict == VerdictNeedsEvidence && len(a.EvidenceRequests) == 0 {
		ps.add("$.evidence_requests", "too few entries (at least 1): NEEDS_EVIDENCE says precisely which evidence is missing")
	}
	return ps
}

// PassNeedsPassingVerification: a PASS has at least one verification with
// outcome pass. (Which open findings a PASS may leave is judged against the
// ledger and the configured blocking severities: PassProblems.)
func PassNeedsPassingVerification(a *Audit) Problems {
	var ps Problems
	if a.Verdict == VerdictPass && !slices.ContainsFunc(a.Verification, func(v Verification) bool { return v.Outcome == OutcomePass }) {
		ps.add("$.verification", "a PASS needs at least one verification with outcome pass")
	}
	return ps
}

// PassNoFailedVerification: a clean verdict has no failed verification.
func PassNoFailedVerification(a *Audit) Problems {
	var ps Problems
	if a.Verdict != VerdictPass {
		return nil
	}
	for i, v := range a.Verification {
		if v.Outcome == OutcomeFail {
			ps.add(fmt.Sprintf("$.verification[%d].outcome", i), "a PASS has no failed verification, and %q failed: the verdict is FAIL (with a finding) or NEEDS_EVIDENCE", v.Check)
		}
	}
	return ps
}

// PassIsClean: a PASS is a clean verdict, so it carries no new finding
// (of any severity) and no evidence request (cross-agent review's CLEAN).
// Its judgements of earlier findings (verdicts) are the ledger's business.
func PassIsClean(a *Audit) Problems {
	if a.Verdict != VerdictPass || len(a.Findings) == 0 && len(a.EvidenceRequests) == 0 {
		return nil
	}
	var carries []string
	if len(a.Findings) > 0 {
		names := make([]string, len(a.Findings))
		for i, f := range a.Findings {
			names[i] = fmt.Sprintf("%s (%s)", f.ID, f.Severity)
		}
		carries = append(carries, plural(len(names), "new finding")+" "+strings.Join(names, ", "))
	}
	if len(a.EvidenceRequests) > 0 {
		names := make([]string, len(a.EvidenceRequests))
		for i, r := range a.EvidenceRequests {
			names[i] = fmt.Sprintf("$.evidence_requests[%d] (%q)", i, clip(r, 60))
		}
		carries = append(carries, plural(len(names), "open evidence request")+" "+strings.Join(names, ", "))
	}
	var ps Problems
	ps.add("$.verdict", "a PASS carries %s: a clean verdict has none; make the verdict FAIL or NEEDS_EVIDENCE, or leave them out once settled",
		strings.Join(carries, " and "))
	return ps
}

// clip shortens s to at most n runes, marking a cut with "…".
func clip(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

// VerificationEvidence: every verification, pass or fail, quotes at least
// one piece of exact evidence (whether the quote occurs is the bundle's
// verbatim rule).
func VerificationEvidence(a *Audit) Problems {
	var ps Problems
	for i, v := range a.Verification {
		if len(v.Evidence) == 0 {
			ps.add(fmt.Sprintf("$.verification[%d].evidence", i), "too few entries (at least 1): every verification, pass or fail, quotes the exact evidence it rests on ({path, quote} of a file at the audited commit)")
		}
	}
	return ps
}

// verdictProblems applies rules to a.
func verdictProblems(a *Audit, rules []VerdictRule) Problems {
	var ps Problems
	for _, r := range rules {
		ps = append(ps, r.Check(a)...)
	}
	return ps
}
