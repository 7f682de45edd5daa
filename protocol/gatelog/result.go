package gatelog

import (
	"strconv"

	"github.com/aepgate/aepgate/protocol/gate"
)

// Outcome says what one request in an item did: a command line, an
// aep-gate block, or an approving review answering one gate.
type Outcome struct {
	ItemID int64
	// Review is set when the item is a pull request review (their IDs are
	// a series apart from comments').
	Review bool
	// Line is the 1-based line of the command or block in the item's body;
	// 0 for an approving review.
	Line int
	// Command is the command line as written, "aep-gate block" or
	// "review: APPROVED".
	Command string
	// Action is one of the Action constants; empty for a malformed command.
	Action string
	// GateID is the gate the request opened, answered or reused, when known.
	GateID   string
	Accepted bool
	// Reason says why a request was refused and what would be accepted; for
	// an accepted one it may say what happened (e.g. a reused decision).
	Reason string
	// Implicit is set for an approving review: it asked for nothing by
	// itself, so a refusal needs no reply.
	Implicit bool
}

// Result is the gate log derived from GitHub, its replay, what each request
// did, and what blocks the merge of Input.PR.
type Result struct {
	Log      gate.Log
	Outcomes []Outcome
	State    gate.State
	// Blockers stop the unit's merge of Input.PR (gate.Check, action merge).
	Blockers []gate.Blocker
	// ContractPR maps each contract-change gate to its pull request.
	ContractPR map[string]int
	// Deciders are who may answer each contract-change gate whose files'
	// owners (PullRequestState.ContractOwners) are not the repository's.
	Deciders map[string][]string
	// ContractFiles are the changed contract files each contract-change
	// gate covers.
	ContractFiles map[string][]string
	// Tampered are the kept items whose source was edited or deleted.
	Tampered []Tamper
	// Items are the items replayed: Input.Items with kept and witnessed
	// ones as they were accepted or created.
	Items []Item
	// Overrides are the owners' accepted overrides, in item order, each
	// with why it ended (override.go).
	Overrides []Override
	unit      int
}

// MergeBlockers returns what stops work unit r's merge of pull request pr:
// gate.Check for action merge, without the contract-change gates of the
// unit's other pull requests. pr 0 keeps every gate.
func (r Result) MergeBlockers(pr int) ([]gate.Blocker, error) {
	d, err := gate.Check(r.State, gate.Request{Action: gate.ScopeMerge, WorkUnit: strconv.Itoa(r.unit)})
	if err != nil {
		return nil, err
	}
	out := []gate.Blocker{}
	for _, b := range d.Blockers {
		if owner, ok := r.ContractPR[b.GateID]; ok && pr != 0 && owner != pr {
			continue
		}
		out = append(out, b)
	}
	return out, nil
}
