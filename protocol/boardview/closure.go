package boardview

import (
	"fmt"
	"slices"
	"time"

	"github.com/aepgate/aepgate/protocol/closurerules"
	"github.com/aepgate/aepgate/protocol/workunit"
)

// Closure is how the App judges a closed story's closure: protocol/closurerules's
// verdict on the facts it keeps, the one rule of when a unit counts as done.
type Closure struct {
	Verdict closurerules.Verdict
	// AwaitsEvidence: the story was closed by the merge of an attempt whose
	// readback and certificate the App has not recorded yet
	// (closure.Facts.AwaitsEvidence).
	AwaitsEvidence bool
	// ClosedAt is when GitHub says the issue was closed.
	ClosedAt time.Time
}

// ClosureItem is the inbox item of unit v closed without evidence: who
// closed it, what is missing and the owner's command; repoURL is the
// repository's page, since when it was closed.
func ClosureItem(v closurerules.Verdict, repoURL string, since time.Time) InboxItem {
	return InboxItem{Kind: "closure", Subject: fmt.Sprintf("work unit #%d", v.Number),
		Question: fmt.Sprintf("closed by %s without evidence: %s", v.Closer, v.Missing), Reply: v.Command,
		URL: fmt.Sprintf("%s/issues/%d", repoURL, v.Number), Since: since}
}

// RetroAuditItem is the inbox item of unit v whose merge was made under
// an owner's override and owes its retro-audit (docs/merge.md): what was
// overridden, what settles it, and the owner's waiver command.
func RetroAuditItem(v closurerules.Verdict, repoURL string, since time.Time) InboxItem {
	return InboxItem{Kind: "retro-audit", Subject: fmt.Sprintf("work unit #%d", v.Number),
		Question: "merged under an override: " + v.Missing, Reply: v.Command,
		URL: fmt.Sprintf("%s/issues/%d", repoURL, v.Number), Since: since}
}

// closedState is a closed story's state by its closure: done (certified
// when labelled so) or cancelled as the verdict says, merged while its
// attempt's evidence is on the way, and otherwise blocked with what is
// missing — a closed story is never done on GitHub's closed state alone.
func (in Input) closedState(is Issue, as []Attempt) (State, string) {
	c, ok := in.Closures[is.Number]
	merged := slices.ContainsFunc(as, func(a Attempt) bool { return a.Merged })
	switch {
	case !ok && merged, ok && c.AwaitsEvidence:
		return StateMerged, in.readbackOwed(as)
	case !ok:
		return StateBlocked, "closed, but aepgate holds no judgement of its closure (it was closed while the App did not see it); reopen and close it, or the owner's close command on it, has it judged"
	case c.Verdict.Counts() && is.Certified:
		return StateCertified, ""
	case c.Verdict.Counts():
		return StateDone, c.Verdict.Evidence
	case c.Verdict.State == closurerules.Cancelled:
		return StateCancelled, c.Verdict.Missing
	case c.Verdict.State == closurerules.NeedsReview:
		return StateBlocked, needsReview(c.Verdict)
	case c.Verdict.State == closurerules.RetroOwed:
		return StateBlocked, "merged under an override, not done: " + c.Verdict.Missing
	}
	v := c.Verdict
	return StateBlocked, fmt.Sprintf("closed without evidence by %s: %s; an owner says `%s` on #%d to count it done", v.Closer, v.Missing, v.Command, v.Number)
}

// closureInbox is the inbox item of a closed story judged closed without
// evidence (none while its merged attempt's evidence is on the way).
func (in Input) closureInbox(is Issue) (InboxItem, bool) {
	c, ok := in.Closures[is.Number]
	if is.Open || !ok || c.AwaitsEvidence {
		return InboxItem{}, false
	}
	if c.Verdict.State == closurerules.NeedsReview {
		return NeedsReviewItem(c.Verdict, in.URL, c.ClosedAt), true
	}
	if c.Verdict.State == closurerules.RetroOwed {
		return RetroAuditItem(c.Verdict, in.URL, c.ClosedAt), true
	}
	if c.Verdict.State != closurerules.WithoutEvidence {
		return InboxItem{}, false
	}
	return ClosureItem(c.Verdict, in.URL, c.ClosedAt), true
}

// heldLane is the lane a closed story still holds (workunit.HeldLane):
// one not done by its closure verdict.
func (in Input) heldLane(is Issue) (workunit.Lane, bool) {
	if is.Open {
		return workunit.Lane{}, false
	}
	var v *closurerules.Verdict
	if c, ok := in.Closures[is.Number]; ok {
		v = &c.Verdict
	}
	return workunit.HeldLane(is.Number, v)
}
