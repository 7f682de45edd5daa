package review

import (
	"fmt"
	"slices"
)

// rules checks what the schema alone cannot: the work unit's form, unique
// finding IDs, judgements naming ledger IDs, and what each verdict needs.
func (a *Audit) rules() Problems {
	var ps Problems
	if a.WorkUnit != "" && a.Unit() == 0 {
		ps.add("$.work_unit", "must name the work unit as #N, e.g. #42 (got %q)", a.WorkUnit)
	}
	seen := map[string]int{}
	for i, f := range a.Findings {
		p := fmt.Sprintf("$.findings[%d].id", i)
		switch first, dup := seen[f.ID]; {
		case f.ID == "":
		case !validID(f.ID):
			ps.add(p, "%q must be 1 to 64 letters, digits, dots, dashes or underscores", f.ID)
		case dup:
			ps.add(p, "%q is also the id of $.findings[%d]; finding ids are unique within a review", f.ID, first)
		default:
			seen[f.ID] = i
		}
	}
	ps = append(ps, a.judgementRules()...)
	return append(ps, a.verdictRules()...)
}

// judgementRules: each judgement names a ledger ID once, and
// DISAGREE_EVIDENCE carries evidence.
func (a *Audit) judgementRules() Problems {
	var ps Problems
	seen := map[string]int{}
	for i, j := range a.Verdicts {
		p := fmt.Sprintf("$.verdicts[%d]", i)
		if first, dup := seen[j.FindingID]; dup && j.FindingID != "" {
			ps.add(p+".finding_id", "%s is also judged by $.verdicts[%d]; judge a finding once", j.FindingID, first)
		}
		seen[j.FindingID] = i
		if _, _, ok := SplitLedgerID(j.FindingID); !ok && j.FindingID != "" {
			ps.add(p+".finding_id", "%q is not a ledger ID; earlier findings are named <id>@r<review-id>, e.g. F1@r7", j.FindingID)
		}
		if j.Verdict == DisagreeEvidence && len(j.Evidence) == 0 {
			ps.add(p+".evidence", "too few entries (at least 1): DISAGREE_EVIDENCE quotes the evidence it rests on; without evidence it is DISAGREE_CONCERN")
		}
	}
	return ps
}

// verdictRules: FAIL needs a finding, NEEDS_EVIDENCE a request, PASS a
// passing verification. (Which open findings a PASS may leave is judged
// against the ledger and the configured blocking severities: PassProblems.)
func (a *Audit) verdictRules() Problems {
	var ps Problems
	switch a.Verdict {
	case VerdictFail:
		if len(a.Findings) == 0 {
			ps.add("$.findings", "too few entries (at least 1): a FAIL names the findings it rests on")
		}
	case VerdictNeedsEvidence:
		if len(a.EvidenceRequests) == 0 {
			ps.add("$.evidence_requests", "too few entries (at least 1): NEEDS_EVIDENCE says precisely which evidence is missing")
		}
	case VerdictPass:
		if !slices.ContainsFunc(a.Verification, func(v Verification) bool { return v.Outcome == OutcomePass }) {
			ps.add("$.verification", "a PASS needs at least one verification with outcome pass")
		}
	}
	return ps
}

// PassProblems returns the findings of a PASS at a blocking severity (nil
// means DefaultBlocking): a PASS leaves none of its own open. Findings of
// earlier reviews are the ledger's business (Evaluate).
func (a *Audit) PassProblems(blocking []string) Problems {
	if a.Verdict != VerdictPass {
		return nil
	}
	if blocking == nil {
		blocking = DefaultBlocking
	}
	var ps Problems
	for i, f := range a.Findings {
		if slices.Contains(blocking, f.Severity) {
			ps.add(fmt.Sprintf("$.findings[%d].severity", i), "a PASS leaves no %s finding open; the verdict is FAIL", f.Severity)
		}
	}
	return ps
}
