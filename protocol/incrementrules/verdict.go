package incrementrules

// Stage is how far an increment got, as the owner's board shows it.
type Stage string

// The stages of an increment, in order.
const (
	// Building: a story does not count as done yet.
	Building Stage = "building"
	// Integrating: every story is done; the integrated candidate, its
	// readback or its stories' certificates are missing.
	Integrating Stage = "integrating"
	// Accepting: the candidate is proven; the owner's acceptance or the
	// demonstration is missing.
	Accepting Stage = "accepting"
	// Complete: the increment certificate can be issued.
	Complete Stage = "complete"
)

// Missing is one thing the increment lacks.
type Missing struct {
	// Rule names the rule that found it missing.
	Rule string `json:"rule"`
	What string `json:"what"`
	// Action is set when a person must act (an owner's acceptance, a
	// closure without evidence, a failed run); unset when it comes by
	// itself (a story in progress, a readback still running).
	Action bool `json:"action,omitempty"`
}

// Demonstrated is the demonstration that counted.
type Demonstrated struct {
	CommentID int64    `json:"commentId"`
	Author    string   `json:"author"`
	Criterion string   `json:"criterion"`
	Evidence  Evidence `json:"evidence"`
}

// Verdict is Decide's answer for one milestone.
type Verdict struct {
	Milestone int    `json:"milestone"`
	Stage     Stage  `json:"stage"`
	Tier      string `json:"tier"`
	// Candidate is the integrated candidate; empty when there is none.
	Candidate string    `json:"candidate,omitempty"`
	Missing   []Missing `json:"missing,omitempty"`
	// Acceptance is the owner's accepting comment; 0 when none counted.
	Acceptance   int64         `json:"acceptance,omitempty"`
	Demonstrated *Demonstrated `json:"demonstrated,omitempty"`
	// Certificate is the increment certificate's canonical JSON and SHA256
	// its lowercase hex SHA-256 (set only when Complete).
	Certificate []byte `json:"-"`
	SHA256      string `json:"sha256,omitempty"`
	// ClosedEarly: the milestone is closed while not complete; ClosedBy
	// says by whom.
	ClosedEarly bool   `json:"closedEarly,omitempty"`
	ClosedBy    string `json:"closedBy,omitempty"`
	// AcceptCommand is the exact owner command that would accept the
	// candidate (set when the tier is high and there is a candidate).
	AcceptCommand string `json:"acceptCommand,omitempty"`
	// DemoTemplate is the aep-demo block to post (set while a declared
	// demonstration is missing).
	DemoTemplate string `json:"demoTemplate,omitempty"`
	// Tampering lists the changes to the milestone's definition or its
	// stories' contracts that did not count (Facts.Tampering).
	Tampering []string `json:"tampering,omitempty"`
}

// Complete reports whether the increment is complete.
func (v Verdict) Complete() bool { return v.Stage == Complete }

// NeedsAction reports whether a missing item waits for a person.
func (v Verdict) NeedsAction() bool {
	for _, m := range v.Missing {
		if m.Action {
			return true
		}
	}
	return false
}
