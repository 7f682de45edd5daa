package gatelog

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/aepgate/aepgate/protocol/gate"
	"github.com/aepgate/aepgate/protocol/gitsha"
)

// RightUnit keeps each thread to its own unit: a unit issue must be this
// unit's, and a gate is resolved only where it applies (a unit's gate on
// the unit's issue or pull requests, a project gate on the control issue).
func RightUnit(a Attempt) string {
	unit := strconv.Itoa(a.In.Unit)
	if a.Item.Source.Kind == UnitIssue && a.Item.Source.Number != a.In.Unit {
		return fmt.Sprintf("issue #%d is not work unit #%d's issue", a.Item.Source.Number, a.In.Unit)
	}
	if a.Action != ActionResolve || a.Target == nil {
		return ""
	}
	onControl := a.Item.Source.Kind == ControlIssue
	switch {
	case a.Target.Unit == nil && !onControl:
		return fmt.Sprintf("gate %s is a project gate; resolve it on %s", a.GateID, controlIssue(a.In))
	case a.Target.Unit != nil && onControl:
		return fmt.Sprintf("gate %s belongs to work unit #%s; resolve it on that unit's issue or pull request", a.GateID, *a.Target.Unit)
	case a.Target.Unit != nil && *a.Target.Unit != unit:
		return fmt.Sprintf("gate %s belongs to work unit #%s, not #%d; resolve it on that unit's issue or pull request", a.GateID, *a.Target.Unit, a.In.Unit)
	}
	return ""
}

// ProjectOnControlIssue keeps project gates on the control issue and only
// them there: a gate with scope project opened elsewhere is refused, and so
// is a gate for no unit (any other scope) on the control issue.
func ProjectOnControlIssue(a Attempt) string {
	if a.Action != ActionOpenGate {
		return ""
	}
	onControl := a.Item.Source.Kind == ControlIssue
	switch {
	case a.Scope == gate.ScopeProject && !onControl:
		return "a project-wide gate (scope: project) is opened on " + controlIssue(a.In) + ", not on a work unit's issue or pull request"
	case a.Scope != gate.ScopeProject && onControl:
		return fmt.Sprintf("on the control issue a gate needs scope: project (saw %s); a gate for one work unit is opened on its issue or pull request", a.Scope)
	}
	return ""
}

// ApprovalAtHead counts an approving review only at its pull request's
// current head.
func ApprovalAtHead(a Attempt) string {
	if a.Action != ActionApprove {
		return ""
	}
	head := headOf(a.In, a.Item.Source.Number)
	if head != "" && a.Item.Review != nil && a.Item.Review.CommitSHA == head {
		return ""
	}
	return fmt.Sprintf("this approval is for commit %s, but the head of #%d is %s; approve again at the current head", gitsha.Short(reviewSHA(a.Item)), a.Item.Source.Number, orUnknown(gitsha.Short(head)))
}

// Reserved gate id prefixes: aepgate's own unit HOLD and contract-change
// gates, besides gate's project-hold.
const (
	UnitHoldPrefix = "unit-hold-"
	ContractPrefix = "contract-"
	// AutoPrefix and AuditPrefix start the ids of the other gates aepgate
	// opens itself (PullRequestState.Auto): an audit's owner decision is
	// "audit-pr<N>-<cause>-<head>".
	AutoPrefix  = "auto-"
	AuditPrefix = "audit-"
)

// ExactGateID refuses a resolve naming a gate id that is not one as
// written ("unit-hold-1/"), which cleaning would otherwise turn into an
// existing gate's id: an answer counts only for the gate it names exactly,
// so a reaction never claims an effect on a gate the comment did not name.
func ExactGateID(a Attempt) string {
	if a.Action != ActionResolve || a.RawID == a.GateID {
		return ""
	}
	return fmt.Sprintf("%q is not a gate id as written; name the gate exactly, e.g. %q", a.RawID, a.GateID)
}

// ReservedIDs refuses an aep-gate block whose id would take the place of a
// gate aepgate makes itself (a HOLD or a contract-change gate).
func ReservedIDs(a Attempt) string {
	if a.Action != ActionOpenGate {
		return ""
	}
	for _, p := range []string{gate.HoldID, UnitHoldPrefix, ContractPrefix, AutoPrefix, AuditPrefix} {
		if strings.HasPrefix(a.GateID, p) {
			return fmt.Sprintf("gate ids starting %q are reserved for aepgate's own gates; pick another id", p)
		}
	}
	return ""
}
