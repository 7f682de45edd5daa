package instructor

import (
	"fmt"
	"reflect"
	"time"

	"github.com/aepgate/aepgate/protocol/glob"
	"github.com/aepgate/aepgate/protocol/login"
)

// Kind is what an approval was.
type Kind string

// The kinds of approval the independence rules judge.
const (
	KindAudit   Kind = "audit"
	KindReview  Kind = "approving review"
	KindGate    Kind = "gate answer"
	KindCommand Kind = "command"
)

// Approval is one review, audit, gate answer or command considered for a
// pull request, as read: who gave it, on which head and base, and what is
// known of the account then.
type Approval struct {
	Kind  Kind
	Login string
	// Head and Base are the commits it was given on.
	Head, Base string
	At         time.Time
	// Bot: the account is a GitHub App or a bot (its type on GitHub).
	Bot bool
	// LiveWrite: the account has write permission now.
	LiveWrite bool
	// Edited: its text was changed after it was given.
	Edited bool
	Ref    string
}

// Outcome is what became of an approval.
type Outcome string

// The outcomes of an approval.
const (
	Counted    Outcome = "counted"
	Stale      Outcome = "stale"
	NotCounted Outcome = "not counted"
)

// Fate is an approval and what became of it, with why.
type Fate struct {
	Approval
	Outcome Outcome
	// Reason says why it is stale or not counted ("" when counted).
	Reason string
}

// Facts are what the independence rules decide from: the pull request's
// head and base now, its pushes with their instructors (PerPush), the
// instructors of its agents on the unit issue (Finding), which logins are
// listed agents, and agents.approvals.
type Facts struct {
	Head, Base string
	Pushes     []Instructed
	Finding    *Finding
	IsAgent    func(string) bool
	// Approvals is agents.approvals: the distinct independent people an
	// agent's pull request needs (at least 1).
	Approvals int
}

// agentPR reports whether a listed agent made the pull request or one of
// its pushes.
func (f *Facts) agentPR() bool {
	if f.Finding.Applies() {
		return true
	}
	for _, p := range f.Pushes {
		if p.Agent != "" {
			return true
		}
	}
	return false
}

// Decision is the fate of every approval, the distinct people whose
// approvals counted, and how many the pull request needs.
type Decision struct {
	Fates   []Fate
	Counted []string
	Needed  int
}

// Enough reports whether as many distinct people as needed counted.
func (d Decision) Enough() bool { return len(d.Counted) >= d.Needed }

// rule is one independence rule: why approval a does not count ("" when
// the rule lets it).
type rule func(f *Facts, a Approval) string

// policy is the rules applied, in order (the first reason wins), and the
// number of people a pull request needs.
type policy struct {
	rules  []rule
	needed func(f *Facts) int
}

// independence is every rule. None can be turned off by config: an
// agent's or a bot's approval never counts, whatever its permission.
var independence = policy{
	rules:  []rule{byAgent, byBot, byInstructor, byAssigner, withoutWrite, edited, stale},
	needed: agentsApprovals,
}

// Decide judges each of approvals for the pull request of f (docs/audit.md,
// "Agents and their instructors"): counted, stale (given on an earlier
// head or base) or not counted and why.
func Decide(f Facts, approvals []Approval) Decision { return decide(independence, f, approvals) }

// ruleNames name Decide's rules as the audit's (review) and the gate log's
// (gatelog) rules name the same checks.
var ruleNames = map[string][]rule{
	"not-agent": {byAgent}, "not-bot": {byBot}, "not-instructor": {byInstructor, byAssigner},
	"live-write": {withoutWrite}, "not-edited": {edited}, "approval-at-head": {stale},
}

// DecideWithout is Decide without the rules named in without (names of
// the audit's and the gate log's rules: not-agent, not-bot,
// not-instructor, live-write, not-edited, approval-at-head): the App
// leaves out a rule its caller left out of the audit's or the gate log's
// rules, so a negative control removes a protection in one place.
func DecideWithout(f Facts, approvals []Approval, without ...string) Decision {
	p := policy{needed: independence.needed}
	for _, r := range independence.rules {
		if !omitted(r, without) {
			p.rules = append(p.rules, r)
		}
	}
	return decide(p, f, approvals)
}

