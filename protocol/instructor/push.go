package instructor

import (
	"strings"
	"time"

	"github.com/aepgate/aepgate/protocol/login"
)

// Channel is how an agent was instructed (docs/audit.md, "Agents and their
// instructors").
type Channel string

// The channels an instruction comes through.
const (
	ChannelIssueAssignment Channel = "assigned it on the unit issue"
	ChannelPullAssignment  Channel = "assigned it on the pull request"
	ChannelComment         Channel = "commanded it in a comment"
	ChannelReview          Channel = "commanded it in a review"
	ChannelReviewComment   Channel = "commanded it in a review comment"
	ChannelLabel           Channel = "added its trigger label"
	ChannelWorkflow        Channel = "started the workflow run that pushed"
)

// Instruction is one time someone asked an agent for work. Author is the
// instruction's original author: an edited or deleted comment keeps the
// author it was read with (the App's kept records), whoever edited it.
type Instruction struct {
	Channel Channel
	Author  string
	Agent   string
	At      time.Time
	// Ref names the instruction for a reader: a comment's address, a
	// label, a workflow run.
	Ref string
}

// Push is one head the pull request had: the commit it pointed to, when
// it was pushed, who pushed it (Pusher; "" when GitHub names nobody), and
// the listed agent that made it ("" for a person's push). Known says At is
// a time the pusher does not write (the App's record of the delivery that
// moved the head, GitHub's time of a force push); otherwise At says nothing
// of when the head was pushed (a commit's committed date is whatever its
// pusher wrote into it) and is not used. Current says the push made the
// pull request's head as it is now. Run is the instruction that comes with
// the push itself: the actor of the workflow run that pushed it, when the
// agent runs in Actions (nil otherwise).
type Push struct {
	Head    string
	At      time.Time
	Known   bool
	Current bool
	Pusher  string
	Agent   string
	Run     *Instruction
}

// Instructed is a push with who instructed it: nil for a person's push,
// and for an agent's push nobody asked (then only the assignments of the
// unit issue, Finding, name its instructors).
type Instructed struct {
	Push
	// N numbers the push from 1, oldest first.
	N          int
	Instructor *Instruction
	// Unsure are, for an agent's push whose time is not Known, every
	// instruction that may have been the latest before it, for Instructor
	// cannot be known: all of its agent's instructions by people made at
	// or before the pull request's head was pushed (every push was), or
	// all of them when that time is not Known either. An unknown time
	// never clears an instructor.
	Unsure []Instruction
}

// PerPush is who instructed each of pushes (oldest first): for an agent's
// push, the workflow run that pushed it; else, pushed at a Known time,
// the most recent of instructions for that agent made at or before it;
// else every instruction that may have been that one (Unsure).
// Instructions by an agent or by no one known (a deleted account: a login
// that equals nothing) are nobody's: an agent asking an agent leaves the
// person behind it as the instructor.
func PerPush(pushes []Push, instructions []Instruction, isAgent func(string) bool) []Instructed {
	bound, bounded := headPushed(pushes)
	out := make([]Instructed, 0, len(pushes))
	for i, p := range pushes {
		in := Instructed{Push: p, N: i + 1}
		switch {
		case p.Agent == "":
		case p.Run != nil && person(p.Run.Author, isAgent):
			run := *p.Run
			in.Instructor = &run
		case p.Known:
			in.Instructor = latest(p, instructions, isAgent)
		default:
			in.Unsure = unsure(p, instructions, isAgent, bound, bounded)
		}
		out = append(out, in)
	}
	return out
}

// headPushed is the latest Known time of a push, when the push that made
// the pull request's head is Known: then no push came later (the head is
// still there), so every push was at or before it.
func headPushed(pushes []Push) (time.Time, bool) {
	var at time.Time
	current := false
	for _, p := range pushes {
		if !p.Known {
			continue
		}
		current = current || p.Current
		if p.At.After(at) {
			at = p.At
		}
	}
	return at, current
}

func latest(p Push, instructions []Instruction, isAgent func(string) bool) *Instruction {
	var best *Instruction
	for i := range instructions {
		in := &instructions[i]
		if !login.Equal(in.Agent, p.Agent) || !person(in.Author, isAgent) || in.At.After(p.At) {
			continue
		}
		if best == nil || !in.At.Before(best.At) {
			best = in
		}
	}
	if best == nil {
		return nil
	}
	b := *best
	return &b
}

// unsure are p's agent's instructions by people, those made at or before
// bound when bounded.
func unsure(p Push, instructions []Instruction, isAgent func(string) bool, bound time.Time, bounded bool) []Instruction {
	var out []Instruction
	for _, in := range instructions {
		if login.Equal(in.Agent, p.Agent) && person(in.Author, isAgent) && (!bounded || !in.At.After(bound)) {
			out = append(out, in)
		}
	}
	return out
}

// person reports whether who is a known login that is no agent.
func person(who string, isAgent func(string) bool) bool {
	return login.Equal(who, who) && !isAgent(who)
}

// Instructions are the instructions found in items read from a pull
// request's and its unit issue's timelines (oldest first) for triggers:
// an assignment of an agent (channel by the item's), a comment, review or
// review comment whose body commands it, a label that starts it.
func Instructions(items []Item, triggers []Trigger) []Instruction {
	var out []Instruction
	for _, it := range items {
		for _, t := range triggers {
			if it.instructs(t) {
				out = append(out, Instruction{Channel: it.Channel, Author: it.Author, Agent: t.Agent, At: it.At, Ref: it.Ref})
			}
		}
	}
	return out
}

// Item is one timeline item that may instruct an agent, as read: its
// channel, original author and time, and what it carries (the assignee,
// the body, the label).
type Item struct {
	Channel  Channel
	Author   string
	At       time.Time
	Ref      string
	Assignee string
	Body     string
	Label    string
}

func (it Item) instructs(t Trigger) bool {
	switch it.Channel {
	case ChannelIssueAssignment, ChannelPullAssignment:
		return login.Equal(it.Assignee, t.Agent)
	case ChannelComment, ChannelReview, ChannelReviewComment:
		return Commands(it.Body, t.Words)
	case ChannelLabel:
		for _, l := range t.Labels {
			if l != "" && strings.EqualFold(l, it.Label) {
				return true
			}
		}
	}
	return false
}
