package gates

import (
	"context"
	"fmt"

	"github.com/aepgate/aepgate/app/pull"
	"github.com/aepgate/aepgate/app/verdict"
)

// AnswerIssueComment answers a comment on an issue that is not a pull
// request (in.Answer; 0 when the conversation only changed): a unit's issue
// (its gates replayed with the control issue's and its attempts') or the
// control issue (project gates only). A unit's open pull requests are
// judged next; the control issue's has a fanout for all of them.
func (g *Gates) AnswerIssueComment(ctx context.Context, in pull.Input, number int, control bool) error {
	attempts, changed, err := g.replayIssue(ctx, in, number, control)
	if err != nil {
		return err
	}
	if control && changed {
		return g.fanout(ctx, in)
	}
	for _, n := range attempts {
		next := in
		next.PR, next.Guesses, next.Answer, next.Siblings = n, []int{number}, 0, false
		if err := g.Judge.Run(ctx, next); err != nil {
			return err
		}
	}
	return nil
}

// replayIssue replays the gate log of issue number's conversation, keeps
// what it accepted and answers in.Answer in it. It returns the unit's open
// pull requests, and whether the answered item may have changed a decision
// (a request of it was accepted and kept, or the gates cannot be judged at
// all).
func (g *Gates) replayIssue(ctx context.Context, in pull.Input, number int, control bool) ([]int, bool, error) {
	unlock, err := g.Locks.Lock(ctx, fmt.Sprintf("%s/%s#%d", in.Owner, in.Repo, number))
	if err != nil {
		return nil, false, err
	}
	defer unlock()
	ev, err := g.Judge.Thread(ctx, in, number, control)
	if err != nil {
		return nil, false, err
	}
	if in.Answer == 0 {
		return verdict.AttemptNumbers(ev), false, nil
	}
	if ev.GateLog() == nil {
		// Nothing can be said of the comment, so it may have changed a
		// decision: every pull request is judged again, and fails closed.
		// A config whose people cannot be resolved is still answered
		// (verdict.PlanAnswer: why it cannot be judged).
		g.Log.Warn("comment not judged: the gates cannot be judged", "thread", number, "config_valid", ev.ConfigValid(), "unreadable", ev.UnreadableThreads())
		_, _, err := g.answerItem(ctx, in, ev, in.Answer)
		return verdict.AttemptNumbers(ev), true, err
	}
	if err := g.Keep(ctx, in, ev); err != nil {
		return nil, false, err
	}
	if err := g.ensureControl(ctx, in, ev); err != nil {
		return nil, false, err
	}
	th, status, err := g.answerItem(ctx, in, ev, in.Answer)
	if err == nil && status {
		err = g.keepStatus(ctx, in, ev, th, true)
	}
	return verdict.AttemptNumbers(ev), verdict.ChangesDecision(ev, in.Answer), err
}
