package review

import (
	"time"

	"github.com/aepgate/aepgate/protocol/instructor"
)

// Risk tiers of a work unit's contract.
const (
	RiskLow    = "low"
	RiskMedium = "medium"
	RiskHigh   = "high"
)

// Review states as GitHub reports them.
const (
	StateApproved         = "APPROVED"
	StateChangesRequested = "CHANGES_REQUESTED"
	StateCommented        = "COMMENTED"
	StateDismissed        = "DISMISSED"
)

// Actor is a GitHub account.
type Actor struct {
	Login string
	// Type is GitHub's account type: "User", "Bot", "Organization", ….
	// A Bot's login ends in "[bot]".
	Type string
}

// Commit is one commit of the pull request, with the logins GitHub linked
// to its author and committer (empty when the e-mail is linked to no
// account).
type Commit struct {
	SHA                                           string
	AuthorLogin, AuthorEmail, AuthorName          string
	CommitterLogin, CommitterEmail, CommitterName string
}

// Push is one recorded push: Login (the webhook's sender) moved the pull
// request's branch to SHA.
type Push struct {
	SHA, Login string
}

// Review is one pull request review as GitHub holds it, with its evidence
// bundle.
type Review struct {
	ID     int64
	URL    string
	Author Actor
	// CommitSHA is the review's commit_id: the audited commit.
	CommitSHA string
	// State is APPROVED, CHANGES_REQUESTED, COMMENTED or DISMISSED.
	State     string
	Body      string
	Submitted time.Time
	// Edited is set when the body was edited after submission.
	Edited bool
	// Bundle holds the files of Parse(Body).EvidencePaths() read at
	// CommitSHA; nil when they were not read.
	Bundle Bundle
	// BundleErr says why the bundle could not be read; empty when it was.
	BundleErr string
}

// Disposition is a proposal, made with a dispose command, of how a finding
// is settled (see Dispositions).
type Disposition struct {
	CommentID int64
	URL       string
	Author    Actor
	// FindingID is the finding's ledger ID, e.g. F1@r7.
	FindingID string
	// Kind is fixed, refuted, duplicate or outside_scope.
	Kind, Reason string
	// Evidence are the quotes of the comment's aep-evidence block.
	Evidence []Evidence
	Created  time.Time
	// Edited is set when the comment was edited: it then counts for
	// nothing.
	Edited bool
}

// Input is everything Evaluate looks at for one pull request.
type Input struct {
	// Risk is the unit's risk tier: low, medium or high. Any other value,
	// the empty string included, is treated as high (fail closed).
	Risk string
	// Head is the pull request's head SHA.
	Head string
	// Unit is the work unit the pull request is an attempt at; when set,
	// an audit's work_unit must name it.
	Unit int
	// PR is the pull request's number; it names owner gates.
	PR       int
	PRAuthor Actor
	// Commits are the pull request's commits.
	Commits []Commit
	// Auditors are the config's auditors; empty means any independent
	// collaborator with write access (see Collaborator).
	Auditors []string
	// Permissions are the reviewers' live roles on the repository, by
	// login: admin, maintain, write, triage, read or none, as GitHub's
	// collaborator permission endpoint reports them. A missing login is
	// unknown: the review does not count.
	Permissions map[string]string
	// AuditTriage is the config's audit_triage: a triage role may audit.
	AuditTriage bool
	// Pushers are who pushed the pull request's commits, as the App saw
	// them; a pusher counts as an author of the change.
	Pushers []Push
	// Instructed is who instructed the pull request's agents (nil or no
	// agents: no listed agent made it); an instructor counts as an author
	// (NotInstructor).
	Instructed *instructor.Finding
	// IsAgent reports whether a login is a listed agent (config key
	// agents; nil: none is); an agent's review never counts (NotAgent).
	IsAgent func(string) bool
	// Reviews are all reviews of the pull request, in any order.
	Reviews      []Review
	Dispositions []Disposition
	// Exchanges is the config's limits.exchanges; 0 or less means 3.
	Exchanges int
	// Corrections is the config's limits.corrections, taken as given
	// (negative means 0): with 0 the first FAIL goes to the owner.
	Corrections int
	// BlockingSeverities are the severities a PASS may not leave open;
	// nil means DefaultBlocking.
	BlockingSeverities []string
	// Answers are the owner's answers to the audit's owner gates, by gate
	// ID (the choice, e.g. "approve"). Only answers the gates check
	// accepted belong here.
	Answers map[string]string
}
