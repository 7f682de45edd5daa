package pull

import (
	"context"
	"time"

	"github.com/aepgate/aepgate/app/queue"
	"github.com/aepgate/aepgate/app/route"
)

// Coalescer asks for a rejudge job (queue.Queue).
type Coalescer interface {
	ScheduleRejudge(ctx context.Context, args queue.Rejudge, delay time.Duration) (queue.Inserted, error)
}

// Pushers keeps who pushed which commit, and when (store.DB).
type Pushers interface {
	RecordPusher(ctx context.Context, repo, sha, login string, at time.Time) error
}

// Wiring is what the pipeline's handlers take from the App beside the
// judge: the rejudge jobs (after Delay; Coalesced counts what a request
// did) and the pushers' record.
type Wiring struct {
	Rejudges  Coalescer
	Delay     time.Duration
	Coalesced func(queue.Inserted)
	Pushers   Pushers
}

// InputAt is the judgement context of work done for w.
func InputAt(w route.Where) Input {
	return Input{Delivery: w.Delivery, Event: w.Event, Owner: w.Owner, Repo: w.Repo, Sweep: w.Sweep}
}

// Register registers the pipeline's work: j judges, wr is the rest.
func Register(h *route.Handlers, j *Judge, wr Wiring) {
	route.Handle(h, func(ctx context.Context, w route.Where, x JudgePR) error {
		in := InputAt(w)
		in.PR, in.Guesses, in.Answer, in.Siblings, in.Witness, in.Once = x.PR, x.Guesses, x.Answer, x.Siblings, x.Witness, x.Once
		return j.Run(ctx, in)
	})
	route.Handle(h, func(ctx context.Context, w route.Where, x Rejudge) error {
		args := queue.Rejudge{Installation: w.Installation, Owner: w.Owner, Repo: w.Repo, PR: x.PR, Siblings: x.Siblings,
			Delivery: w.Delivery, Event: w.Event, Guesses: x.Guesses}
		did, err := wr.Rejudges.ScheduleRejudge(ctx, args, wr.Delay)
		if err != nil {
			return err
		}
		wr.Coalesced(did)
		return nil
	})
	route.Handle(h, func(ctx context.Context, w route.Where, x JudgeOpen) error {
		return j.Open(asFanout(ctx), InputAt(w), x.Issue, x.Milestones)
	})
	route.Handle(h, func(ctx context.Context, w route.Where, x JudgeQueued) error {
		return j.Queued(ctx, InputAt(w), Group(x))
	})
	route.Handle(h, func(ctx context.Context, w route.Where, x RecordAttempt) error {
		if j.DB.Attempts == nil {
			return nil
		}
		return j.DB.Attempts.RecordAttempt(ctx, w.FullName(), x.PR, x.Unit, x.Open, time.Now())
	})
	route.Handle(h, func(ctx context.Context, w route.Where, x RecordPush) error {
		return wr.Pushers.RecordPusher(ctx, w.FullName(), x.SHA, x.Login, x.At)
	})
}
