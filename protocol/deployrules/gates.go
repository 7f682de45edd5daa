package deployrules

import (
	"github.com/aepgate/aepgate/protocol/gate"
	"github.com/aepgate/aepgate/protocol/gatelog"
)

// Replay derives the gate state a request is judged under: in holds the
// control issue's items, the policy and permissions (gatelog.Input with no
// unit); when the environment asks for an owner gate, the request's own
// deploy gate is opened at req.Requested among them, as aepgate's own gate
// (gatelog's auto- gates), so only the owner's answer after it counts.
func Replay(in gatelog.Input, req Request, ownerGate bool, actor string) gatelog.Result {
	in.Unit, in.PR, in.PullRequests = 0, 0, nil
	if ownerGate {
		in.PullRequests = []gatelog.PullRequestState{{Auto: []gate.Event{Gate(req, actor)}}}
	}
	return gatelog.Build(in)
}
