package gates

import (
	"context"
	"time"

	"github.com/aepgate/aepgate/app/pull"
	"github.com/aepgate/aepgate/app/verdict"
	"github.com/aepgate/aepgate/internal/gh"
)

// Act does what the gates replay asks beyond the check run: answer the
// delivery's comment or review, ask the owners to review a blocked pull
// request, and keep the status comment true; in the sweep, answer the
// comments whose webhook was missed. Each writes only what GitHub does not
// already show.
func (g *Gates) Act(ctx context.Context, in pull.Input, ev *verdict.Evaluation) error {
	if ev.GateLog() == nil {
		_, _, err := g.answerItem(ctx, in, ev, in.Answer) // only why the people cannot be resolved, if so
		return err
	}
	statusThread := verdict.Thread{Number: -1}
	if in.Answer != 0 {
		if err := g.ensureControl(ctx, in, ev); err != nil {
			return err
		}
		th, status, err := g.answerItem(ctx, in, ev, in.Answer)
		if err != nil {
			return err
		}
		if status {
			statusThread = th
		}
	}
	if in.Sweep {
		if err := g.repairAnswers(ctx, in, ev); err != nil {
			return err
		}
	}
	if p := ev.Snap.Pull; p != nil {
		if err := g.requestOwnerReviews(ctx, in, ev); err != nil {
			return err
		}
		if statusThread.Number != p.Number {
			if err := g.keepStatus(ctx, in, ev, verdict.Thread{Number: p.Number, Conv: p.Conversation}, false); err != nil {
				return err
			}
		}
	}
	if statusThread.Number >= 0 {
		return g.keepStatus(ctx, in, ev, statusThread, true)
	}
	return nil
}

// ensureControl creates the repository's control issue the first time a
// command or gate is answered and none exists, so that replies can link it;
// the gate log is then derived again with it. Under the repository's lock,
// a second read makes sure no other evaluation created it meanwhile.
func (g *Gates) ensureControl(ctx context.Context, in pull.Input, ev *verdict.Evaluation) error {
	if ev.Snap.Control != nil || !verdict.AnswersRequests(ev, in.Answer) {
		return nil
	}
	unlock, err := g.Locks.Lock(ctx, "control:"+in.FullName())
	if err != nil {
		return err
	}
	defer unlock()
	control, err := g.Judge.ControlIssue(ctx, in.Owner, in.Repo)
	if err != nil {
		return err
	}
	if control == nil {
		n, url, err := g.Reply.CreateControlIssue(ctx, in.Owner, in.Repo, verdict.ControlIssueTitle, verdict.ControlIssueBody)
		if err != nil {
			return err
		}
		control = verdict.NewControl(n, url)
		g.Log.Info("control issue created", "repo", in.FullName(), "issue", n)
	}
	ev.SetControl(control)
	return nil
}

// requestOwnerReviews asks the owners to review a pull request that a HOLD
// or gate blocks: never its author, never one already asked, never one who
// reviewed its current head. A refusal by GitHub (e.g. an owner who is not a
// collaborator) is logged and the rest are asked one by one; only a rate
// limit fails the evaluation.
func (g *Gates) requestOwnerReviews(ctx context.Context, in pull.Input, ev *verdict.Evaluation) error {
	p, want := ev.Snap.Pull, verdict.OwnersToAsk(ev)
	if len(want) == 0 {
		return nil
	}
	err := g.Reply.RequestReviews(ctx, in.Owner, in.Repo, p.Number, want)
	if err == nil || len(want) == 1 {
		return g.reviewRequestFailed(err, want)
	}
	for _, o := range want {
		if err := g.reviewRequestFailed(g.Reply.RequestReviews(ctx, in.Owner, in.Repo, p.Number, []string{o}), []string{o}); err != nil {
			return err
		}
	}
	return nil
}

// reviewRequestFailed returns err when it is a rate limit (retry later);
// any other failure is logged and dropped (review requests are a courtesy).
func (g *Gates) reviewRequestFailed(err error, logins []string) error {
	if err == nil {
		return nil
	}
	if _, limited := gh.RetryWait(err, time.Now()); limited {
		return err
	}
	g.Log.Warn("review request refused by GitHub", "owners", logins, "err", err)
	return nil
}
