package instructor

import (
	"fmt"
	"slices"

	"github.com/aepgate/aepgate/protocol/login"
)

// Finding is what is known of who instructed the agents of one pull
// request; the zero Finding (no agents) is a pull request no listed agent
// made, which nobody instructed.
type Finding struct {
	// Agents are the listed agents among the pull request's author and its
	// commits' authors and committers.
	Agents []string
	// Unit is the work unit whose issue's timeline was read (0: none).
	Unit int
	// Instructors are who instructed a listed agent on the unit's issue.
	Instructors []Instructor
	// Unknown says why the instructors cannot be known (the timeline holds
	// more events than are read); then nobody may be taken as independent.
	Unknown string
}

// Applies reports whether the pull request is an agent's.
func (f *Finding) Applies() bool { return f != nil && len(f.Agents) > 0 }

// Of is the instructor named login, or nil when login instructed no agent
// of the pull request.
func (f *Finding) Of(who string) *Instructor {
	if !f.Applies() {
		return nil
	}
	for i := range f.Instructors {
		if login.Equal(f.Instructors[i].Login, who) {
			return &f.Instructors[i]
		}
	}
	return nil
}

// MaxEvents bounds the timeline events read for one unit issue (twenty
// pages of GitHub's largest page, 100).
const MaxEvents = 2000

// Timeline is a unit issue's assignment events as read, oldest first;
// Truncated says the timeline held more than MaxEvents events of any kind.
type Timeline struct {
	Events    []Event
	Truncated bool
}

// New is the finding for a pull request whose agents are agents, made for
// work unit unit, from the unit issue's timeline tl.
func New(agents []string, unit int, tl Timeline, isAgent func(string) bool) *Finding {
	f := &Finding{Agents: agents, Unit: unit}
	if tl.Truncated {
		f.Unknown = fmt.Sprintf("issue #%d's timeline holds more than %d events, more than aepgate reads, so who assigned the agent cannot be known", unit, MaxEvents)
		return f
	}
	f.Instructors = Find(tl.Events, isAgent)
	return f
}

// WithPushes is f with the instructors of pushes (PerPush) added: each
// person who instructed an agent's push becomes an instructor with the
// role "instructed push N (channel)" (one of a push's Unsure instructors
// "may have instructed push N, …"), and each push's agent one of f's
// agents (an agent only a Co-authored-by trailer names included). Then
// Of, and every rule that asks it, refuses them as it refuses an
// assigner. A nil f starts from the zero Finding.
func (f *Finding) WithPushes(pushes []Instructed, isAgent func(string) bool) *Finding {
	out := &Finding{}
	if f != nil {
		out = &Finding{Agents: slices.Clone(f.Agents), Unit: f.Unit, Unknown: f.Unknown}
		for _, i := range f.Instructors {
			i.Roles = slices.Clone(i.Roles)
			out.Instructors = append(out.Instructors, i)
		}
	}
	for _, p := range pushes {
		if p.Agent == "" {
			continue
		}
		if !login.In(out.Agents, p.Agent) {
			out.Agents = append(out.Agents, p.Agent)
		}
		if in := p.Instructor; in != nil {
			out.Instructors = add(out.Instructors, in.Author, p.Agent, Role(fmt.Sprintf("instructed push %d (%s)", p.N, in.Channel)), isAgent)
		}
		for _, in := range p.Unsure {
			out.Instructors = add(out.Instructors, in.Author, p.Agent, Role(fmt.Sprintf("may have instructed push %d, pushed at no known time (%s)", p.N, in.Channel)), isAgent)
		}
	}
	return out
}