func omitted(r rule, without []string) bool {
	for _, name := range without {
		for _, o := range ruleNames[name] {
			if reflect.ValueOf(o).Pointer() == reflect.ValueOf(r).Pointer() {
				return true
			}
		}
	}
	return false
}

func decide(p policy, f Facts, approvals []Approval) Decision {
	if f.IsAgent == nil {
		f.IsAgent = func(string) bool { return false }
	}
	d := Decision{Needed: p.needed(&f)}
	for _, a := range approvals {
		fate := Fate{Approval: a, Outcome: Counted}
		for _, r := range p.rules {
			if why := r(&f, a); why != "" {
				fate.Outcome, fate.Reason = NotCounted, why
				if isStale(why) {
					fate.Outcome = Stale
				}
				break
			}
		}
		if fate.Outcome == Counted && !login.In(d.Counted, a.Login) {
			d.Counted = append(d.Counted, a.Login)
		}
		d.Fates = append(d.Fates, fate)
	}
	return d
}

// The reasons an approval is stale.
const (
	reasonPushedAfter = "pushed after: given on an earlier head"
	reasonBaseMoved   = "base moved: given on an earlier base"
)

func isStale(why string) bool { return why == reasonPushedAfter || why == reasonBaseMoved }

func byAgent(f *Facts, a Approval) string {
	if f.IsAgent(a.Login) {
		return "agent: a listed agent's approval never counts"
	}
	return ""
}

func byBot(_ *Facts, a Approval) string {
	if a.Bot || !login.Equal(a.Login, a.Login) {
		return "bot: a bot's or an unknown account's approval never counts"
	}
	return ""
}

// byInstructor: whoever instructed any push of an agent instructed part
// of what is approved; the latest such push is named.
// A push at no known time names whoever may have instructed it (Unsure).
func byInstructor(f *Facts, a Approval) string {
	why := ""
	for _, p := range f.Pushes {
		if p.Instructor != nil && login.Equal(p.Instructor.Author, a.Login) {
			why = fmt.Sprintf("instructor of push %d (%s)", p.N, p.Instructor.Channel)
		}
		for _, in := range p.Unsure {
			if login.Equal(in.Author, a.Login) {
				why = fmt.Sprintf("may have instructed push %d, pushed at no known time (%s)", p.N, in.Channel)
			}
		}
	}
	return why
}

func byAssigner(f *Facts, a Approval) string {
	if i := f.Finding.Of(a.Login); i != nil {
		return fmt.Sprintf("instructor: %s on the unit issue", i.Roles[0])
	}
	return ""
}

func withoutWrite(_ *Facts, a Approval) string {
	if !a.LiveWrite {
		return "no live write: the account has no write permission now"
	}
	return ""
}

func edited(_ *Facts, a Approval) string {
	if a.Edited {
		return "edited after it was given"
	}
	return ""
}

func stale(f *Facts, a Approval) string {
	switch {
	case a.Head != f.Head:
		return reasonPushedAfter
	case a.Base != f.Base:
		return reasonBaseMoved
	}
	return ""
}

// agentsApprovals is how many distinct people must count: agents.approvals
// (at least 1) for an agent's pull request, 1 otherwise.
func agentsApprovals(f *Facts) int {
	if f.agentPR() && f.Approvals > 1 {
		return f.Approvals
	}
	return 1
}

// DeniedPaths are the files of changed an agent may not change without an
// owner's gate: those matching one of patterns (the agent's paths, glob
// syntax), in changed's order.
func DeniedPaths(patterns, changed []string) []string {
	return deniedPaths(glob.Match, patterns, changed)
}

func deniedPaths(match func(pattern, name string) bool, patterns, changed []string) []string {
	var out []string
	for _, name := range changed {
		for _, p := range patterns {
			if match(p, name) {
				out = append(out, name)
				break
			}
		}
	}
	return out
}
