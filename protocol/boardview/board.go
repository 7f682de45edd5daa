// Package boardview is the owner's board of one repository: what waits for the
// owner first, each increment (milestone) with its stories and their derived
// states, the WIP limits and stalls, and the recent certificates
// (docs/board.md). It holds the model every face renders — the pinned board
// issue (checks), the signed-in /board page and `aepgate board` — and the
// pure rules that derive it. Plain values in, plain values out.
package boardview

import (
	"time"

	"github.com/aepgate/aepgate/protocol/incrementrules"
)

// Version is the board model's version, written in its JSON.
const Version = 1

// State is a story's derived state.
type State string

// The story states, from first to last.
const (
	StateOpen       State = "open"        // no attempt pull request yet
	StateInProgress State = "in progress" // an attempt is open, not yet asking review
	StateInReview   State = "in review"   // an attempt waits for its audit
	StateBlocked    State = "blocked"     // a check fails, a dependency is open, a WIP limit is exceeded, or it was closed without evidence
	StateHeld       State = "held"        // an owner's HOLD covers it
	StateMerged     State = "merged"      // an attempt merged; no certificate yet
	StateCertified  State = "certified"   // its certificate was posted
	// StateDone: closed and done by protocol/closurerules's rule (the owner's
	// own closure or /aep close, or low risk merged and read back), no
	// certificate label.
	StateDone State = "done"
	// StateCancelled: the owner closed it as not planned.
	StateCancelled State = "cancelled"
)

// Health is how recent an open attempt's newest evidence is.
type Health string

// The attempt healths (stall.suspect_after and stall.stalled_after in the
// repository config).
const (
	Healthy Health = "healthy"
	Suspect Health = "suspect"
	Stalled Health = "stalled"
)

// Board is one repository's board.
type Board struct {
	Version int    `json:"version"`
	Repo    string `json:"repo"` // owner/name
	URL     string `json:"url"`  // the repository's web address
	// Inbox is what waits for the owner, oldest first.
	Inbox []InboxItem `json:"inbox"`
	// Increments are the repository's milestones, open ones first.
	Increments []Increment `json:"increments"`
	// Certificates are the recent completion certificates, newest first.
	Certificates []Certificate `json:"certificates"`
}

// InboxItem is one thing that waits for the owner: an open gate, a HOLD, a
// stalled attempt, or tampering with a kept decision (shown, never acted
// on).
type InboxItem struct {
	Kind     string    `json:"kind"`              // "gate", "hold", "stall", "tampering", "closure", "needs-review", "retro-audit", "held-work" or "increment"
	Subject  string    `json:"subject"`           // what it is about, e.g. "#12 Export reports"
	Question string    `json:"question"`          // the question asked, or why it is listed
	Choices  []string  `json:"choices,omitempty"` // the choices offered
	Reply    string    `json:"reply,omitempty"`   // the exact reply that answers it
	URL      string    `json:"url"`               // where to answer
	Since    time.Time `json:"since"`             // when it started waiting
}

// Increment is one milestone and its stories.
type Increment struct {
	Number  int     `json:"number"`
	Title   string  `json:"title"`
	URL     string  `json:"url"`
	Open    bool    `json:"open"`
	Stories []Story `json:"stories"`
	// Problems are the increment's own problems (a rule of the protocol it
	// breaks, a WIP limit exceeded), empty when none.
	Problems []string `json:"problems,omitempty"`
	// Stage is how far the increment got (protocol/incrementrules: building,
	// integrating, accepting, complete) and Tier its risk tier.
	Stage incrementrules.Stage `json:"stage"`
	Tier  string               `json:"tier,omitempty"`
	// Judged: Stage is the App's judgement of the increment (its
	// aepgate/increment); unset: derived from the stories alone, before
	// the App judged the milestone.
	Judged bool `json:"judged,omitempty"`
	// Waiting is what the stage lacks (at most MaxWaiting, the rest
	// counted); AcceptCommand the owner's command that accepts the
	// candidate, while it waits for that (accepting, high risk).
	Waiting       []string `json:"waiting,omitempty"`
	AcceptCommand string   `json:"accept_command,omitempty"`
	// Certificate is the increment certificate, set when complete.
	Certificate *IncrementCertificate `json:"certificate,omitempty"`
}

// Story is one unit (issue) of an increment.
type Story struct {
	Number    int       `json:"number"`
	Title     string    `json:"title"`
	URL       string    `json:"url"`
	Class     string    `json:"class,omitempty"` // product, contract, ...
	Risk      string    `json:"risk,omitempty"`
	DependsOn []int     `json:"depends_on,omitempty"` // unit numbers, for the dependency graph
	State     State     `json:"state"`
	Reason    string    `json:"reason,omitempty"` // why blocked or held
	Attempts  []Attempt `json:"attempts,omitempty"`
	// Tamper says what of the contract did not count and who
	// changed it (workunit.Kept.Tamper); empty when nothing.
	Tamper string `json:"tamper,omitempty"`
}

// Attempt is one pull request that names the story as its unit.
type Attempt struct {
	PR     int     `json:"pr"`
	Title  string  `json:"title"`
	URL    string  `json:"url"`
	Head   string  `json:"head"`
	Open   bool    `json:"open"`
	Merged bool    `json:"merged"`
	Checks []Check `json:"checks,omitempty"`
	// Health and LastEvidence are set for open attempts.
	Health       Health    `json:"health,omitempty"`
	LastEvidence time.Time `json:"last_evidence,omitzero"`
	// OverLimit names the WIP limit this attempt exceeds, empty when none.
	OverLimit string `json:"over_limit,omitempty"`
}

// Check is one check run on an attempt's head.
type Check struct {
	Name       string `json:"name"`
	Status     string `json:"status"`               // queued, in_progress, completed
	Conclusion string `json:"conclusion,omitempty"` // success, failure, ... when completed
	URL        string `json:"url"`
}

// Certificate is one posted completion certificate.
type Certificate struct {
	Unit int       `json:"unit"`
	PR   int       `json:"pr"`
	SHA  string    `json:"sha"` // the merge commit it certifies
	URL  string    `json:"url"` // the merge commit's page, where its aepgate/certificate run shows
	At   time.Time `json:"at"`  // when the attempt merged
}
