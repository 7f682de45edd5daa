package route

import (
	"context"

	"github.com/aepgate/aepgate/app/heldwork"
	"github.com/aepgate/aepgate/app/verdict"
	"github.com/aepgate/aepgate/app/webhook"
)

// HeldWork is implementation that a HOLD on its unit blocks: a push to the
// unit's pull request or an agent assigned to its issue (app/heldwork
// answers it once).
type HeldWork heldwork.Work

// Run implements Work.
func (j HeldWork) Run(ctx context.Context, r Runner, w Where) error { return r.HeldWork(ctx, w, j) }

// heldPush is the held work of a pull_request.synchronize: the push to the
// pull request naming exactly one unit.
func heldPush(env webhook.Envelope, v pullView) []Work {
	p := v.PullRequest
	if env.Action != "synchronize" || sender(env) == "" || p.Head.SHA == "" {
		return nil
	}
	u := verdict.GuessUnits(p.Body, repoName(env))
	if len(u) != 1 {
		return nil
	}
	return []Work{HeldWork{Kind: heldwork.KindPush, Unit: u[0], Thread: p.Number, By: sender(env), Head: p.Head.SHA}}
}

// heldAssignment is the held work of an issues.assigned: the assignee on
// the unit's issue (app/heldwork answers only the config's agents).
func heldAssignment(env webhook.Envelope, v issuesView) []Work {
	if env.Action != "assigned" || v.Assignee == nil || v.Assignee.Login == "" || v.Issue.Number <= 0 {
		return nil
	}
	return []Work{HeldWork{Kind: heldwork.KindAssignment, Unit: v.Issue.Number, Thread: v.Issue.Number, By: sender(env), Assignee: v.Assignee.Login}}
}
