package gatelog

import (
	"slices"
	"testing"

	"github.com/aepgate/aepgate/protocol/gate"
)

// TestRulesNegativeControls shows, for each "who counts" rule, an attack
// that the full rule set refuses and that succeeds once that one rule is
// left out: the rule is what stops it.
func TestRulesNegativeControls(t *testing.T) {
	coordGate := comment(1, "carol", onPR, 1, gateBlock("deploy-docs", "merge", "Deploy the docs?"))
	ownerHold := comment(1, "alice", unitIssue, 1, "/aep hold legal")
	resolveBy := func(it Item) Input { return input(coordGate, it) }
	tests := []struct {
		name, rule string
		in         Input
		// attackWorked says whether the attack got through.
		attackWorked func(Result) bool
	}{
		{"non-owner resolves", "owner-decides", resolveBy(comment(2, "mallory", onPR, 2, "/aep resolve deploy-docs approve")), unblocked},
		{"relayed approval", "owner-decides", resolveBy(comment(2, "carol", onPR, 2, "The owner approved this on a call.\n/aep resolve deploy-docs approve")), unblocked},
		{"coordinator RESUME", "owner-decides", input(ownerHold, comment(2, "carol", onPR, 2, "/aep resume")), unblocked},
		{"non-owner approving review", "owner-decides", resolveBy(review(2, "mallory", onPR, 2, ReviewApproved, headA, "")), unblocked},
		{"owner listed as an agent resolves", "not-agent", func() Input {
			in := resolveBy(comment(2, "alice", onPR, 2, "/aep resolve deploy-docs approve"))
			in.IsAgent = func(l string) bool { return l == "alice" }
			return in
		}(), unblocked},
		{"owner listed as an agent approves", "not-agent", func() Input {
			in := resolveBy(review(2, "alice", onPR, 2, ReviewApproved, headA, ""))
			in.IsAgent = func(l string) bool { return l == "alice" }
			return in
		}(), unblocked},
		{"owner login on a Bot account", "human-owner", resolveBy(with(comment(2, "alice", onPR, 2, "/aep resolve deploy-docs approve"), func(i *Item) { i.AuthorType = "Bot" })), unblocked},
		{"owner whose permission was lowered to read", "live-write", withPerm(resolveBy(comment(2, "alice", onPR, 2, "/aep resolve deploy-docs approve")), "read"), unblocked},
		{"owner whose permission is unknown", "live-write", withPerm(resolveBy(comment(2, "alice", onPR, 2, "/aep resolve deploy-docs approve")), ""), unblocked},
		{"coordinator who lost write access puts the unit on HOLD", "live-write", withPerm(input(comment(1, "carol", onPR, 1, "/aep hold because")), "admin", "carol", "read"), blocked},
		{"listed owner with read access holds the project", "live-write", withPerm(input(comment(1, "alice", control, 1, "/aep hold freeze")), "read"), blocked},
		{"edited comment", "not-edited", resolveBy(with(comment(2, "alice", onPR, 2, "/aep resolve deploy-docs approve"), func(i *Item) { i.Updated = at(9) })), unblocked},
		{"edit event", "created-only", resolveBy(with(comment(2, "alice", onPR, 2, "/aep resolve deploy-docs approve"), func(i *Item) { i.Event = "issue_comment.edited" })), unblocked},
		{"stranger puts the unit on HOLD", "listed-requester", input(comment(1, "mallory", onPR, 1, "/aep hold because")), blocked},
		{"stranger opens a gate", "listed-requester", input(comment(1, "mallory", onPR, 1, gateBlock("x", "merge", "Q?"))), blocked},
		{"approval at an older head", "approval-at-head", resolveBy(review(2, "alice", onPR, 2, ReviewApproved, headB, "")), unblocked},
		{"project gate opened on a pull request", "project-on-control-issue", input(comment(1, "carol", onPR, 1, gateBlock("freeze", "project", "Freeze?"))), blocked},
		{"project HOLD lifted from a pull request", "right-unit", input(comment(1, "carol", control, 1, "/aep hold freeze"), comment(2, "alice", onPR, 2, "/aep resolve project-hold RESUME")), unblocked},
		{"unit gate resolved on the control issue", "right-unit", resolveBy(comment(2, "alice", control, 2, "/aep resolve deploy-docs approve")), unblocked},
		{"another unit's issue holds this unit", "right-unit", input(comment(1, "carol", Source{Kind: UnitIssue, Number: 14}, 1, "/aep hold x")), blocked},
		{"a malformed gate id lifts the HOLD", "exact-gate-id", input(ownerHold, comment(2, "alice", unitIssue, 2, "/aep resolve unit-hold-13/ RESUME")), unblocked},
		{"another coordinator holds beside the authoritative one", "authoritative-coordinator", authoritative(input(comment(1, "carol", onPR, 1, "/aep hold because")), "coord[bot]"), blocked},
		{"another coordinator opens a gate beside the authoritative one", "authoritative-coordinator", authoritative(input(comment(1, "carol", onPR, 1, gateBlock("x", "merge", "Q?"))), "coord[bot]"), blocked},
		{"gate takes the unit HOLD's id", "reserved-ids", input(comment(1, "carol", onPR, 1, gateBlock("unit-hold-13", "merge", "Q?"))), gateExists("unit-hold-13")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if !slices.ContainsFunc(DefaultRules(), func(r Rule) bool { return r.Name == tt.rule }) {
				t.Fatalf("no rule %q", tt.rule)
			}
			if r := Build(tt.in); tt.attackWorked(r) {
				t.Errorf("with every rule the attack worked: %+v", r.Outcomes)
			} else if !refusedOnce(r) {
				t.Errorf("with every rule no request was refused: %+v", r.Outcomes)
			}
			if r := BuildWith(tt.in, without(tt.rule)); !tt.attackWorked(r) {
				t.Errorf("without %s the attack still failed, so the rule is not what stops it: %+v", tt.rule, r.Outcomes)
			}
		})
	}
}

