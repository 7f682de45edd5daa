package verdict

import (
	"fmt"
	"strings"
	"time"

	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/protocol/gate"
	"github.com/aepgate/aepgate/protocol/gatelog"
	"github.com/aepgate/aepgate/protocol/login"
	"github.com/aepgate/aepgate/protocol/snapshot"
	"github.com/aepgate/aepgate/protocol/workunit"
)

// GatesNeeds is what the gates check reads: every comment and review that
// may hold a command, and the changed files for contract paths.
var GatesNeeds = snapshot.Needs{Conversation: true, Files: true}

// filesUnlisted stands for the changed files GitHub did not list: a pull
// request changing more than that is treated as changing a contract path.
const filesUnlisted = "(files beyond the first 100 GitHub lists)"

// evalGates judges whether a HOLD or an open gate blocks the merge of the
// pull request (docs/gates.md). It fails closed: an invalid config or a
// conversation too long to replay whole is a failure, never a pass.
func evalGates(ev *Evaluation) Outcome {
	pull := ev.Snap.Pull
	if !ev.ConfigValid() {
		return Outcome{Run: gatesFailure(pull.HeadSHA, ev.unusableConfig("nobody's authority can be judged"))}
	}
	if why := ev.UnreadableThreads(); why != "" {
		return Outcome{Run: gatesFailure(pull.HeadSHA, fmt.Sprintf("The App cannot read %s, so owner decisions made there cannot be seen; grant the App \"Issues: read\" on this repository.", why))}
	}
	if cut := ev.truncatedThreads(); len(cut) > 0 {
		return Outcome{Run: gatesFailure(pull.HeadSHA, fmt.Sprintf("GitHub holds more %s than aepgate reads in one evaluation, so the gates cannot be replayed whole; owner decisions are never judged on part of a conversation. Move the discussion to a new pull request or issue.", strings.Join(cut, ", ")))}
	}
	res := *ev.GateLog()
	run := checks.Gates(pull.HeadSHA, ev.GatesContext(), res.State, res.Blockers)
	ids := make([]string, 0, len(res.Blockers))
	for _, b := range res.Blockers {
		ids = append(ids, b.Token)
	}
	return Outcome{Run: run, Facts: map[string]any{"unit": ev.Unit, "blockers": ids}}
}

// GateLog is the gate log derived from the conversation, once per
// evaluation; nil when the gates cannot be judged (invalid config, a
// conversation unreadable or too long).
func (ev *Evaluation) GateLog() *gatelog.Result {
	if ev.gatesDone {
		return ev.gatesMemo
	}
	ev.gatesDone = true
	if !ev.Snap.Has.Conversation {
		return nil // the evaluation read no conversation to replay
	}
	if !ev.ConfigValid() || ev.UnreadableThreads() != "" || len(ev.truncatedThreads()) > 0 {
		return nil
	}
	ev.deriveGates()
	return ev.gatesMemo
}

// deriveGates derives the gate log from what the evaluation read, under
// the evaluation's gate rules (gateRules).
func (ev *Evaluation) deriveGates() {
	res := gatelog.BuildWith(ev.gatesInput(), GateRules(ev.GateRules))
	ev.gatesMemo, ev.gatesDone = &res, true
}

// gatesFailure is the gates check when the gates cannot be judged.
func gatesFailure(head, why string) checks.Run {
	return checks.Run{Name: checks.NameGates, HeadSHA: head, Conclusion: checks.ConclusionFailure,
		Title: "Owner gates cannot be judged", Summary: why + "\n"}
}

// UnitOf is the one same-repository unit the pull request names
// (workunit.SoleUnit), or 0: resolved once per evaluation, on the
// snapshot, into Evaluation.Unit.
func UnitOf(snap *snapshot.PR) int {
	if snap.Pull == nil {
		return 0
	}
	n, _ := workunit.SoleUnit(snap.Pull.Body, snap.Repo)
	return n
}

// UnreadableThreads names the conversations GitHub refused to show, or "".
func (ev *Evaluation) UnreadableThreads() string {
	if why := ev.Snap.IssuesUnreadable; why != "" {
		return "the repository's issues (" + why + ")"
	}
	if u := ev.Snap.Units[ev.Unit]; ev.Unit > 0 && u != nil && u.Unreadable != "" {
		return fmt.Sprintf("issue #%d (%s)", ev.Unit, u.Unreadable)
	}
	return ""
}

