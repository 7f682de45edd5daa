package gatelog

import (
	"fmt"

	"github.com/aepgate/aepgate/protocol/command"
	"github.com/aepgate/aepgate/protocol/gate"
)

// act emits the events of an accepted request whose outcome is ref.
func (b *builder) act(a Attempt, r request, ref int) {
	it := a.Item
	base := gate.Event{Time: it.Created, Actor: it.Author, Evidence: it.URL}
	onControl := it.Source.Kind == ControlIssue
	switch {
	case r.spec != nil:
		ev := b.openGate(base, a, r.spec, onControl)
		b.noteOrigin(ev.GateID, it.Source)
		b.emit(ev, ref)
	case r.cmd.Verb == command.VerbHold && onControl:
		base.Type, base.Reason = gate.EventHold, r.cmd.Reason
		b.projectHold = true
		b.emit(base, ref)
	case r.cmd.Verb == command.VerbHold:
		b.holdUnit(base, r.cmd.Reason, ref)
	case r.cmd.Verb == command.VerbResume && onControl:
		base.Type, base.Authority, base.Choice = gate.EventResume, gate.AuthorityDirectOwner, gate.ResumeChoice
		b.projectHold = false
		b.emit(base, ref)
	case r.cmd.Verb == command.VerbResume:
		b.resumeUnit(base, ref)
	case r.cmd.Verb == command.VerbResolve:
		base.Type, base.Authority, base.GateID, base.Choice = gate.EventResolve, gate.AuthorityDirectOwner, a.GateID, r.cmd.Choice
		b.emit(base, ref)
	}
}

// openGate is the create event of an aep-gate block: for this unit, or for
// no unit on the control issue.
func (b *builder) openGate(e gate.Event, a Attempt, s *command.GateSpec, onControl bool) gate.Event {
	e.Type, e.GateID, e.Question, e.Choices = gate.EventCreate, a.GateID, s.Question, s.Choices
	e.ExternalEffect, e.OwnerOnlyCategory, e.BlockingScope = s.Effect, s.Category, s.Scope
	e.SafeDefault, e.DecisionKey = s.SafeDefault, s.DecisionKey
	if !onControl {
		wu := b.unit
		e.WorkUnit = &wu
	}
	return e
}

// holdUnit puts the work unit on HOLD: a gate of scope work-unit whose only
// choice is RESUME. An open unit HOLD is returned as is; once resumed, a
// new HOLD mints a new id.
func (b *builder) holdUnit(e gate.Event, reason string, ref int) {
	if b.unitHold != "" {
		b.outcomes[ref].GateID = b.unitHold
		b.outcomes[ref].Reason = "work unit #" + b.unit + " is already on HOLD (" + b.unitHold + ")"
		return
	}
	ms := e.Time.UnixMilli()
	id := UnitHoldPrefix + b.unit
	if b.holdIDs[id] {
		id = fmt.Sprintf("%s%s-%d", UnitHoldPrefix, b.unit, ms)
	}
	for n := 2; b.holdIDs[id]; n++ {
		id = fmt.Sprintf("%s%s-%d-%d", UnitHoldPrefix, b.unit, ms, n)
	}
	b.holdIDs[id], b.unitHold = true, id
	wu, key := b.unit, fmt.Sprintf("hold:%s:%d", b.unit, ms)
	e.Type, e.GateID, e.WorkUnit, e.DecisionKey = gate.EventCreate, id, &wu, &key
	e.Question, e.Choices, e.BlockingScope = "HOLD on work unit #"+b.unit+": "+reason, gate.Choices{gate.ResumeChoice}, gate.ScopeWorkUnit
	e.OwnerOnlyCategory, e.ExternalEffect, e.SafeDefault = "explicit-hold", "product-direction-decision", "HOLD"
	b.emit(e, ref)
}

// resumeUnit lifts the unit's open HOLD.
func (b *builder) resumeUnit(e gate.Event, ref int) {
	if b.unitHold == "" {
		b.outcomes[ref].Accepted = false
		b.outcomes[ref].Reason = "work unit #" + b.unit + " is not on HOLD; a project HOLD is lifted on " + controlIssue(b.in)
		return
	}
	e.Type, e.Authority, e.GateID, e.Choice = gate.EventResolve, gate.AuthorityDirectOwner, b.unitHold, gate.ResumeChoice
	b.outcomes[ref].GateID, b.unitHold = b.unitHold, ""
	b.emit(e, ref)
}