// authoritative makes login the repository's authoritative coordinator.
func authoritative(in Input, login string) Input {
	in.Policy.Coordinator = login
	return in
}

// TestAuthoritativeCoordinator: with a scope map, only the authoritative
// coordinator's (and the owners') requests count, and another
// coordinator's is refused naming the authoritative one; a flat list keeps
// every coordinator.
func TestAuthoritativeCoordinator(t *testing.T) {
	hold := func(who string) Item { return comment(1, who, onPR, 1, "/aep hold because") }
	tests := []struct {
		name        string
		in          Input
		wantBlocked bool
		wantReason  string
	}{
		{"the authoritative coordinator holds", authoritative(input(hold("Coord[bot]")), "coord[bot]"), true, ""},
		{"an owner holds", authoritative(input(hold("alice")), "coord[bot]"), true, ""},
		{"another coordinator holds", authoritative(input(hold("carol")), "coord[bot]"), false,
			"carol may not hold: coord[bot] is the one authoritative coordinator of this repository (the coordinators scope map), and craft allows one per scope; coord[bot] or an owner writes it"},
		{"a flat list: any coordinator holds", input(hold("carol")), true, ""},
		{"a stranger is refused as before", authoritative(input(hold("mallory")), "coord[bot]"), false,
			"only owners (Alice) and coordinators (carol, coord[bot]) may hold; mallory is neither"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := Build(tt.in)
			if blocked(r) != tt.wantBlocked {
				t.Errorf("blocked = %v, want %v: %+v", blocked(r), tt.wantBlocked, r.Outcomes)
			}
			reason := ""
			if len(r.Outcomes) == 1 && !r.Outcomes[0].Accepted {
				reason = r.Outcomes[0].Reason
			}
			if reason != tt.wantReason {
				t.Errorf("reason %q, want %q", reason, tt.wantReason)
			}
		})
	}
}

func unblocked(r Result) bool { return len(r.Blockers) == 0 }
func blocked(r Result) bool   { return len(r.Blockers) > 0 }

func gateExists(id string) func(Result) bool {
	return func(r Result) bool {
		return slices.ContainsFunc(r.State.Gates, func(g gate.Gate) bool { return g.GateID == id && g.CreatedBy == "carol" })
	}
}

func refusedOnce(r Result) bool {
	return slices.ContainsFunc(r.Outcomes, func(o Outcome) bool { return !o.Accepted && o.Reason != "" })
}

// withPerm gives alice permission p ("" unknown) and carol write, or the
// login/permission pairs in more.
func withPerm(in Input, p string, more ...string) Input {
	in.Permissions = Permissions{"alice": p, "carol": "write"}
	for i := 0; i+1 < len(more); i += 2 {
		in.Permissions[more[i]] = more[i+1]
	}
	if p == "" {
		delete(in.Permissions, "alice")
	}
	return in
}
