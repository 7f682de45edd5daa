package gatelog

import (
	"fmt"
	"strings"
)

// NotInstructorApproval refuses an approval of pull request PR's
// contract-change gate (an approving review, or a resolve with approve) by
// whoever instructed an agent that made it (Input.Instructed): who asked an
// agent for a change is one of its authors, so another owner approves it.
// When who instructed the agents cannot be known, no approval of that gate
// counts. A reject is never refused.
func NotInstructorApproval(a Attempt) string {
	f := a.In.Instructed
	if !f.Applies() || !approves(a) || !isContractGateOf(a.GateID, a.In.PR) {
		return ""
	}
	if f.Unknown != "" {
		return fmt.Sprintf("pull request #%d was made by the agent %s, and %s, so no approval of its contract change can be shown independent of whoever instructed it",
			a.In.PR, strings.Join(f.Agents, ", "), f.Unknown)
	}
	i := f.Of(a.Item.Author)
	if i == nil {
		return ""
	}
	return fmt.Sprintf("%s instructed the agent %s that made pull request #%d (on issue #%d); whoever asked an agent for a change is one of its authors, so their approval does not answer gate %s: another owner approves it",
		a.Item.Author, i.Agent, a.In.PR, f.Unit, a.GateID)
}

// approves reports whether the attempt approves a gate.
func approves(a Attempt) bool {
	return a.Action == ActionApprove || (a.Action == ActionResolve && strings.EqualFold(a.Choice, ChoiceApprove))
}

// isContractGateOf reports whether id is a contract-change gate of pull
// request pr (ContractGateID, at any head).
func isContractGateOf(id string, pr int) bool {
	return pr > 0 && strings.HasPrefix(id, fmt.Sprintf("%spr%d-", ContractPrefix, pr))
}

// NotAgent refuses every command and approval of a listed agent
// (Input.IsAgent), whatever its permission and whatever the config lists
// it as: an agent acts for whoever instructs it, so what it writes never
// decides, holds or approves anything; a person does.
func NotAgent(a Attempt) string {
	if a.In == nil || a.In.IsAgent == nil || !a.In.IsAgent(a.Item.Author) {
		return ""
	}
	return fmt.Sprintf("%s is a listed agent (config key agents): an agent's command or approval never counts, whatever its permission; a person with write permission who did not instruct it writes it instead", a.Item.Author)
}
