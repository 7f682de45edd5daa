package review

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/aepgate/aepgate/protocol/command"
	"github.com/aepgate/aepgate/protocol/gitsha"
)

// audited is one counting review as the walk checked it.
type audited struct {
	r       *Review
	a       *Audit
	probs   Problems
	checked Checked
}

// walk holds the state of one evaluation.
type walk struct {
	in       *Input
	o        Options
	blocking []string
	ledger   ledger
	counting []*audited
	ignored  []Ignored
	// dropped are the dispositions that count for nothing.
	dropped []Ignored
	// failSHAs are the commits a counting audit failed at, in order.
	failSHAs []string
	// rootCause names the first finding that repeats an earlier one.
	rootCause string
}

func newWalk(in *Input, o Options) *walk {
	w := &walk{in: in, o: o, blocking: in.BlockingSeverities}
	if w.blocking == nil {
		w.blocking = DefaultBlocking
	}
	w.ledger = ledger{byID: map[string]*entry{}, disps: map[string][]Disposition{}, closing: o.Closing}
	ds := slices.Clone(in.Dispositions)
	slices.SortStableFunc(ds, func(a, b Disposition) int {
		return cmp.Or(a.Created.Compare(b.Created), cmp.Compare(a.CommentID, b.CommentID))
	})
	for _, d := range ds {
		if reason := dispositionRefusal(d); reason != "" {
			w.dropped = append(w.dropped, Ignored{CommentID: d.CommentID, Author: d.Author.Login, Reason: reason, URL: d.URL})
			continue
		}
		w.ledger.disps[d.FindingID] = append(w.ledger.disps[d.FindingID], d)
	}
	return w
}

// dispositionRefusal says why a disposition counts for nothing, or "".
func dispositionRefusal(d Disposition) string {
	switch {
	case d.Edited:
		return "the dispose comment was edited, so it counts for nothing; post it again in a new comment"
	case !command.IsLedgerID(d.FindingID):
		return fmt.Sprintf("%q is not a finding's ledger ID", d.FindingID)
	case !slices.Contains(command.DisposeKinds, d.Kind):
		return fmt.Sprintf("%q is not a disposition", d.Kind)
	}
	return ""
}

// review checks one review and, when it is a valid counting audit, adds it
// to the ledger.
func (w *walk) review(r *Review) {
	if reason := why(w.o.Rules, *r, w.in); reason != "" {
		w.ignored = append(w.ignored, Ignored{ReviewID: r.ID, Author: r.Author.Login, Reason: reason, URL: r.URL})
		w.dismissedFail(r)
		return
	}
	if w.o.Binding(*r, w.in) != "" {
		w.ignored = append(w.ignored, Ignored{ReviewID: r.ID, Author: r.Author.Login, URL: r.URL,
			Reason: fmt.Sprintf("for another commit (%s), so its verdict does not apply to the head; its findings stay in the ledger", gitsha.Short(orNoCommit(r.CommitSHA)))})
	}
	au := &audited{r: r}
	w.counting = append(w.counting, au)
	au.a, au.probs = ParseWith(r.Body, w.o.VerdictRules)
	if len(au.probs) > 0 {
		return
	}
	if au.a.Verdict == VerdictFail {
		w.fail(r, au.a)
	}
	au.checked, au.probs = w.evidence(r, au.a)
	au.probs = append(au.probs, w.ledgerProblems(r, au.a)...)
	if len(au.probs) == 0 {
		w.ledger.apply(r, au.a, au.checked)
	}
}

// dismissedFail counts a dismissed FAIL toward the bound when the rules
// would have counted the review before it was dismissed: dismissing a
// review (which anyone with write access may do) never erases a failure.
func (w *walk) dismissedFail(r *Review) {
	if r.State != StateDismissed {
		return
	}
	before := *r
	before.State = StateCommented
	if why(w.o.Rules, before, w.in) != "" {
		return
	}
	if a, ps := ParseWith(r.Body, w.o.VerdictRules); len(ps) == 0 && a.Verdict == VerdictFail {
		w.fail(r, a)
	}
}

// evidence checks a's evidence against r's bundle.
func (w *walk) evidence(r *Review, a *Audit) (Checked, Problems) {
	if r.BundleErr != "" {
		return Checked{}, Problems{{"$", fmt.Sprintf("the evidence could not be read at %s: %s", gitsha.Short(r.CommitSHA), r.BundleErr)}}
	}
	return CheckBundleWith(a, r.Bundle, w.o.BundleRules)
}

// ledgerProblems checks a against the pull request and the ledger: the
// work unit, the judged findings, and what a PASS leaves open.
func (w *walk) ledgerProblems(r *Review, a *Audit) Problems {
	var ps Problems
	if w.in.Unit > 0 && a.Unit() != w.in.Unit {
		ps.add("$.work_unit", "names %s, but this pull request is an attempt at work unit #%d", a.WorkUnit, w.in.Unit)
	}
	ps = append(ps, w.ledger.judgementProblems(a)...)
	ps = append(ps, a.PassProblems(w.blocking)...)
	if a.Verdict == VerdictPass {
		for _, e := range w.ledger.openAfter(a, r, w.blocking) {
			if e.refused != "" {
				ps.add("$.verdict", "a PASS leaves %s (%s) open: %s", e.LedgerID, e.Severity, e.refused)
				continue
			}
			ps.add("$.verdict", "a PASS leaves %s (%s) open; judge it in verdicts: AGREE with its disposition, or DISAGREE_EVIDENCE with evidence that refutes it", e.LedgerID, e.Severity)
		}
	}
	return ps
}

// fail records a FAIL (whatever its evidence, so that evidence made
// unreadable later cannot erase it) and whether a finding repeats the root
// cause of a finding made at another commit: the same requirement (case
// and spacing aside) or the same quote of the same file.
func (w *walk) fail(r *Review, a *Audit) {
	if !slices.ContainsFunc(w.failSHAs, func(s string) bool { return strings.EqualFold(s, r.CommitSHA) }) {
		w.failSHAs = append(w.failSHAs, r.CommitSHA)
	}
	if w.rootCause != "" {
		return
	}
	for _, f := range a.Findings {
		for _, e := range w.ledger.order {
			if strings.EqualFold(e.AuditedSHA, r.CommitSHA) {
				continue
			}
			if how := sameCause(f, e.finding); how != "" {
				w.rootCause = fmt.Sprintf("%s repeats %s (%s)", LedgerID(f.ID, r.ID), e.LedgerID, how)
				return
			}
		}
	}
}

func sameCause(f, g Finding) string {
	if normalise(f.Requirement) == normalise(g.Requirement) {
		return "the same requirement"
	}
	for _, x := range f.Evidence {
		if slices.Contains(g.Evidence, x) {
			return "the same quote of " + x.Path
		}
	}
	return ""
}

// ignoreDispositions lists the dispositions that name no finding of the
// ledger, or were made before it.
func (w *walk) ignoreDispositions() {
	for id, ds := range w.ledger.disps {
		e := w.ledger.byID[id]
		for _, d := range ds {
			reason := ""
			switch {
			case e == nil:
				reason = fmt.Sprintf("%s is not a finding of a counting audit of this pull request", id)
			case !d.Created.After(e.review.Submitted):
				reason = fmt.Sprintf("made before %s was found", id)
			default:
				continue
			}
			w.dropped = append(w.dropped, Ignored{CommentID: d.CommentID, Author: d.Author.Login, Reason: reason, URL: d.URL})
		}
	}
	slices.SortStableFunc(w.dropped, func(a, b Ignored) int { return cmp.Compare(a.CommentID, b.CommentID) })
}
