// Package instructed reads, for one evaluation, who instructed the listed
// agents that made a pull request (docs/audit.md, "Agents and their
// instructors"): the unit issue's assignment timeline and, in one GraphQL
// query, the instructions of every channel on the pull request and the
// unit issue with the pull request's heads; read only when an agent
// authored or committed the pull request, once per evaluation. The rules
// are protocol/instructor's; the audit and the gate log apply them.
package instructed

import (
	"context"
	"fmt"
	"strings"

	"github.com/aepgate/aepgate/app/verdict"
	"github.com/aepgate/aepgate/protocol/config"
	"github.com/aepgate/aepgate/protocol/instructor"
)

// Read sets ev.Instructed and ev.AgentPushes: nil when no listed agent
// authored or committed the pull request (nothing is read), otherwise the
// agents and who instructed them: on the unit's issue (one timeline
// listing through t; none without a unit) and, for each push, through
// every channel, each push at its time from rec, the App's records, or
// GitHub's (Reader.PerPush with PushTimes), the push's instructors added
// to the finding
// (instructor.Finding.WithPushes). A failed read fails the evaluation, to
// be retried: it never counts as nobody.
func Read(ctx context.Context, t Timelines, rec Recorded, owner, repo string, ev *verdict.Evaluation) error {
	ev.Instructed, ev.AgentPushes = nil, nil
	agents := Agents(ev)
	if len(agents) == 0 {
		return nil
	}
	f := &instructor.Finding{Agents: agents}
	if ev.Unit != 0 {
		tl, err := t.Assignments(ctx, owner, repo, ev.Unit)
		if err != nil {
			return fmt.Errorf("instructors of #%d: %w", ev.Unit, err)
		}
		f = instructor.New(agents, ev.Unit, tl, ev.Cfg.IsAgent)
	}
	p := Pull{Owner: owner, Repo: repo, Number: ev.Snap.Pull.Number, Unit: ev.Unit, Head: ev.Snap.Pull.HeadSHA}
	pushes, err := Reader{Channels: t, Recorded: rec}.PerPush(ctx, p, Triggers(ev.Cfg), ev.Cfg.IsAgent, commitLogins(ev))
	if err != nil {
		return err
	}
	ev.AgentPushes, ev.Instructed = pushes, f.WithPushes(pushes, ev.Cfg.IsAgent)
	return nil
}

// Agents are the listed agents among the pull request's author and its
// commits' authors and committers (none without a config or a pull
// request).
func Agents(ev *verdict.Evaluation) []string {
	p := ev.Snap.Pull
	if ev.Cfg == nil || p == nil || len(ev.Cfg.Agents) == 0 {
		return nil
	}
	logins := []string{p.Author.Login}
	for _, c := range p.Commits {
		logins = append(logins, c.AuthorLogin, c.CommitterLogin)
	}
	return ev.Cfg.AgentsAmong(logins...)
}

// Triggers are the triggers of cfg's agents: each one's agents.accounts
// triggers and labels, each defaulting to instructor's (DefaultTriggers)
// when its entry names none.
func Triggers(cfg *config.Config) []instructor.Trigger {
	out := instructor.TriggersFor(cfg.Agents, nil)
	for i := range out {
		s := cfg.AgentSettingsOf(out[i].Agent)
		if len(s.Triggers) > 0 {
			out[i].Words = s.Triggers
		}
		if len(s.Labels) > 0 {
			out[i].Labels = s.Labels
		}
	}
	return out
}

// commitLogins are the logins of the pull request's commits as the
// snapshot read them, by SHA: GraphQL's Commit.author.user is a User, so a
// Bot's commit (an agent's) names no login there. A side linked to no
// account counts, as the audit counts it (review's commit authorship), by
// its GitHub no-reply e-mail's login and by its name.
func commitLogins(ev *verdict.Evaluation) map[string][]string {
	out := map[string][]string{}
	for _, c := range ev.Snap.Pull.Commits {
		out[c.SHA] = append(sideLogins(c.AuthorLogin, c.AuthorEmail, c.AuthorName), sideLogins(c.CommitterLogin, c.CommitterEmail, c.CommitterName)...)
	}
	return out
}

// sideLogins are the logins one side of a commit names: its linked login,
// or, linked to none, its no-reply e-mail's login and its name.
func sideLogins(login, email, name string) []string {
	if login != "" {
		return []string{login}
	}
	out := []string{strings.TrimSpace(name)}
	local, domain, ok := strings.Cut(strings.ToLower(strings.TrimSpace(email)), "@")
	if ok && domain == "users.noreply.github.com" {
		if _, after, plus := strings.Cut(local, "+"); plus {
			local = after
		}
		out = append(out, local)
	}
	return out
}
