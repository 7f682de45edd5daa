package gate

import (
	"fmt"
	"strings"
)

// Request is the action to decide: Action is one of the check actions;
// WorkUnit is empty for an operation on no particular unit; ExternalEffect,
// when set, must be covered by a resolved direct-owner gate.
type Request struct {
	Action          string
	WorkUnit        string
	ExternalEffect  string
	AuthoritySource string
}

// Blocker is a gate that stops the action, with a machine token
// (gate-open:<id>, gate-answered-safe-default:<id>, gate-event-malformed:<n>)
// and a sentence for people.
type Blocker struct {
	Token         string   `json:"token"`
	GateID        string   `json:"gateId,omitempty"`
	WorkUnit      *string  `json:"workUnit,omitempty"`
	BlockingScope string   `json:"blockingScope,omitempty"`
	Question      string   `json:"question,omitempty"`
	Choices       []string `json:"choices,omitempty"`
	Choice        *string  `json:"choice,omitempty"`
	Reason        string   `json:"reason"`
}

// Decision is Evaluate's answer, in craft's check shape.
type Decision struct {
	Allowed           bool      `json:"allowed"`
	Project           string    `json:"project"`
	WorkUnit          *string   `json:"workUnit"`
	Action            string    `json:"action"`
	ExternalEffect    *string   `json:"externalEffect"`
	AuthoritySource   string    `json:"authoritySource"`
	Blockers          []Blocker `json:"blockers"`
	AuthorityRefusals []string  `json:"authorityRefusals"`
	// Explanations says, for people, why each authority refusal was made.
	Explanations []string `json:"-"`
}

// Evaluate replays the log and decides req. An unknown action or authority
// source is an error (bad input), never a pass.
func Evaluate(log Log, req Request) (Decision, State, error) {
	return evaluate(log, req, allProtections())
}

// evaluate is Evaluate under p.
func evaluate(log Log, req Request, p protections) (Decision, State, error) {
	st := replay(log, p)
	d, err := p.check(st, req)
	return d, st, err
}

// Check decides req against replayed gates (§3.6), failing closed: every
// malformed event blocks, and a gate answered with HOLD or its safe default
// still blocks.
func Check(st State, req Request) (Decision, error) { return allProtections().check(st, req) }

// check is Check under p.
func (p protections) check(st State, req Request) (Decision, error) {
	if !checkActions[req.Action] {
		return Decision{}, fmt.Errorf("gate check: action %q: expected one of %s", req.Action, list(checkActions))
	}
	src := req.AuthoritySource
	if src == "" {
		src = AuthorityDirectOwner
	}
	if !authoritySources[src] {
		return Decision{}, fmt.Errorf("gate check: authority source %q: expected one of %s", src, list(authoritySources))
	}
	d := Decision{Project: st.Project, Action: req.Action, AuthoritySource: src, Blockers: []Blocker{}, AuthorityRefusals: []string{}}
	if req.WorkUnit != "" {
		wu := req.WorkUnit
		d.WorkUnit = &wu
	}
	if req.ExternalEffect != "" {
		eff := req.ExternalEffect
		d.ExternalEffect = &eff
	}
	for _, m := range st.Malformed {
		if !p.malformedBlocks {
			break
		}
		d.Blockers = append(d.Blockers, Blocker{Token: fmt.Sprintf("gate-event-malformed:%d", m.Index),
			Reason: "an unreadable gate event blocks everything until it is fixed: " + m.Message})
	}
	for _, g := range st.Gates {
		if b, ok := p.blocks(g, req); ok {
			d.Blockers = append(d.Blockers, b)
		}
	}
	p.authorityChecks(st, req, src, &d)
	d.Allowed = len(d.Blockers) == 0 && len(d.AuthorityRefusals) == 0
	return d, nil
}

// blocks reports whether g stops req: an open gate, or one answered with
// HOLD or its safe default, whose scope and target match.
func (p protections) blocks(g Gate, req Request) (Blocker, bool) {
	b := Blocker{GateID: g.GateID, WorkUnit: g.WorkUnit, BlockingScope: g.BlockingScope, Question: g.Question, Choices: g.Choices, Choice: g.Choice}
	switch {
	case g.State == StateOpen:
		b.Token = "gate-open:" + g.GateID
		b.Reason = fmt.Sprintf("gate %s is open: the owner answers one of %s", g.GateID, strings.Join(g.Choices, ", "))
	case p.safeAnswerBlocks && g.answeredSafe():
		b.Token = "gate-answered-safe-default:" + g.GateID
		b.Reason = fmt.Sprintf("the owner answered gate %s with %q, which keeps it blocking", g.GateID, *g.Choice)
	default:
		return Blocker{}, false
	}
	return b, matches(g, req)
}

// matches is §3.6's target rule: a HOLD or project-scoped gate blocks every
// action of every unit; otherwise the scope must be the action or work-unit,
// and the gate's unit must be the request's (no unit matches no unit).
func matches(g Gate, req Request) bool {
	if g.IsHold() || g.BlockingScope == scopeProject {
		return true
	}
	if g.BlockingScope != req.Action && g.BlockingScope != scopeUnit {
		return false
	}
	if g.WorkUnit == nil {
		return req.WorkUnit == ""
	}
	return *g.WorkUnit == req.WorkUnit
}

func (p protections) authorityChecks(st State, req Request, src string, d *Decision) {
	if src == AuthorityPlanDerived {
		d.AuthorityRefusals = append(d.AuthorityRefusals, "plan-derived-dangerous-effect-without-plan-receipt")
		d.Explanations = append(d.Explanations, "plan-derived authority needs an owner plan receipt, which aepgate does not accept for external effects")
	}
	if req.ExternalEffect == "" {
		return
	}
	if !externalEffects[req.ExternalEffect] {
		d.AuthorityRefusals = append(d.AuthorityRefusals, "external-effect-invalid")
		d.Explanations = append(d.Explanations, fmt.Sprintf("external effect %q: expected one of %s", req.ExternalEffect, list(externalEffects)))
		return
	}
	for _, g := range st.Gates {
		if p.grants(g, req) {
			return
		}
	}
	d.AuthorityRefusals = append(d.AuthorityRefusals, "exact-direct-owner-effect-gate-required")
	d.Explanations = append(d.Explanations, fmt.Sprintf("expected a gate with externalEffect %s resolved by the direct owner (scope project, or scope %s/work-unit for work unit %q); saw none", req.ExternalEffect, req.Action, req.WorkUnit))
}

// grants reports whether g is the direct owner's exact answer authorising
// req's external effect. An answer of HOLD or the safe default grants
// nothing.
func (p protections) grants(g Gate, req Request) bool {
	if g.State != StateResolved || g.Authority == nil || *g.Authority != AuthorityDirectOwner || p.safeAnswerBlocks && g.answeredSafe() {
		return false
	}
	if g.ExternalEffect != req.ExternalEffect {
		return false
	}
	if g.BlockingScope == scopeProject {
		return true
	}
	if g.BlockingScope != req.Action && g.BlockingScope != scopeUnit {
		return false
	}
	return deref(g.WorkUnit) == req.WorkUnit
}
