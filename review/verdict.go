package review

import (
	"fmt"
	"slices"
)

// rules checks what the schema alone cannot: the work unit's form, unique
// finding IDs and judgements naming ledger IDs. What each verdict needs is
// the VerdictRules' business.
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
	return append(ps, a.judgementRules()...)
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