// truncatedThreads names the conversations GitHub held more of than the
// snapshot read.
func (ev *Evaluation) truncatedThreads() []string {
	var out []string
	if p := ev.Snap.Pull; p != nil {
		for _, l := range []string{"comments", "reviews"} {
			if p.IsTruncated(l) {
				out = append(out, "pull request "+l)
			}
		}
	}
	if ev.Unit > 0 && ev.Snap.UnitComments[ev.Unit].Truncated {
		out = append(out, fmt.Sprintf("comments on #%d", ev.Unit))
	}
	if c := ev.Snap.Control; c != nil && c.Thread.Truncated {
		out = append(out, "comments on the control issue")
	}
	if ev.Unit > 0 && ev.Snap.UnitAttempts[ev.Unit].Truncated {
		out = append(out, fmt.Sprintf("mentions of #%d", ev.Unit))
	}
	for _, a := range ev.Attempts() {
		if a.Conversation.Truncated || a.ReviewsTruncated {
			out = append(out, fmt.Sprintf("comments or reviews on pull request #%d", a.Number))
		}
	}
	return out
}

// Attempts are the unit's other open pull requests in this repository: the
// ones GitHub recorded as mentioning the unit whose body names it as their
// one unit. A HOLD or gate made on one of them applies to the unit.
func (ev *Evaluation) Attempts() []snapshot.Attempt {
	var out []snapshot.Attempt
	for _, a := range ev.Snap.UnitAttempts[ev.Unit].Pulls {
		if a.CrossRepository || a.State != "OPEN" || (ev.Snap.Pull != nil && a.Number == ev.Snap.Pull.Number) {
			continue
		}
		if n, ok := workunit.SoleUnit(a.Body, ev.Snap.Repo); ok && n == ev.Unit {
			out = append(out, a)
		}
	}
	return out
}

// gatesInput gathers what the gate log is derived from: the control issue,
// the unit's issue, and the pull request's comments, reviews and
// contract-path changes.
func (ev *Evaluation) gatesInput() gatelog.Input {
	cfg := ev.Cfg
	project, _ := gate.CleanProject(ev.Snap.Repo)
	in := gatelog.Input{Project: project, Unit: ev.Unit, Permissions: ev.Perms, AppLogin: ev.AppLogin, Kept: ev.Kept, Instructed: ev.Instructed, IsAgent: ev.Cfg.IsAgent,
		Policy: gatelog.Policy{Owners: cfg.Owners, Coordinators: cfg.Coordinators, Coordinator: cfg.Coordinator, Prefix: cfg.CommandPrefix,
			Approvals: cfg.GateApprovals(), Distinct: ev.Distinct}}
	for _, t := range ev.ThreadsRead() {
		in.Items = append(in.Items, gatelog.CommentItems(t.Thread, t.Source)...)
		in.Read = append(in.Read, gatelog.Read{Source: t.Source, FromID: t.Thread.ReadFrom})
		if w := ev.Witness; w != nil && w.Thread == t.Number {
			in.Witnessed = append(in.Witnessed, gatelog.CommentItems(snapshot.Thread{Comments: []snapshot.Comment{w.Comment}}, t.Source)...)
		}
		if t.Source.Kind == gatelog.ControlIssue {
			in.ControlIssue = t.Number
		}
	}
	if p := ev.Snap.Pull; p != nil {
		src := gatelog.Source{Kind: gatelog.PullRequest, Number: p.Number}
		in.PR = p.Number
		in.Items = append(in.Items, reviewItems(p.Reviews, src)...)
		files, parts := ev.contractFiles(), ev.auditorParts()
		in.PullRequests = []gatelog.PullRequestState{{Number: p.Number, Head: p.HeadSHA, HeadAt: p.HeadAt, ContractFiles: files, ContractOwners: ev.contractOwners(files, parts),
			ContractSources: ev.contractSources(files, parts), Auto: ev.autoGates()}}
	}
	for _, a := range ev.Attempts() {
		src := gatelog.Source{Kind: gatelog.PullRequest, Number: a.Number}
		in.Items = append(in.Items, reviewItems(a.Reviews, src)...)
		in.PullRequests = append(in.PullRequests, gatelog.PullRequestState{Number: a.Number, Head: a.HeadSHA})
	}
	return in
}

// ReadThread is one conversation the gates replay reads.
type ReadThread struct {
	Number int
	Source gatelog.Source
	Thread snapshot.Thread
}

