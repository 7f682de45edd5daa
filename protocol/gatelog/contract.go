package gatelog

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/aepgate/aepgate/protocol/gate"
	"github.com/aepgate/aepgate/protocol/gitsha"
)

// Choices of a contract-change gate; reject is its safe default, so an
// owner's reject keeps the merge blocked.
const (
	ChoiceApprove = "approve"
	ChoiceReject  = "reject"
)

// maxListedFiles bounds the files named in a contract gate's question.
const maxListedFiles = 10

// ContractGateID is the id of pull request pr's contract-change gate at
// head: a new head gives a new gate, which a new approval must answer.
func ContractGateID(pr int, head string) string {
	return fmt.Sprintf("%spr%d-%s", ContractPrefix, pr, gitsha.Short(head))
}

// ContractGate returns the create event of the merge-scope gate that pull
// request pr of work unit unit opens when its head changes files matching
// the contract paths (choices approve, reject), created at at. ok is false
// when files is empty: no gate is needed.
func ContractGate(unit, pr int, head string, files []string, at time.Time) (ev gate.Event, ok bool) {
	if len(files) == 0 {
		return gate.Event{}, false
	}
	wu, key := strconv.Itoa(unit), fmt.Sprintf("contract:pr%d:%s", pr, head)
	return gate.Event{
		Type: gate.EventCreate, Time: at, Actor: "aepgate", GateID: ContractGateID(pr, head), WorkUnit: &wu,
		Question: fmt.Sprintf("Pull request #%d changes contract paths at %s: %s. Approve these changes?", pr, gitsha.Short(head), listFiles(files, nil)),
		Choices:  gate.Choices{ChoiceApprove, ChoiceReject}, ExternalEffect: "merge-protected-branch",
		OwnerOnlyCategory: "human-product-judgment-action", BlockingScope: gate.ScopeMerge, SafeDefault: ChoiceReject, DecisionKey: &key,
	}, true
}

// listFiles names the first maxListedFiles of files, each followed by the
// source of authority it changes when sources names one, e.g.
// "AGENTS.md (changes a source of authority: the instructions agents
// follow)", then how many more there are.
func listFiles(files []string, sources map[string]string) string {
	shown, more := files, ""
	if len(files) > maxListedFiles {
		shown, more = files[:maxListedFiles], fmt.Sprintf(" and %d more", len(files)-maxListedFiles)
	}
	out := make([]string, len(shown))
	for i, f := range shown {
		out[i] = f
		if src := sources[f]; src != "" {
			out[i] += " (" + src + ")"
		}
	}
	return strings.Join(out, ", ") + more
}
