package review

import (
	"fmt"
	"strings"

	"github.com/aepgate/aepgate/protocol/gitsha"
)

// decide turns the walk into a Decision.
func (w *walk) decide() Decision {
	d := Decision{Ignored: append(w.ignored, w.dropped...), Fails: len(w.failSHAs)}
	for _, e := range w.ledger.order {
		d.Findings = append(d.Findings, e.OpenFinding)
		if !e.Closed {
			d.Exchanges = max(d.Exchanges, e.exchanges)
		}
	}
	var newest *audited
	if n := len(w.counting); n > 0 {
		newest = w.counting[n-1]
		d.Review, d.Audit, d.AuditedSHA, d.BundleID = newest.r, newest.a, newest.r.CommitSHA, newest.checked.BundleID
	}
	owner := w.ownerCause()
	switch {
	case w.in.Risk == RiskLow:
		d.Outcome, d.Reason = OutcomeNotRequired, "Work unit risk is low, so no audit is required."
	case owner != nil:
		w.owner(&d, owner)
	case newest == nil:
		d.Outcome, d.Reason = OutcomeMissing, w.missingReason()
	case w.o.Binding(*newest.r, w.in) != "":
		d.Outcome, d.Reason = OutcomeStale, w.o.Binding(*newest.r, w.in)
	case len(newest.probs) > 0:
		d.Outcome, d.Problems = OutcomeInvalid, newest.probs
		d.Reason = fmt.Sprintf("Review %d by %s breaks the audit contract (%s, first %s); the auditor submits a new review that fixes it.",
			newest.r.ID, newest.r.Author.Login, plural(len(newest.probs), "problem"), newest.probs[0].Error())
	default:
		w.verdict(&d, newest)
	}
	return d
}

// verdict decides from a valid audit at the head.
func (w *walk) verdict(d *Decision, au *audited) {
	who, at := au.r.Author.Login, gitsha.Short(au.r.CommitSHA)
	switch au.a.Verdict {
	case VerdictFail:
		d.Outcome = OutcomeFailed
		d.Reason = fmt.Sprintf("The audit by %s at %s is a FAIL with %s; fix them, or propose a disposition of each with the dispose command, and ask for a re-audit.",
			who, at, plural(len(au.a.Findings), "finding"))
	case VerdictNeedsEvidence:
		d.Outcome = OutcomeNeedsEvidence
		d.Reason = fmt.Sprintf("The auditor %s needs evidence before judging %s: %s. Add it and ask for a re-audit.", who, at, strings.Join(au.a.EvidenceRequests, "; "))
	case VerdictPass:
		if w.in.Risk == RiskMedium {
			d.Outcome, d.Reason = OutcomePassed, fmt.Sprintf("Independent PASS by %s at %s.", who, at)
			return
		}
		w.owner(d, &cause{kind: CausePass, text: fmt.Sprintf("work unit risk is %s and %s's independent PASS at %s needs the owner's approval", riskName(w.in.Risk), who, at)})
	}
}

func riskName(r string) string {
	if r == RiskHigh {
		return r
	}
	return fmt.Sprintf("%q, treated as high", r)
}

// missingReason says who may audit.
func (w *walk) missingReason() string {
	if c, ok := unattributed(w.in.Commits); ok && len(w.in.Auditors) == 0 {
		return fmt.Sprintf("No independent audit of %s can count: %s.", gitsha.Short(w.in.Head), unattributedReason(c))
	}
	who := "a collaborator with write access who neither opened this pull request nor wrote, committed or pushed any of its commits"
	if len(w.in.Auditors) > 0 {
		who = "one of the auditors (" + strings.Join(w.in.Auditors, ", ") + ") who did not write this change"
	}
	return fmt.Sprintf("No independent audit of %s yet: %s%s submits a review with an aep-audit block at this head.", gitsha.Short(w.in.Head), who, notInstructors(w.in.Instructed))
}

func plural(n int, noun string) string {
	if n == 1 {
		return fmt.Sprintf("1 %s", noun)
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
