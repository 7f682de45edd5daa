package gatelog

import (
	"time"

	distinct "github.com/aepgate/aepgate/protocol/approval"
	"github.com/aepgate/aepgate/protocol/gate"
	"github.com/aepgate/aepgate/protocol/instructor"
)

// Kind is the kind of GitHub thread an item was posted on.
type Kind string

// The threads whose items count.
const (
	// UnitIssue is the work unit's own issue.
	UnitIssue Kind = "unit-issue"
	// PullRequest is one of the unit's pull requests.
	PullRequest Kind = "pull-request"
	// ControlIssue is the repository's control issue (label aepgate:control),
	// where project-wide HOLD and project gates are made.
	ControlIssue Kind = "control-issue"
)

// Item events: only a newly created comment or a submitted review counts.
const (
	EventCommentCreated = "issue_comment.created"
	EventReview         = "review"
)

// Review states GitHub reports for a pull request review.
const (
	ReviewApproved         = "APPROVED"
	ReviewChangesRequested = "CHANGES_REQUESTED"
	ReviewCommented        = "COMMENTED"
)

// Source is the thread an item was posted on.
type Source struct {
	Kind   Kind
	Number int
}

// Item is one comment or review as GitHub holds it.
type Item struct {
	// ID is GitHub's id of the comment or review; it breaks ties in time.
	ID  int64
	URL string
	// Source is where the item was posted.
	Source Source
	// Author is the sender's login; AuthorType is GitHub's account type
	// ("User", "Bot", "Organization", …).
	Author, AuthorType string
	// Created and Updated are GitHub's created_at and updated_at (for a
	// review, its submission time and last edit).
	Created, Updated time.Time
	Body             string
	// Event is EventCommentCreated or EventReview.
	Event string
	// Review is set for a review.
	Review *Review
	// EditedBy is who last edited the item, when GitHub says (its editor).
	EditedBy string
	// Kept is set by Build on an item the App kept (Input.Kept).
	Kept bool
	// Tampered is set by Build on a kept item whose source was edited or
	// deleted (ChangeEdited, ChangeDeleted): it is replayed as accepted, but
	// what it grants no longer counts.
	Tampered string
	// Head is, on an override, the head of its pull request when the App
	// first accepted it: set by Build on an item not kept yet, and kept
	// with it (override.go). A new push ends the override.
	Head string `json:",omitempty"`
}

// Review is what a pull request review adds to an item.
type Review struct {
	// State is APPROVED, CHANGES_REQUESTED or COMMENTED.
	State string
	// CommitSHA is the commit the review was made at.
	CommitSHA string
}

// Policy is the part of the repository config that says who counts, read
// from the default branch.
type Policy struct {
	Owners, Coordinators []string
	// Coordinator is the repository's one authoritative coordinator
	// (config's coordinators scope map); "" when the list is flat.
	Coordinator string
	// Prefix starts every command; empty means command.DefaultPrefix.
	Prefix string
	// Approvals maps an owner-only category to how many distinct owners
	// must answer its gates (config's gates.<category>.approvals,
	// gate.Log.Approvals); Distinct the rules joining answers into one
	// person (the zero value: all of them; a negative control turns one
	// off).
	Approvals map[string]int
	Distinct  distinct.Rules
}

// Permissions maps a login to its permission on the repository right now,
// as GitHub's collaborator permission endpoint reports it: admin, maintain,
// write, triage, read or none. A missing login or "" is unknown and refuses.
type Permissions map[string]string

// PullRequestState is what aepgate knows of one of the unit's open pull
// requests.
type PullRequestState struct {
	Number int
	// Head is the pull request's current head SHA.
	Head string
	// HeadAt is when the head was pushed (or its commit date); the
	// contract-change gate is created then.
	HeadAt time.Time
	// ContractFiles are the changed files matching the contract paths.
	ContractFiles []string
	// ContractOwners are who may approve each of ContractFiles when owners
	// are set per path (config.OwnersOf); a file without an entry is the
	// repository owners' (Policy.Owners). Files with the same owners share
	// one contract gate (contractGates).
	ContractOwners map[string][]string
	// ContractSources say, for the ContractFiles that are sources of
	// authority or auditor-owned parts of run documents, what each one
	// changes (e.g. "changes a source of authority: the code owners
	// (CODEOWNERS)"); the gate's question names it beside the file.
	ContractSources map[string]string
	// Auto are aepgate's own gates bound to this pull request, besides the
	// contract-change gate (e.g. an audit's owner decision): create events,
	// each taking effect at its Time, with ids under a reserved prefix.
	Auto []gate.Event
}

// Input is everything Build reads.
type Input struct {
	// Project is the gate project (gate.CleanProject of the repository).
	Project string
	// Unit is the work unit's issue number.
	Unit int
	// ControlIssue is the control issue's number, named in refusals; 0 if
	// there is none yet.
	ControlIssue int
	// Items are the comments and reviews of the unit's issue, its pull
	// requests and the control issue, in any order.
	Items []Item
	// PullRequests are the unit's open pull requests.
	PullRequests []PullRequestState
	// PR is the pull request whose merge Result.Blockers are for; 0 means
	// the unit's merge whatever the pull request.
	PR          int
	Policy      Policy
	Permissions Permissions
	// AppLogin is the App's own login; its items are skipped (its replies
	// quote commands).
	AppLogin string
	// Kept are the decisions accepted earlier (kept.go): each is replayed
	// as it was accepted, whatever GitHub now shows of its source.
	Kept []Kept
	// Read says which part of each thread Items holds, so that a kept
	// comment missing from it is known to be deleted.
	Read []Read
	// Witnessed are comments as a signed webhook delivered them when they
	// were created (issue_comment.created): if GitHub now shows one edited
	// or deleted before the App first judged it, it is judged as created,
	// by every rule, and what it grants does not count (kept.go).
	Witnessed []Item
	// Instructed is who instructed the agents that made pull request PR
	// (nil: no listed agent made it); their approval does not answer its
	// contract-change gate (NotInstructorApproval).
	Instructed *instructor.Finding
	// IsAgent reports whether a login is a listed agent (config key
	// agents; nil: none is); nothing an agent writes counts (NotAgent).
	IsAgent func(string) bool
}
