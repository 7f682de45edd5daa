package gate

import (
	"fmt"
	"strings"
)

// create opens a gate (§3.3) after checking its category, effect, scope and
// choices. An existing id is returned unchanged; a decision the project
// already has (same fingerprint, open or resolved) is reused.
func (r *replayer) create(e Event) Outcome {
	g, bad := r.gateFromEvent(e)
	if bad != nil {
		return *bad
	}
	if r.exists(g.GateID) {
		return Outcome{GateID: g.GateID, Result: ResultIdempotent}
	}
	for _, old := range r.st.Gates {
		if old.DecisionFingerprint == g.DecisionFingerprint {
			return Outcome{GateID: old.GateID, Result: ResultReusedDecision,
				Message: "the owner's answer to this exact decision is reused (gate " + old.GateID + ")"}
		}
	}
	r.add(g)
	return Outcome{GateID: g.GateID, Result: ResultCreated}
}

func (r *replayer) gateFromEvent(e Event) (Gate, *Outcome) {
	fail := func(id, tok, format string, args ...any) (Gate, *Outcome) {
		o := refused(id, tok, format, args...)
		return Gate{}, &o
	}
	id, err := CleanID(e.GateID)
	if err != nil {
		return fail(e.GateID, "gate-id-invalid", "gateId %q: %v", e.GateID, err)
	}
	if isHoldID(id) {
		return fail(id, "gate-id-reserved", "gate ids starting %q are reserved for HOLD; use a hold event", HoldID)
	}
	if strings.TrimSpace(e.Question) == "" {
		return fail(id, "question-required", "a gate needs the question the owner answers")
	}
	if tok, msg := checkKind(e); tok != "" {
		return fail(id, tok, "%s", msg)
	}
	scope := e.BlockingScope
	if scope == "" {
		scope = scopeUnit
	}
	if !scopes[scope] {
		return fail(id, "blocking-scope-invalid", "blockingScope %q: expected one of %s", scope, list(scopes))
	}
	choices := NormaliseChoices(e.Choices)
	if len(choices) == 0 {
		return fail(id, "choices-required", "a gate needs at least one choice")
	}
	safe := strings.TrimSpace(e.SafeDefault)
	if safe == "" {
		safe = defaultSafe
	}
	wu, err := cleanWorkUnit(e.WorkUnit)
	if err != nil {
		return fail(id, "work-unit-invalid", "workUnit %q: %v", *e.WorkUnit, err)
	}
	g := Gate{
		SchemaVersion: 1, Project: r.st.Project, GateID: id, WorkUnit: wu,
		Question: strings.TrimSpace(e.Question), Choices: choices, DecisionKey: e.DecisionKey,
		ExternalEffect: e.ExternalEffect, OwnerOnlyCategory: e.OwnerOnlyCategory, BlockingScope: scope,
		SafeDefault: safe, State: StateOpen, CreatedAt: e.Time.UnixMilli(), Evidence: e.Evidence, CreatedBy: e.Actor,
	}
	g.DecisionFingerprint = Fingerprint(g)
	return g, nil
}

// checkEffect returns a refusal token and message for an effect that may
// not be gated, with craft's wording.
func checkEffect(eff string) (token, msg string) {
	switch {
	case externalEffects[eff]:
		return "", ""
	case eff == "":
		return "external-effect-required", "a gate needs exactly one externalEffect (expected one of " + list(externalEffects) + ")"
	case refusedEffects[eff]:
		return "not-an-external-effect", "externalEffect " + eff + " is not an external effect: do it on your own authority"
	default:
		return "external-effect-invalid", "externalEffect " + eff + " is not an external effect, so you do not need a gate (expected one of " + list(externalEffects) + ")"
	}
}

func cleanWorkUnit(wu *string) (*string, error) {
	if wu == nil {
		return nil, nil
	}
	c, err := CleanID(*wu)
	if err != nil {
		return nil, err
	}
	return &c, nil
}

// checkKind checks a gate event's ownerOnlyCategory and externalEffect,
// returning a refusal token and message, or "" when both are valid.
func checkKind(e Event) (tok, msg string) {
	switch {
	case e.OwnerOnlyCategory == "":
		return "owner-only-category-required", fmt.Sprintf("a gate needs exactly one ownerOnlyCategory (expected one of %s)", list(ownerOnlyCategories))
	case !ownerOnlyCategories[e.OwnerOnlyCategory]:
		return "owner-only-category-invalid", fmt.Sprintf("ownerOnlyCategory %q: expected one of %s", e.OwnerOnlyCategory, list(ownerOnlyCategories))
	}
	return checkEffect(e.ExternalEffect)
}