// ThreadsRead are the conversations the gates replay reads: the control
// issue, the unit's issue, the pull request and the unit's other attempts.
func (ev *Evaluation) ThreadsRead() []ReadThread {
	var out []ReadThread
	if c := ev.Snap.Control; c != nil {
		out = append(out, ReadThread{c.Number, gatelog.Source{Kind: gatelog.ControlIssue, Number: c.Number}, c.Thread})
	}
	if ev.Unit > 0 {
		out = append(out, ReadThread{ev.Unit, gatelog.Source{Kind: gatelog.UnitIssue, Number: ev.Unit}, ev.Snap.UnitComments[ev.Unit]})
	}
	if p := ev.Snap.Pull; p != nil {
		out = append(out, ReadThread{p.Number, gatelog.Source{Kind: gatelog.PullRequest, Number: p.Number}, p.Conversation})
	}
	for _, a := range ev.Attempts() {
		out = append(out, ReadThread{a.Number, gatelog.Source{Kind: gatelog.PullRequest, Number: a.Number}, a.Conversation})
	}
	return out
}

// autoGates are the pull request's own gates: the audit's owner decision,
// opened when the review it rests on was submitted.
func (ev *Evaluation) autoGates() []gate.Event {
	d := ev.PreAudit()
	if d == nil || d.OwnerGate == nil {
		return nil
	}
	return []gate.Event{ev.autoGate(d)}
}

// contractFiles are the pull request's changed files under contract paths
// or, on an agent's pull request, under the paths its agents may not change
// without an owner's gate (agentDenied); when GitHub listed only some
// files, the rest count as one.
func (ev *Evaluation) contractFiles() []string {
	p := ev.Snap.Pull
	if ev.Unit == 0 {
		return nil // no unit to bind a contract gate to; work-unit fails anyway
	}
	var out []string
	parts := ev.auditorParts()
	for _, f := range p.Files {
		if ev.Cfg.IsContractPath(f.Path) || parts[f.Path] != "" || ev.agentDenied(f.Path) {
			out = append(out, f.Path)
		}
	}
	if p.IsTruncated("files") {
		out = append(out, filesUnlisted)
	}
	return out
}

// reviewItems turns submitted reviews into gate-log items (a pending
// review has not been submitted and counts for nothing).
func reviewItems(rs []snapshot.Review, src gatelog.Source) []gatelog.Item {
	var out []gatelog.Item
	for _, r := range rs {
		if r.State == "PENDING" || r.Submitted.IsZero() {
			continue
		}
		updated := r.Submitted
		if r.Edited {
			updated = updated.Add(time.Nanosecond)
		}
		out = append(out, gatelog.Item{ID: r.ID, URL: r.URL, Source: src, Author: r.Author.Login, AuthorType: r.Author.Type,
			Created: r.Submitted, Updated: updated, Body: r.Body, Event: gatelog.EventReview,
			Review: &gatelog.Review{State: r.State, CommitSHA: r.CommitSHA}})
	}
	return out
}

// GatesContext is what the gates renderers say about where they are.
func (ev *Evaluation) GatesContext() checks.GatesContext {
	c := checks.GatesContext{Unit: ev.Unit, Owners: ev.Cfg.Owners, Prefix: ev.Cfg.CommandPrefix}
	if p := ev.Snap.Pull; p != nil {
		c.PR = p.Number
		c.PRURL = p.URL
	}
	if ctl := ev.Snap.Control; ctl != nil {
		c.ControlIssueURL = ctl.URL
	}
	if g := ev.GateLog(); g != nil {
		c.Tampered = g.Tampered
		c.Deciders, c.ContractPaths = g.Deciders, ev.contractPaths(g)
	}
	c.Fates = ev.Fates()
	return c
}

// OwnerAuthors are the listed owners and coordinators who wrote a comment
// or review the gates replay reads, or a kept decision: the only logins
// whose permission matters (everyone else is refused unread).
func OwnerAuthors(snap *snapshot.PR, listed []string, unit int, kept []gatelog.Kept) []string {
	var out []string
	add := func(who, typ string) {
		if typ == "User" && login.In(listed, who) && !login.In(out, who) {
			out = append(out, who)
		}
	}
	threads := []snapshot.Thread{snap.UnitComments[unit]}
	if snap.Control != nil {
		threads = append(threads, snap.Control.Thread)
	}
	if p := snap.Pull; p != nil {
		threads = append(threads, p.Conversation)
		for _, r := range p.Reviews {
			add(r.Author.Login, r.Author.Type)
		}
	}
	for _, a := range snap.UnitAttempts[unit].Pulls {
		threads = append(threads, a.Conversation)
		for _, r := range a.Reviews {
			add(r.Author.Login, r.Author.Type)
		}
	}
	for _, t := range threads {
		for _, c := range t.Comments {
			add(c.Author.Login, c.Author.Type)
		}
	}
	for _, k := range kept {
		add(k.Item.Author, k.Item.AuthorType)
	}
	return out
}
