// Package instructed reads, for one evaluation, who instructed the listed
// agents that made a pull request (docs/audit.md, "Agents and their
// instructors"): the unit issue's timeline, read only when an agent
// authored or committed the pull request, once per evaluation. The rule is
// protocol/instructor's; the audit and the gate log apply it.
package instructed

import (
	"context"
	"fmt"

	"github.com/aepgate/aepgate/app/verdict"
	"github.com/aepgate/aepgate/protocol/instructor"
)

// Read sets ev.Instructed: nil when no listed agent authored or committed
// the pull request (nothing is read), otherwise the agents and who
// instructed them on the unit's issue, read through t in one timeline
// listing. A pull request naming no unit has agents and no instructors. A
// failed read fails the evaluation, to be retried: it never counts as
// nobody.
func Read(ctx context.Context, t Timelines, owner, repo string, ev *verdict.Evaluation) error {
	ev.Instructed = nil
	agents := Agents(ev)
	if len(agents) == 0 {
		return nil
	}
	if ev.Unit == 0 {
		ev.Instructed = &instructor.Finding{Agents: agents}
		return nil
	}
	tl, err := t.Assignments(ctx, owner, repo, ev.Unit)
	if err != nil {
		return fmt.Errorf("instructors of #%d: %w", ev.Unit, err)
	}
	ev.Instructed = instructor.New(agents, ev.Unit, tl, ev.Cfg.IsAgent)
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
