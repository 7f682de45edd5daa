package deployrules

import (
	"fmt"
	"strings"
	"time"

	"github.com/aepgate/aepgate/protocol/config"
	"github.com/aepgate/aepgate/protocol/gate"
	"github.com/aepgate/aepgate/protocol/gitsha"
)

// MaxWait is how long GitHub keeps a job waiting on a deployment protection
// rule: "If a job is not approved within 30 days, it will automatically
// fail" (docs.github.com, Reviewing deployments). A request older than this
// is answered rejected without asking anyone.
const MaxWait = 30 * 24 * time.Hour

// The states GitHub's review of a custom deployment protection rule takes
// (POST .../actions/runs/{run_id}/deployment_protection_rule).
const (
	Approved = "approved"
	Rejected = "rejected"
)

// Request is one deployment waiting on the App's rule.
type Request struct {
	// Repo is "owner/name"; Environment the environment's name.
	Repo, Environment string
	// SHA is the commit being deployed; RunID the workflow run waiting.
	SHA   string
	RunID int64
	// Requested is when the App first saw the request.
	Requested time.Time
}

// Facts are what the caller read for a request.
type Facts struct {
	// Config is the repository config on the default branch; nil when it
	// could not be read or is invalid (ConfigProblem says why).
	Config        *config.Config
	ConfigProblem string
	// Certified says the commit carries a valid aepgate/certificate written
	// by this App; Certificate says why not when it does not.
	Certified   bool
	Certificate string
	// Lineage is what the commits since the environment's last approved
	// deployment are judged on (Descends); nil when not read.
	Lineage *Lineage
	// Increment says whether the commit is the integrated candidate of a
	// complete increment; nil when the App cannot tell (Increments).
	Increment *bool
	// Gates is the replayed gate log of the control issue with this
	// request's deploy gate (Gate) in it when the environment asks for one.
	Gates gate.State
	// Now is the time of the decision.
	Now time.Time
}

// Answer is what to do with a request. State is Approved, Rejected or ""
// (wait for the owner); Reason says why, for the deployment's comment.
type Answer struct {
	State  string
	Reason string
	// Rule names the rule that decided.
	Rule string
}

// Waiting reports whether the answer is to wait.
func (a Answer) Waiting() bool { return a.State == "" }

// GatePrefix starts every deploy gate's id (GateID): the deployment judge
// answers the comments that name one, the comment answerer leaves them.
const GatePrefix = "auto-deploy-"

// GateID is the id of the deploy gate of run runID's deployment to
// environment: under gatelog's reserved auto- prefix, so no comment can
// open or pre-empt it.
func GateID(environment string, runID int64) string {
	env, err := gate.CleanID(strings.ToLower(environment))
	if err != nil || env == "" {
		env = "env"
	}
	return fmt.Sprintf("%s%s-run%d", GatePrefix, env, runID)
}

// Gate is the owner gate of a request: human product judgement, effect
// deploy, scope deploy, choices approve/reject, opened at req.Requested
// truncated to the second. GitHub gives comments whole-second times, so an
// owner's answer posted within the second the App first saw the request
// would otherwise look older than the gate and count for nothing; an answer
// must name the gate, whose ID holds the run's, so nothing written before
// the run existed can answer it.
func Gate(req Request, actor string) gate.Event {
	return gate.Event{Type: gate.EventCreate, Time: req.Requested.Truncate(time.Second), Actor: actor, GateID: GateID(req.Environment, req.RunID),
		Question: fmt.Sprintf("Deploy %s to %s (workflow run %d)?", req.SHA, req.Environment, req.RunID),
		Choices:  gate.Choices{"approve", "reject"}, ExternalEffect: "deploy", OwnerOnlyCategory: "human-product-judgment-action",
		BlockingScope: "deploy", SafeDefault: "reject"}
}

// DecideWith applies rules in order: the first that decides answers.
// With none deciding the deployment is approved; tests pass fewer rules to
// show what each one stops.
func DecideWith(req Request, f Facts, rules []Rule) Answer {
	for _, r := range rules {
		if a, ok := r.Decide(req, f); ok {
			a.Rule = r.Name
			return a
		}
	}
	return Answer{State: Approved, Rule: "approved", Reason: fmt.Sprintf("aepgate approved %s for %s: %s", gitsha.Short(req.SHA), req.Environment, met(req, f))}
}

// met says which requirement the commit met.
func met(req Request, f Facts) string {
	env := f.Config.Deploy.Environments[req.Environment]
	s := "the environment requires " + env.Require
	if env.Require == config.RequireCertified {
		s += f.Lineage.describe(req.SHA)
	}
	if env.OwnerGate {
		s += " and the owner approved gate " + GateID(req.Environment, req.RunID)
	}
	return s
}
