package instructor

import (
	"testing"

	"github.com/aepgate/aepgate/protocol/login"
	"github.com/google/go-cmp/cmp"
)

func agents(names ...string) func(string) bool {
	return func(s string) bool { return login.In(names, s) }
}

func assigned(actor, assignee string) Event {
	return Event{Kind: KindAssigned, Actor: actor, Assignee: assignee}
}

func unassigned(actor, assignee string) Event {
	return Event{Kind: KindUnassigned, Actor: actor, Assignee: assignee}
}

func TestFind(t *testing.T) {
	const bot = "copilot-swe-agent[bot]"
	tests := []struct {
		name   string
		events []Event
		want   []Instructor
	}{
		{"no events", nil, nil},
		{"agent never assigned", []Event{assigned("alice", "bob")}, nil},
		{"the sender", []Event{assigned("alice", bot)}, []Instructor{{"alice", bot, []Role{RoleAssigner}}}},
		{"assignees then", []Event{assigned("olivia", "bob"), assigned("olivia", "dana"), assigned("alice", bot)},
			[]Instructor{{"alice", bot, []Role{RoleAssigner}}, {"bob", bot, []Role{RoleAssignee}}, {"dana", bot, []Role{RoleAssignee}}}},
		{"unassigned before", []Event{assigned("olivia", "bob"), unassigned("olivia", "BOB"), assigned("alice", bot)},
			[]Instructor{{"alice", bot, []Role{RoleAssigner}}}},
		{"unassigned after the agent still counts", []Event{assigned("olivia", "bob"), assigned("alice", bot), unassigned("olivia", "bob")},
			[]Instructor{{"alice", bot, []Role{RoleAssigner}}, {"bob", bot, []Role{RoleAssignee}}}},
		{"assigned after the agent", []Event{assigned("alice", bot), assigned("olivia", "erin")},
			[]Instructor{{"alice", bot, []Role{RoleAssigner}}}},
		{"self-assigned assigner", []Event{assigned("alice", "alice"), assigned("alice", bot)},
			[]Instructor{{"alice", bot, []Role{RoleAssigner, RoleAssignee}}}},
		{"agent unassigned later keeps them", []Event{assigned("alice", bot), unassigned("olivia", bot)},
			[]Instructor{{"alice", bot, []Role{RoleAssigner}}}},
		{"assigned twice", []Event{assigned("alice", bot), unassigned("alice", bot), assigned("olivia", "bob"), assigned("carol", bot)},
			[]Instructor{{"alice", bot, []Role{RoleAssigner}}, {"carol", bot, []Role{RoleAssigner}}, {"bob", bot, []Role{RoleAssignee}}}},
		{"agents are nobody's instructors", []Event{assigned("Copilot", "agent-runner"), assigned("agent-runner", bot)}, nil},
		{"deleted sender", []Event{assigned("", bot)}, nil},
		{"no GitHub login", []Event{assigned("\u212aelvin", bot)}, nil},
		{"other kinds ignored", []Event{{Kind: "commented", Actor: "bob"}, assigned("alice", bot)},
			[]Instructor{{"alice", bot, []Role{RoleAssigner}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Find(tt.events, agents(bot, "Copilot", "agent-runner"))
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Find (-want +got):\n%s", diff)
			}
		})
	}
}

func TestNew(t *testing.T) {
	tl := Timeline{Events: []Event{assigned("alice", "Copilot")}}
	f := New([]string{"Copilot"}, 7, tl, agents("Copilot"))
	if !f.Applies() || f.Of("ALICE") == nil || f.Of("bob") != nil || f.Unknown != "" {
		t.Errorf("New = %+v; want alice as the instructor", f)
	}
	tl.Truncated = true
	if f := New([]string{"Copilot"}, 7, tl, agents("Copilot")); f.Unknown == "" || len(f.Instructors) != 0 {
		t.Errorf("a truncated timeline: %+v; want the instructors unknown", f)
	}
	var none *Finding
	if none.Applies() || none.Of("alice") != nil || (&Finding{}).Applies() {
		t.Error("a pull request no agent made has no instructors")
	}
}
