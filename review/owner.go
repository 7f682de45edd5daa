package review

import (
	"fmt"
	"slices"
	"strings"

	"github.com/aepgate/aepgate/protocol/gitsha"
)

// Owner gate choices; reject is the safe default.
const (
	ChoiceApprove = "approve"
	ChoiceReject  = "reject"
)

// OwnerCategory is the owner-only category of the audit's owner gates.
const OwnerCategory = "human-product-judgment-action"

// Causes of an owner decision (OwnerGate.Cause); each names its gate.
const (
	// CausePass: a high-risk unit's PASS needs the owner's approval.
	CausePass = "pass"
	// CauseBounds: a second FAIL, or a repeated root cause.
	CauseBounds = "bounds"
	// CauseDispute: an UNRESOLVED dispute, or one past the exchange limit.
	CauseDispute = "dispute"
)

// cause is why the owner must decide.
type cause struct{ kind, text string }

// ownerCause is the first bound the ledger exceeds, or nil: more failed
// commits than corrections allow, a repeated root cause, an unresolved
// dispute, or a dispute past the exchange limit. Only disputes over open
// findings at a blocking severity go to the owner: the others do not
// block a PASS.
func (w *walk) ownerCause() *cause {
	if c := max(w.in.Corrections, 0); len(w.failSHAs) > c {
		return &cause{CauseBounds, fmt.Sprintf("the audit failed at %s (%s), and limits.corrections allows %s, each with one re-audit",
			plural(len(w.failSHAs), "commit"), shortSHAs(w.failSHAs), plural(c, "correction"))}
	}
	if w.rootCause != "" {
		return &cause{CauseBounds, "a new finding repeats the root cause of an earlier one: " + w.rootCause}
	}
	limit := w.in.Exchanges
	if limit <= 0 {
		limit = 3
	}
	for _, e := range w.ledger.order {
		switch {
		case e.Closed || !slices.Contains(w.blocking, e.Severity):
		case e.unresolved:
			return &cause{CauseDispute, fmt.Sprintf("the dispute over %s is UNRESOLVED: its disposition was rejected with no new commit since", e.LedgerID)}
		case e.exchanges > limit:
			return &cause{CauseDispute, fmt.Sprintf("the dispute over %s has had %d exchanges; at most %d are allowed", e.LedgerID, e.exchanges, limit)}
		}
	}
	return nil
}

// owner sets d to what the owner's answer to c's gate says: passed on
// approve, failed on reject, owner with the gate while unanswered.
func (w *walk) owner(d *Decision, c *cause) {
	g := w.gate(c)
	switch w.in.Answers[g.ID] {
	case ChoiceApprove:
		d.Outcome, d.Reason = OutcomePassed, fmt.Sprintf("The owner approved the change at %s (gate %s): %s.", gitsha.Short(w.in.Head), g.ID, c.text)
	case ChoiceReject:
		d.Outcome, d.Reason = OutcomeFailed, fmt.Sprintf("The owner rejected the change at %s (gate %s): %s.", gitsha.Short(w.in.Head), g.ID, c.text)
	default:
		d.Outcome, d.OwnerGate = OutcomeOwner, g
		d.Reason = fmt.Sprintf("The owner decides: %s; the owner answers gate %s.", c.text, g.ID)
	}
}

// gate is c's owner gate. Its ID names the pull request, the cause and the
// head ("audit-pr21-bounds-0123456789ab"; without a pull request number
// "audit-bounds-…"): stable while the head stands, new for a new head, so
// an owner's answer binds to the commit it was given for.
func (w *walk) gate(c *cause) *OwnerGate {
	id := "audit-" + c.kind + "-" + gitsha.Short(w.in.Head)
	if w.in.PR > 0 {
		id = fmt.Sprintf("audit-pr%d-%s-%s", w.in.PR, c.kind, gitsha.Short(w.in.Head))
	}
	return &OwnerGate{
		ID: id, Cause: c.kind, Question: w.question(c), Reason: c.text,
		Choices: []string{ChoiceApprove, ChoiceReject}, Category: OwnerCategory,
		Effect: "merge-protected-branch", Scope: "merge", SafeDefault: ChoiceReject,
	}
}

func (w *walk) question(c *cause) string {
	what := "this pull request"
	if w.in.PR > 0 {
		what = fmt.Sprintf("pull request #%d", w.in.PR)
	}
	if w.in.Unit > 0 {
		what += fmt.Sprintf(" (work unit #%d)", w.in.Unit)
	}
	if c.kind == CausePass {
		return fmt.Sprintf("The audit of %s passed at %s, and %s. Approve merging this head?", what, gitsha.Short(w.in.Head), c.text)
	}
	return fmt.Sprintf("The audit of %s needs the owner instead of another attempt: %s. Accept the change at %s as it is (approve), or reject it?", what, c.text, gitsha.Short(w.in.Head))
}

func shortSHAs(shas []string) string {
	out := make([]string, len(shas))
	for i, s := range shas {
		out[i] = gitsha.Short(s)
	}
	return strings.Join(out, ", ")
}
