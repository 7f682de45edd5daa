package incrementrules

import (
	"time"

	"github.com/aepgate/aepgate/protocol/closurerules"
	"github.com/aepgate/aepgate/protocol/readbackrules"
)

// Story is one issue of the milestone, as far as the increment reads it.
type Story struct {
	Number int
	// Risk is the story contract's risk tier; empty when unreadable (it
	// then counts as high: fail closed).
	Risk string
	// Closure is the story's closure verdict (protocol/closurerules).
	Closure closurerules.Verdict
	// Attempts are the story's merged attempts with what the App wrote for
	// them (readback, certificate).
	Attempts []closurerules.Attempt
}

// Comment is one comment of the milestone's control thread (the
// repository's control issue) with its author's live permission.
type Comment struct {
	ID               int64
	Body             string
	Author           closurerules.Actor
	Created, Updated time.Time
	// Hold is the reason of the HOLD that applied when the comment was
	// posted ("" when none did).
	Hold string
}

// Candidate is the integrated candidate the App chose (Choose) with what
// GitHub said about it.
type Candidate struct {
	// SHA is the commit; empty when no story has a merge commit.
	SHA string
	// OnDefault: SHA is on the default branch.
	OnDefault bool
	// Contains says, for each story merge commit, whether SHA contains it.
	Contains map[string]bool
}

// Facts is everything Decide reads about one milestone.
type Facts struct {
	// Repo is "owner/name"; Milestone the milestone's number.
	Repo      string
	Milestone int
	Title     string
	Open      bool
	// ClosedBy is who closed the milestone, when it is closed and known.
	ClosedBy closurerules.Actor
	// Criterion is the description's `demonstration:`; empty when none.
	Criterion string
	// Declared is the description's risk tier; empty when none.
	Declared string
	// Problems are why the description or the story list cannot be read
	// whole (an invalid yaml block, more issues than were read).
	Problems []string
	// Tampering lists the changes to the milestone's definition or its
	// stories' contracts that did not count: the kept, stricter values
	// were judged instead (app/contract). It is shown, never missing.
	Tampering []string
	Stories   []Story
	// Owners and Coordinators are the repository config's; Prefix starts
	// commands ("" means /aep).
	Owners, Coordinators []string
	Prefix               string
	// Approvals is how many distinct owners accept a high increment
	// (gates.<AcceptanceCategory>.approvals; below 2: one).
	Approvals int
	Candidate Candidate
	// DefaultBranch is the repository's default branch: only runs on it
	// are readback.
	DefaultBranch string
	// Required are the readback workflows (required_workflows.readback);
	// Runs the workflow runs on the default branch at Candidate.SHA.
	Required []string
	Runs     []readbackrules.Run
	// Comments are the control thread's comments, oldest first.
	Comments []Comment
	// Evidence says, for each demonstration evidence the App read back
	// (Evidence.Key), "" when GitHub shows it, else why not.
	Evidence map[string]string
	// Envelopes says, for a story merge commit whose certificate the App
	// signed, the SHA-256 of that signed envelope (protocol/attest
	// EnvelopeDigest); the certificate binds it beside the certificate's.
	Envelopes map[string]string
}

func (f Facts) prefix() string {
	if f.Prefix == "" {
		return "/aep"
	}
	return f.Prefix
}
