package app

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/protocol/gatelog"
	"github.com/aepgate/aepgate/protocol/login"
	"github.com/aepgate/aepgate/protocol/snapshot"
)

// afterGates does what the gates replay asks beyond the check run: answer
// the delivery's comment or review, ask the owners to review a blocked pull
// request, and keep the status comment true. Each writes only what GitHub
// does not already show.
func (e *evaluator) afterGates(ctx context.Context, in evalInput, ev *evaluation) error {
	if ev.gateLog() == nil {
		return nil
	}
	statusThread := thread{number: -1}
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
	if p := ev.snap.Pull; p != nil {
		if err := e.requestOwnerReviews(ctx, in, ev); err != nil {
			return err
		}
		if statusThread.number != p.Number {
			if err := e.keepStatus(ctx, in, ev, thread{p.Number, p.Conversation}, false); err != nil {
				return err
			}
		}
	}
	if statusThread.number >= 0 {
		return e.keepStatus(ctx, in, ev, statusThread, true)
	}
	return nil
}

// ensureControl creates the repository's control issue the first time a
// command or gate is answered and none exists, so that replies can link it;
// the gate log is then derived again with it. Under the repository's lock,
// a second read makes sure no other evaluation created it meanwhile.
func (e *evaluator) ensureControl(ctx context.Context, in evalInput, ev *evaluation) error {
	if ev.snap.Control != nil || !answersRequests(ev, in.answer) {
		return nil
	}
	unlock, err := e.locks.Lock(ctx, "control:"+in.owner+"/"+in.repo)
	if err != nil {
		return err
	}
	defer unlock()
	again, err := e.snap.Snapshot(ctx, gh.SnapshotRequest{Owner: in.owner, Repo: in.repo, Needs: gatesNeeds})
	if err != nil {
		return err
	}
	if again.Control == nil {
		n, url, err := e.ans.CreateControlIssue(ctx, in.owner, in.repo, controlIssueTitle, controlIssueBody)
		if err != nil {
			return err
		}
		again.Control = newControl(n, url)
		e.log.Info("control issue created", "repo", in.owner+"/"+in.repo, "issue", n)
	}
	ev.snap.Control = again.Control
	ev.deriveGates()
	return nil
}

// answersRequests reports whether item id holds a command or gate block.
func answersRequests(ev *evaluation, id int64) bool {
	for _, o := range ev.gateLog().Outcomes {
		if o.ItemID == id && !o.Implicit {
			return true
		}
	}
	return false
}

// requestOwnerReviews asks the owners to review a pull request that a HOLD
// or gate blocks: never its author, never one already asked, never one who
// reviewed its current head. A refusal by GitHub (e.g. an owner who is not a
// collaborator) is logged and the rest are asked one by one; only a rate
// limit fails the evaluation.
func (e *evaluator) requestOwnerReviews(ctx context.Context, in evalInput, ev *evaluation) error {
	p, want := ev.snap.Pull, ownersToAsk(ev)
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

// ownersToAsk are the owners to ask for a review of a pull request a HOLD
// or gate blocks (the plan requestOwnerReviews applies).
func ownersToAsk(ev *evaluation) []string {
	p := ev.snap.Pull
	if len(ev.gateLog().Blockers) == 0 {
		return nil
	}
	same := func(a string) func(string) bool { return func(b string) bool { return login.Equal(a, b) } }
	var want []string
	for _, o := range ev.cfg.Owners {
		reviewed := slices.ContainsFunc(p.Reviews, func(r snapshot.Review) bool { return login.Equal(r.Author.Login, o) && r.CommitSHA == p.HeadSHA })
		if login.Equal(o, p.Author.Login) || slices.ContainsFunc(p.ReviewRequests, same(o)) || reviewed {
			continue
		}
		want = append(want, o)
	}
	return want
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
	req := gh.SnapshotRequest{Owner: in.owner, Repo: in.repo, Needs: gatesNeeds, Marks: e.marks(in)}
	unit := 0
	if !control {
		req.Guesses, unit = []int{number}, number
	}
	snap, err := e.snap.Snapshot(ctx, req)
	if err != nil {
		return nil, false, err
	}
	ev, err := e.prepare(ctx, in, snap, unit)
	if err != nil {
		return nil, false, err
	}
	if in.answer == 0 {
		return attemptNumbers(ev), false, nil
	}
	if ev.gateLog() == nil {
		// Nothing can be said of the comment, so it may have changed a
		// decision: every pull request is judged again, and fails closed.
		e.log.Warn("comment not answered: the gates cannot be judged", "thread", number, "config_valid", ev.configValid(), "unreadable", ev.unreadableThreads())
		return attemptNumbers(ev), true, nil
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
	return attemptNumbers(ev), changesDecision(ev, in.answer), err
}

// changesDecision reports whether item id had a request the gate log
// accepted and the App keeps (a HOLD, resume, gate or resolve).
func changesDecision(ev *evaluation, id int64) bool {
	for _, o := range ev.gateLog().Outcomes {
		if o.ItemID == id && o.Accepted && gatelog.Keeps(o.Action) {
			return true
		}
	}
	return false
}

// reconcileEvent is the event name of the periodic sweep's evaluations.
const reconcileEvent = "reconcile"

// maxRepairs bounds the comments one sweep evaluation answers.
const maxRepairs = 20

// answerMissed answers, in the sweep, the recent comments and reviews with
// requests whose answer the ledger does not hold (their webhook was lost):
// those GitHub redelivers for at most deliveryMemory. A gate decision is
// replayed whether or not it was answered; this repairs only the answer.
func (e *evaluator) answerMissed(ctx context.Context, in evalInput, ev *evaluation) error {
	seen := map[int64]bool{}
	repaired := 0
	for _, o := range ev.gateLog().Outcomes {
		if o.Implicit || seen[o.ItemID] || repaired == maxRepairs {
			continue
		}
		seen[o.ItemID] = true
		_, at, ok := itemOf(ev.snap, o.ItemID)
		if !ok || time.Since(at) > deliveryMemory {
			continue
		}
		done, err := e.w.Has(ctx, answeredSubject(in, o.ItemID))
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
