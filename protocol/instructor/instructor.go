package instructor

import (
	"slices"

	"github.com/aepgate/aepgate/protocol/login"
)

// Kinds of Event, as GitHub's timeline names them.
const (
	KindAssigned   = "assigned"
	KindUnassigned = "unassigned"
)

// Event is one assigned or unassigned event of the unit issue's timeline:
// Actor assigned (or unassigned) Assignee.
type Event struct {
	ID       int64
	Kind     string
	Assignee string
	Actor    string
}

// Role is why a login counts as an instructor.
type Role string

// The roles of an instructor.
const (
	// RoleAssigner: they assigned the agent (the event's sender).
	RoleAssigner Role = "assigned it"
	// RoleAssignee: they were assigned to the issue when the agent was.
	RoleAssignee Role = "assignee when it was assigned"
)

// Instructor is a person who instructed an agent, and how.
type Instructor struct {
	Login string
	// Agent is the listed agent they instructed (the first one).
	Agent string
	// Roles are why they count, each once, in the order found.
	Roles []Role
}

// Find replays events (the unit issue's assignment events, oldest first)
// and returns who instructed a listed agent: for every event assigning an
// agent (isAgent), its actor and the assignees at that moment,
// other than agents. Each login appears once, in the order found; an
// agent unassigned later still had its instructors.
func Find(events []Event, isAgent func(string) bool) []Instructor {
	var assignees []string
	var out []Instructor
	for _, e := range events {
		switch e.Kind {
		case KindUnassigned:
			assignees = slices.DeleteFunc(assignees, func(a string) bool { return login.Equal(a, e.Assignee) })
			continue
		case KindAssigned:
		default:
			continue
		}
		if isAgent(e.Assignee) {
			out = add(out, e.Actor, e.Assignee, RoleAssigner, isAgent)
			for _, a := range assignees {
				out = add(out, a, e.Assignee, RoleAssignee, isAgent)
			}
		}
		if e.Assignee != "" && !login.In(assignees, e.Assignee) {
			assignees = append(assignees, e.Assignee)
		}
	}
	return out
}

// add records who as an instructor of agent in role, unless who is
// unknown (a deleted account, or no GitHub login: one that equals nothing,
// login.Equal) or an agent itself.
func add(out []Instructor, who, agent string, role Role, isAgent func(string) bool) []Instructor {
	if !login.Equal(who, who) || isAgent(who) {
		return out
	}
	for i := range out {
		if login.Equal(out[i].Login, who) {
			if !slices.Contains(out[i].Roles, role) {
				out[i].Roles = append(out[i].Roles, role)
			}
			return out
		}
	}
	return append(out, Instructor{Login: who, Agent: agent, Roles: []Role{role}})
}
