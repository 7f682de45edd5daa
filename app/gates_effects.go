package app

import (
	"context"
	"fmt"
	"time"

	"github.com/aepgate/aepgate/app/verdict"
	"github.com/aepgate/aepgate/internal/gh"
)

// afterGates does what the gates replay asks beyond the check run: answer
// the delivery's comment or review, ask the owners to review a blocked pull
// request, and keep the status comment true. Each writes only what GitHub
// does not already show.
func (e *evaluator) afterGates(ctx context.Context, in evalInput, ev *verdict.Evaluation) error {
	if ev.GateLog() == nil {
		_, _, err := e.answer(ctx, in, ev, in.answer) // only why the people cannot be resolved, if so
		return err
	}
	statusThread := verdict.Thread{Number: -1}
	if in.answer != 0 {
		if err := e.ensureControl(ctx, in, ev); err != nil {
			return err
		}
		th, status, err := e.answer(ctx, in, ev, in.answer)
		if err != nil {
			return err
		}
		if status {
			statusThread = th
		}
	}
	if in.sweep {
		if err := e.answerMissed(ctx, in, ev); err != nil {
			return err
		}
	}
	if p := ev.Snap.Pull; p != nil {
		if err := e.requestOwnerReviews(ctx, in, ev); err != nil {
			return err
		}
		if statusThread.Number != p.Number {
			if err := e.keepStatus(ctx, in, ev, verdict.Thread{Number: p.Number, Conv: p.Conversation}, false); err != nil {
				return err
			}
		}
	}
	if statusThread.Number >= 0 {
		return e.keepStatus(ctx, in, ev, statusThread, true)
	}
	return nil
}

// ensureControl creates the repository's control issue the first time a
// command or gate is answered and none exists, so that replies can link it;
// the gate log is then derived again with it. Under the repository's lock,
// a second read makes sure no other evaluation created it meanwhile.
func (e *evaluator) ensureControl(ctx context.Context, in evalInput, ev *verdict.Evaluation) error {
	if ev.Snap.Control != nil || !verdict.AnswersRequests(ev, in.answer) {
		return nil
	}
	unlock, err := e.locks.Lock(ctx, "control:"+in.owner+"/"+in.repo)
	if err != nil {
		return err
	}
	defer unlock()
	again, err := e.snap.Snapshot(ctx, gh.SnapshotRequest{Owner: in.owner, Repo: in.repo, Needs: verdict.GatesNeeds})
	if err != nil {
		return err
	}
	if again.Control == nil {
		n, url, err := e.ans.CreateControlIssue(ctx, in.owner, in.repo, verdict.ControlIssueTitle, verdict.ControlIssueBody)
		if err != nil {
			return err
		}
		again.Control = verdict.NewControl(n, url)
		e.log.Info("control issue created", "repo", in.owner+"/"+in.repo, "issue", n)
	}
	ev.SetControl(again.Control)
	return nil
}

// requestOwnerReviews asks the owners to review a pull request that a HOLD
// or gate blocks: never its author, never one already asked, never one who
// reviewed its current head. A refusal by GitHub (e.g. an owner who is not a
// collaborator) is logged and the rest are asked one by one; only a rate
// limit fails the evaluation.
func (e *evaluator) requestOwnerReviews(ctx context.Context, in evalInput, ev *verdict.Evaluation) error {
	p, want := ev.Snap.Pull, verdict.OwnersToAsk(ev)
	if len(want) == 0 {
		return nil
	}
	err := e.ans.RequestReviews(ctx, in.owner, in.repo, p.Number, want)
	if err == nil || len(want) == 1 {
		return e.reviewRequestFailed(err, want)
	}
	for _, o := range want {
		if err := e.reviewRequestFailed(e.ans.RequestReviews(ctx, in.owner, in.repo, p.Number, []string{o}), []string{o}); err != nil {
			return err
		}
	}
	return nil
}

// reviewRequestFailed returns err when it is a rate limit (retry later);
// any other failure is logged and dropped (review requests are a courtesy).
func (e *evaluator) reviewRequestFailed(err error, logins []string) error {
	if err == nil {
		return nil
	}
	if _, limited := gh.RetryWait(err, time.Now()); limited {
		return err
	}
	e.log.Warn("review request refused by GitHub", "owners", logins, "err", err)
	return nil
}

