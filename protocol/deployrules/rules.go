package deployrules

import (
	"fmt"
	"strings"

	"github.com/aepgate/aepgate/protocol/config"
	"github.com/aepgate/aepgate/protocol/gate"
	"github.com/aepgate/aepgate/protocol/gitsha"
)

// Rule is one reason a deployment may not go out now.
type Rule struct {
	Name string
	// Decide returns the answer and true when the rule decides req.
	Decide func(req Request, f Facts) (Answer, bool)
}

// DefaultRules are every rule, in the order they apply.
func DefaultRules() []Rule {
	return []Rule{
		{"expired", Expired}, {"config", Configured}, {"environment", Listed},
		{"hold", Held}, {"requirement", Required}, {"lineage", Descends}, {"owner-gate", OwnerGate},
	}
}

func reject(format string, args ...any) (Answer, bool) {
	return Answer{State: Rejected, Reason: "aepgate rejected this deployment: " + fmt.Sprintf(format, args...)}, true
}

// Expired rejects a request older than GitHub's limit (MaxWait).
func Expired(req Request, f Facts) (Answer, bool) {
	if !req.Requested.IsZero() && f.Now.Sub(req.Requested) > MaxWait {
		return reject("the request is older than GitHub's %d-day limit for a deployment to wait; start the deployment again", int(MaxWait.Hours()/24))
	}
	return Answer{}, false
}

// Configured rejects when the repository config cannot be read.
func Configured(_ Request, f Facts) (Answer, bool) {
	if f.Config == nil {
		return reject("the repository config %s on the default branch is not usable (%s)", config.DefaultPath, f.ConfigProblem)
	}
	return Answer{}, false
}

// Listed rejects an environment the config does not name.
func Listed(req Request, f Facts) (Answer, bool) {
	if _, ok := f.Config.Deploy.Environments[req.Environment]; !ok {
		return reject("environment %q is not listed under deploy.environments in %s", req.Environment, config.DefaultPath)
	}
	return Answer{}, false
}

// Held rejects while a HOLD, or any gate of project or deploy scope other
// than the request's own, blocks deploying (gate.Check, action deploy).
func Held(req Request, f Facts) (Answer, bool) {
	var why []string
	for _, b := range blockers(f.Gates) {
		if b.GateID != GateID(req.Environment, req.RunID) {
			why = append(why, b.Reason)
		}
	}
	if len(why) > 0 {
		return reject("%s", strings.Join(why, "; "))
	}
	return Answer{}, false
}

// Required rejects a commit that does not meet the environment's require.
func Required(req Request, f Facts) (Answer, bool) {
	switch env := f.Config.Deploy.Environments[req.Environment]; env.Require {
	case config.RequireNone, "":
		// "" is an environment not listed: Listed's to refuse.
		return Answer{}, false
	case config.RequireCertified:
		if !f.Certified {
			return reject("%s is not the merge commit of a certified unit: %s", gitsha.Short(req.SHA), f.Certificate)
		}
		return Answer{}, false
	case config.RequireIncrement:
		if f.Increment == nil {
			return reject("%s requires a complete increment, and this App cannot judge increments yet", req.Environment)
		}
		if !*f.Increment {
			return reject("%s is not the integrated candidate of a complete increment (aepgate/increment)", gitsha.Short(req.SHA))
		}
		return Answer{}, false
	default:
		return reject("environment %q requires %q, which aepgate does not know", req.Environment, env.Require)
	}
}

// OwnerGate waits while the request's deploy gate is open and rejects
// when the owner answered reject; an approval by the direct owner lets the
// deployment go.
func OwnerGate(req Request, f Facts) (Answer, bool) {
	if !f.Config.Deploy.Environments[req.Environment].OwnerGate {
		return Answer{}, false
	}
	id := GateID(req.Environment, req.RunID)
	d, err := gate.Check(f.Gates, gate.Request{Action: "deploy", ExternalEffect: "deploy"})
	if err != nil {
		return reject("the gate check failed: %v", err)
	}
	var own []gate.Blocker
	for _, b := range d.Blockers {
		if b.GateID != id {
			continue // a HOLD or another gate: Held's to refuse
		}
		if strings.HasPrefix(b.Token, "gate-open:") {
			return Answer{Reason: waitingFor(f.Gates, id)}, true
		}
		own = append(own, b)
	}
	if len(own) > 0 || len(d.AuthorityRefusals) > 0 {
		return reject("the owner did not approve gate %s: %s", id, strings.Join(append(reasons(own), d.Explanations...), "; "))
	}
	return Answer{}, false
}

// blockers are what stops action deploy of no unit.
func blockers(st gate.State) []gate.Blocker {
	d, err := gate.Check(st, gate.Request{Action: "deploy"})
	if err != nil {
		return []gate.Blocker{{Reason: err.Error()}}
	}
	return d.Blockers
}

func reasons(bs []gate.Blocker) []string {
	out := make([]string, 0, len(bs))
	for _, b := range bs {
		out = append(out, b.Reason)
	}
	return out
}
