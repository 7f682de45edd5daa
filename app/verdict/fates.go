package verdict

import (
	"slices"
	"strings"

	"github.com/aepgate/aepgate/protocol/command"
	"github.com/aepgate/aepgate/protocol/gatelog"
	"github.com/aepgate/aepgate/protocol/instructor"
	"github.com/aepgate/aepgate/protocol/snapshot"
	"github.com/aepgate/aepgate/review"
)

// Fates is what became of every approval considered for an agent's pull
// request (instructor.Decide): each review with an aep-audit block, each
// approving review and each resolve command on it, counted, stale or not
// counted and why, against agents.approvals. nil when no listed agent made
// the pull request (or no check read who instructed it). Derived once per
// evaluation.
func (ev *Evaluation) Fates() *instructor.Decision {
	if ev.fates != nil || !ev.Instructed.Applies() || ev.Snap.Pull == nil || ev.Cfg == nil {
		return ev.fates
	}
	p := ev.Snap.Pull
	f := instructor.Facts{Head: p.HeadSHA, Base: p.BaseSHA, Pushes: ev.AgentPushes, Finding: ev.Instructed, IsAgent: ev.Cfg.IsAgent,
		Approvals: ev.Cfg.AgentApprovalsNeeded()}
	d := instructor.DecideWithout(f, ev.approvals(), ev.rulesLeftOut()...)
	ev.fates = &d
	return ev.fates
}

// approvals are the pull request's audits, approving reviews and resolve
// commands, as instructor approvals. A review or command is taken as given
// on the current base: the snapshot does not say which base it saw.
func (ev *Evaluation) approvals() []instructor.Approval {
	p := ev.Snap.Pull
	var out []instructor.Approval
	for _, r := range p.Reviews {
		kind := instructor.KindReview
		switch {
		case review.HasBlock(r.Body):
			kind = instructor.KindAudit
		case r.State != review.StateApproved:
			continue
		}
		out = append(out, ev.approval(kind, r.Author, r.CommitSHA, r.Edited, r.URL))
		out[len(out)-1].At = r.Submitted
	}
	for _, c := range p.Conversation.Comments {
		for _, cmd := range command.Parse(c.Body, ev.Cfg.CommandPrefix) {
			if cmd.Verb == command.VerbResolve {
				a := ev.approval(instructor.KindCommand, c.Author, p.HeadSHA, c.Edited, c.URL)
				a.At = c.Created
				out = append(out, a)
			}
		}
	}
	return out
}

// approval is one approval by who on head, with what is known of who now:
// a Bot or an App's "[bot]" login, and live write from the roles read.
func (ev *Evaluation) approval(kind instructor.Kind, who snapshot.Actor, head string, edited bool, ref string) instructor.Approval {
	role := ev.Roles[who.Login]
	return instructor.Approval{Kind: kind, Login: who.Login, Head: head, Base: ev.Snap.Pull.BaseSHA, Edited: edited, Ref: ref,
		Bot:       who.Type != "User" || strings.HasSuffix(strings.ToLower(who.Login), "[bot]"),
		LiveWrite: role == "write" || role == "maintain" || role == "admin"}
}

// Approvers are who gave the approvals Fates judges, each once, whose live
// role the evaluation must read (none unless a listed agent made the pull
// request).
func (ev *Evaluation) Approvers() []string {
	if !ev.Instructed.Applies() || ev.Snap.Pull == nil || ev.Cfg == nil {
		return nil
	}
	var out []string
	for _, a := range ev.approvals() {
		if a.Login != "" && !slices.Contains(out, a.Login) {
			out = append(out, a.Login)
		}
	}
	return out
}

// approvalsShort says why an agent's pull request whose audit holds (or
// needs none) still lacks the independent approvals agents.approvals asks
// for (instructor.FateSummary); "" when it has them or is no agent's.
func (ev *Evaluation) approvalsShort(d *review.Decision) string {
	f := ev.Fates()
	if f == nil || f.Enough() || (d.Outcome != review.OutcomePassed && d.Outcome != review.OutcomeNotRequired) {
		return ""
	}
	return "This pull request was made by a listed agent and needs more independent approvals than it has (config key agents.approvals): " + instructor.FateSummary(*f)
}

// agentDenied reports whether path is one a listed agent that made the
// pull request may not change without an owner's gate (agents.accounts
// paths, config.DefaultAgentPaths when its entry names none): such a change
// opens the contract-change gate as a contract path does.
func (ev *Evaluation) agentDenied(path string) bool {
	if !ev.Instructed.Applies() {
		return false
	}
	for _, a := range ev.Instructed.Agents {
		if len(instructor.DeniedPaths(ev.Cfg.AgentSettingsOf(a).Paths, []string{path})) > 0 {
			return true
		}
	}
	return false
}

// rulesLeftOut are the names of the default audit and gate-log rules that
// the evaluation's rules leave out (a negative control's): Fates leaves
// out instructor's rule of the same name, so a protection removed is
// removed everywhere it is checked.
func (ev *Evaluation) rulesLeftOut() []string {
	var out []string
	audit, gates := AuditRules(ev.Rules), GateRules(ev.GateRules)
	for _, r := range review.DefaultRules() {
		if !slices.ContainsFunc(audit, func(x review.Rule) bool { return x.Name == r.Name }) {
			out = append(out, r.Name)
		}
	}
	for _, r := range gatelog.DefaultRules() {
		if !slices.ContainsFunc(gates, func(x gatelog.Rule) bool { return x.Name == r.Name }) {
			out = append(out, r.Name)
		}
	}
	return out
}