// answerThread answers a comment on an issue that is not a pull request
// (in.answer; 0 when the conversation only changed): a unit's issue (its
// gates replayed with the control issue's and its attempts') or the control
// issue (project gates only). A unit's open pull requests are judged next;
// the control issue's delivery has its own target for all of them.
func (e *evaluator) answerThread(ctx context.Context, in evalInput, number int, control bool) error {
	attempts, changed, err := e.answerIn(ctx, in, number, control)
	if err != nil {
		return err
	}
	if control && changed {
		return e.fanout(ctx, in)
	}
	for _, n := range attempts {
		next := in
		next.pr, next.guesses, next.answer = n, []int{number}, 0
		if _, err := e.judgePR(ctx, next); err != nil {
			return err
		}
	}
	return nil
}

// answerIn answers in.answer in the conversation of issue number and
// returns the unit's open pull requests, and whether the answered item may
// have changed a decision (a request of it was accepted and kept, or the
// gates cannot be judged at all).
func (e *evaluator) answerIn(ctx context.Context, in evalInput, number int, control bool) ([]int, bool, error) {
	unlock, err := e.locks.Lock(ctx, fmt.Sprintf("%s/%s#%d", in.owner, in.repo, number))
	if err != nil {
		return nil, false, err
	}
	defer unlock()
	req := gh.SnapshotRequest{Owner: in.owner, Repo: in.repo, Needs: verdict.GatesNeeds, Marks: e.marks(in)}
	unit := 0
	if !control {
		req.Guesses, unit = []int{number}, number
	}
	snap, err := e.snap.Snapshot(ctx, req)
	if err != nil {
		return nil, false, err
	}
	ev, err := e.prepare(ctx, in, snap, unit, verdict.GatesReads)
	if err != nil {
		return nil, false, err
	}
	if in.answer == 0 {
		return verdict.AttemptNumbers(ev), false, nil
	}
	if ev.GateLog() == nil {
		// Nothing can be said of the comment, so it may have changed a
		// decision: every pull request is judged again, and fails closed.
		// A config whose people cannot be resolved is still answered
		// (verdict.PlanAnswer: why it cannot be judged).
		e.log.Warn("comment not judged: the gates cannot be judged", "thread", number, "config_valid", ev.ConfigValid(), "unreadable", ev.UnreadableThreads())
		_, _, err := e.answer(ctx, in, ev, in.answer)
		return verdict.AttemptNumbers(ev), true, err
	}
	if err := e.keepDecisions(ctx, in, ev); err != nil {
		return nil, false, err
	}
	if err := e.ensureControl(ctx, in, ev); err != nil {
		return nil, false, err
	}
	th, status, err := e.answer(ctx, in, ev, in.answer)
	if err == nil && status {
		err = e.keepStatus(ctx, in, ev, th, true)
	}
	return verdict.AttemptNumbers(ev), verdict.ChangesDecision(ev, in.answer), err
}

// maxRepairs bounds the comments one sweep evaluation answers.
const maxRepairs = 20

// answerMissed answers, in the sweep, the recent comments and reviews with
// requests whose answer the ledger does not hold (their webhook was lost):
// those GitHub redelivers for at most deliveryMemory. A gate decision is
// replayed whether or not it was answered; this repairs only the answer.
func (e *evaluator) answerMissed(ctx context.Context, in evalInput, ev *verdict.Evaluation) error {
	seen := map[int64]bool{}
	repaired := 0
	for _, o := range ev.GateLog().Outcomes {
		if o.Implicit || verdict.Deferred(o) || seen[o.ItemID] || repaired == maxRepairs {
			continue
		}
		seen[o.ItemID] = true
		_, at, ok := verdict.ItemOf(ev.Snap, o.ItemID)
		if !ok || time.Since(at) > deliveryMemory {
			continue
		}
		done, err := e.w.Has(ctx, verdict.AnsweredSubject(in.origin(), o.ItemID))
		if err != nil {
			return err
		}
		if done {
			continue
		}
		next := in
		next.answer = o.ItemID
		if _, _, err := e.answer(ctx, next, ev, o.ItemID); err != nil {
			return err
		}
		repaired++
		e.log.Info("answered a comment whose webhook was missed", "item", o.ItemID)
	}
	return nil
}
