package review

// Outcomes of Evaluate.
const (
	// OutcomeNotRequired: the unit's risk is low; no audit is needed.
	OutcomeNotRequired = "not-required"
	// OutcomePassed: an independent PASS holds at the head (and, for a
	// high-risk unit, the owner approved it).
	OutcomePassed = "passed"
	// OutcomeMissing: no review counts as an audit yet.
	OutcomeMissing = "missing"
	// OutcomeStale: the newest counting audit is for an older commit.
	OutcomeStale = "stale"
	// OutcomeFailed: the newest counting audit is a FAIL (or the owner
	// rejected the change).
	OutcomeFailed = "failed"
	// OutcomeNeedsEvidence: the newest counting audit asks for evidence.
	OutcomeNeedsEvidence = "needs-evidence"
	// OutcomeInvalid: the newest counting review breaks the contract.
	OutcomeInvalid = "invalid"
	// OutcomeOwner: the owner must decide (bounds exceeded, an unresolved
	// dispute, or a high-risk PASS).
	OutcomeOwner = "owner"
)

// Decision is what Evaluate concludes for a pull request's head.
type Decision struct {
	// Outcome is one of the Outcome constants.
	Outcome string
	// Reason is one sentence for people, saying what would fix it.
	Reason string
	// Review is the review the outcome rests on, if any; Audit is its
	// block as far as it could be read.
	Review *Review
	Audit  *Audit
	// AuditedSHA is Review's commit; BundleID its bundle's identity.
	AuditedSHA, BundleID string
	// Problems are why Review is invalid (Outcome invalid).
	Problems Problems
	// Findings are every finding of the ledger, in ledger order.
	Findings []OpenFinding
	// Ignored are the reviews and dispositions that do not count, and why.
	Ignored []Ignored
	// OwnerGate is set when the owner must decide (Outcome owner).
	OwnerGate *OwnerGate
	// Fails is the number of commits a counting audit failed at;
	// Exchanges the most exchanges any open finding's dispute has had.
	Fails, Exchanges int
}

// Finding states in a Decision.
const (
	// StatusOpen: nobody proposed a disposition yet, or the auditor
	// confirmed the finding.
	StatusOpen = "open"
	// StatusProposed: a disposition waits for an auditor's judgement.
	StatusProposed = "proposed"
	// StatusRejected: an auditor disagreed with the latest disposition.
	StatusRejected = "rejected"
	// StatusClosed: an auditor agreed with a disposition, or refuted the
	// finding with evidence.
	StatusClosed = "closed"
)

// OpenFinding is one finding of the ledger and its state.
type OpenFinding struct {
	// LedgerID is <id>@r<review-id>.
	LedgerID                      string
	Severity, Requirement, Remedy string
	// Location is where its first quote was found, at AuditedSHA.
	Location   *Location
	AuditedSHA string
	// Auditor is the login of the review that found it.
	Auditor string
	// Status is one of the Status constants; Closed is Status == closed.
	Status string
	Closed bool
	// Disposition is the kind it was closed as, or the kind last proposed;
	// By is the auditor who closed it, or who proposed the disposition.
	Disposition, By string
	// Refused says why an auditor's AGREE with the proposed disposition
	// did not close the finding (a closing rule); empty otherwise.
	Refused string
}

// Ignored is a review or disposition that does not count, and why.
type Ignored struct {
	// ReviewID is set for a review, CommentID for a disposition.
	ReviewID, CommentID int64
	Author, Reason      string
	URL                 string
}

// OwnerGate is an owner gate the App opens when the owner must decide.
// Its fields are those of an aep-gate block (docs/gates.md).
type OwnerGate struct {
	// ID is stable for one pull request, head and cause: audit-pr<PR>-<cause>-<head12>.
	ID string
	// Cause is CausePass, CauseBounds or CauseDispute.
	Cause            string
	Question, Reason string
	Choices          []string
	Category         string
	// Effect, Scope and SafeDefault complete the gate: merging is what
	// waits, and reject keeps it waiting.
	Effect, Scope, SafeDefault string
}
