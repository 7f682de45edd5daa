package boardview

import (
	"time"

	"github.com/aepgate/aepgate/protocol/workunit"
)

// Input is everything Build reads: the repository's milestones as GitHub
// holds them, the facts each open attempt's last evaluation derived, the
// repository config's limits and the time of the build.
type Input struct {
	Repo string // owner/name
	URL  string // the repository's web address
	// Milestones are the repository's milestones with their issues.
	Milestones []Milestone
	// Facts are the App's latest facts per pull request, by number.
	Facts map[int]Fact
	// AttemptsPerUnit and LanesPerIncrement are the WIP limits (0: not
	// checked).
	AttemptsPerUnit, LanesPerIncrement int
	// Closures are how the App judges each closed story's closure, by
	// issue number; a closed story without one is not done.
	Closures map[int]Closure
	// Increments are the App's latest judgements of the milestones'
	// increments, by milestone number; a milestone without one gets its
	// stage from its stories (Increment.Judged unset).
	Increments map[int]IncrementFact
	// Stall holds the health thresholds.
	Stall StallRule
	Now   time.Time
	// MergeCoordinators are the logins merge.authority grants merge
	// authority; with any, every merge owes its readback at once and a
	// merged story shows "readback owed" until ReadBack holds its pull
	// request (readback_owed.go).
	MergeCoordinators []string
	// ReadBack holds the pull requests whose readback the App observed
	// verified.
	ReadBack map[int]bool
}

// Milestone is one milestone and its issues.
type Milestone struct {
	Number int
	Title  string
	URL    string
	Open   bool
	// ClosedAt is when GitHub says the milestone was closed (zero while
	// open).
	ClosedAt time.Time
	Issues   []Issue
}

// Issue is one issue of a milestone: a story.
type Issue struct {
	Number int
	Title  string
	URL    string
	Open   bool
	// Body holds the story's contract (its first fenced yaml block).
	Body string
	// Kept is the contract the App keeps for the story, with the last
	// change that did not count; nil when it keeps none (the body's is
	// shown).
	Kept *workunit.Kept
	// Certified is set when the issue carries the aepgate:certified label.
	Certified bool
	// Pulls are the same-repository pull requests that name this issue as
	// their one work unit.
	Pulls []Pull
}

// Pull is one pull request that names an issue as its unit.
type Pull struct {
	Number int
	Title  string
	URL    string
	// State is OPEN, CLOSED or MERGED.
	State    string
	Head     string
	MergeSHA string
	MergedAt time.Time
}

// Fact is what one evaluation of an open attempt derived for the board:
// its state, the App's check runs on its head, its newest evidence and
// what it waits for from the owner. The App stores the latest per pull
// request; the board combines them.
type Fact struct {
	PR   int    `json:"pr"`
	Unit int    `json:"unit"`
	Head string `json:"head"`
	// State is in progress, in review, blocked or held.
	State  State   `json:"state"`
	Reason string  `json:"reason,omitempty"`
	Checks []Check `json:"checks,omitempty"`
	// LastEvidence is the newest of the head commit's date, its workflow
	// runs and the structured report comments.
	LastEvidence time.Time `json:"last_evidence,omitzero"`
	// Inbox holds the open gates and HOLDs that block the attempt.
	Inbox []InboxItem `json:"inbox,omitempty"`
}
