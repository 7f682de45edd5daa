package review

import (
	"fmt"
	"slices"
	"time"
)

// entry is one finding of the ledger as the walk builds it.
type entry struct {
	OpenFinding
	finding Finding
	review  *Review
	// exchanges counts the finding, each disposition and each judgement.
	exchanges int
	// lastSHA and lastAt are the commit and time of the last review of
	// the finding's thread (the one that found it or last judged it).
	lastSHA string
	lastAt  time.Time
	// unresolved: the last rejection came with no new commit since the
	// previous review of the thread.
	unresolved bool
}

// ledger is every finding of the counting, valid audits, by ledger ID.
type ledger struct {
	order []*entry
	byID  map[string]*entry
	// disps are the counting dispositions, by ledger ID, oldest first.
	disps map[string][]Disposition
	// closing are the rules an AGREE passes to close a finding.
	closing []ClosingRule
}

// add records the findings of a valid audit.
func (l *ledger) add(r *Review, a *Audit, c Checked) {
	for _, f := range a.Findings {
		e := &entry{finding: f, review: r, exchanges: 1, lastSHA: r.CommitSHA, lastAt: r.Submitted}
		e.OpenFinding = OpenFinding{LedgerID: LedgerID(f.ID, r.ID), Severity: f.Severity, Requirement: f.Requirement,
			Remedy: f.Remedy, AuditedSHA: r.CommitSHA, Auditor: r.Author.Login, Status: StatusOpen}
		if loc, ok := c.Quotes[f.Evidence[0]]; ok {
			e.Location = &loc
		}
		l.order = append(l.order, e)
		l.byID[e.LedgerID] = e
	}
}

// pending is the disposition of e an auditor's review at `at` judges: the
// latest one made after the thread's last review and before at.
func (l *ledger) pending(e *entry, at time.Time) *Disposition {
	ds := l.disps[e.LedgerID]
	for i := len(ds) - 1; i >= 0; i-- {
		if ds[i].Created.Before(at) && ds[i].Created.After(e.lastAt) {
			return &ds[i]
		}
	}
	return nil
}

// closes reports whether judgement j in review r closes e: AGREE with a
// pending disposition the closing rules let through, or DISAGREE_EVIDENCE
// when none is pending (the finding refuted with evidence). A concern never
// closes a finding. refused says why an AGREE with a pending disposition
// does not close it.
func (l *ledger) closes(e *entry, j Judgement, r *Review) (ok bool, refused string) {
	if e.Closed {
		return false, ""
	}
	d := l.pending(e, r.Submitted)
	switch {
	case j.Verdict == Agree && d != nil:
		if why := closingRefusal(l.closing, e, *d, r); why != "" {
			return false, why
		}
		return true, ""
	case j.Verdict == DisagreeEvidence && d == nil:
		return true, ""
	}
	return false, ""
}

// judge applies judgement j of review r to e; a judgement of a closed
// finding changes nothing. An AGREE the closing rules refuse leaves the
// disposition proposed, with the reason.
func (l *ledger) judge(e *entry, j Judgement, r *Review) {
	if e.Closed {
		return
	}
	d := l.pending(e, r.Submitted)
	closes, refused := l.closes(e, j, r)
	switch {
	case closes && d != nil:
		e.Status, e.Closed, e.Disposition, e.By = StatusClosed, true, d.Kind, r.Author.Login
	case closes:
		e.Status, e.Closed, e.Disposition, e.By = StatusClosed, true, "refuted", r.Author.Login
	case refused != "":
		e.Status, e.Disposition, e.By, e.Refused = StatusProposed, d.Kind, d.Author.Login, refused
	case d != nil && j.Verdict != Agree:
		e.Status, e.Disposition, e.By = StatusRejected, d.Kind, d.Author.Login
		e.unresolved = r.CommitSHA == e.lastSHA
	}
	e.exchanges++
	e.lastSHA, e.lastAt = r.CommitSHA, r.Submitted
}

// judgementProblems checks that each judgement of a names a finding of an
// earlier counting audit.
func (l *ledger) judgementProblems(a *Audit) Problems {
	var ps Problems
	for i, j := range a.Verdicts {
		if _, ok := l.byID[j.FindingID]; !ok && j.FindingID != "" {
			ps.add(fmt.Sprintf("$.verdicts[%d].finding_id", i), "%s is not a finding of an earlier counting audit of this pull request", j.FindingID)
		}
	}
	return ps
}

// left is a blocking finding a review leaves open, and why its AGREE was
// refused when it was.
type left struct {
	*entry
	refused string
}

// openAfter returns the blocking findings of the ledger a review's
// judgements leave open.
func (l *ledger) openAfter(a *Audit, r *Review, blocking []string) []left {
	var out []left
	for _, e := range l.order {
		if e.Closed || !slices.Contains(blocking, e.Severity) {
			continue
		}
		i := slices.IndexFunc(a.Verdicts, func(j Judgement) bool { return j.FindingID == e.LedgerID })
		if i < 0 {
			out = append(out, left{e, ""})
		} else if ok, refused := l.closes(e, a.Verdicts[i], r); !ok {
			out = append(out, left{e, refused})
		}
	}
	return out
}

// apply records a valid audit's judgements, then its findings.
func (l *ledger) apply(r *Review, a *Audit, c Checked) {
	for _, j := range a.Verdicts {
		if e := l.byID[j.FindingID]; e != nil {
			l.judge(e, j, r)
		}
	}
	l.add(r, a, c)
}

// settle finishes the ledger after the walk: dispositions made after the
// thread's last review become proposals and count as exchanges.
func (l *ledger) settle() {
	for _, e := range l.order {
		for _, d := range l.disps[e.LedgerID] {
			if d.Created.After(e.review.Submitted) {
				e.exchanges++
			}
			if !e.Closed && d.Created.After(e.lastAt) {
				e.Status, e.Disposition, e.By = StatusProposed, d.Kind, d.Author.Login
			}
		}
	}
}
