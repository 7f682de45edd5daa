package queue

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"

	"github.com/aepgate/aepgate/internal/store"
)

// Rejudge is the job that judges one pull request again for every
// delivery that only asked for that (a comment without a request, a review
// edited or dismissed, a check re-run, a completed workflow run) while it
// waited: such deliveries coalesce into it instead of each running an
// evaluation of their own (docs/app.md, "Coalesced evaluations").
type Rejudge struct {
	Installation int64  `json:"installation" river:"unique"`
	Owner        string `json:"owner" river:"unique"`
	Repo         string `json:"repo" river:"unique"`
	PR           int    `json:"pr" river:"unique"`
	// Siblings judges the unit's other open pull requests next.
	Siblings bool `json:"siblings" river:"unique"`
	// Lane tells a follow-up from the job already running
	// (ScheduleRejudge).
	Lane int `json:"lane" river:"unique"`
	// Delivery and Event are the first coalesced delivery's, for the
	// ledger; Guesses the units its payload named.
	Delivery string `json:"delivery"`
	Event    string `json:"event"`
	Guesses  []int  `json:"guesses,omitempty"`
}

// Kind names the job kind in River's table.
func (Rejudge) Kind() string { return "aepgate_rejudge" }

// Key names the requests' counter: the pull request, and whether its
// unit's other pull requests are judged with it.
func (r Rejudge) Key() string {
	k := fmt.Sprintf("%s/%s#%d", r.Owner, r.Repo, r.PR)
	if r.Siblings {
		k += "+siblings"
	}
	return k
}

// lanes is how many jobs of one pull request may exist at once: usually
// one running and one waiting; a third covers the moment both of those
// run.
const lanes = 3

// rejudgeUnique makes a rejudge job unique by its pull request and lane
// while it waits or runs (River requires the running state in the set).
var rejudgeUnique = river.UniqueOpts{ByArgs: true, ByState: []rivertype.JobState{
	rivertype.JobStateAvailable, rivertype.JobStatePending, rivertype.JobStateRunning,
	rivertype.JobStateScheduled, rivertype.JobStateRetryable}}

// Inserted is what one rejudge request did.
type Inserted int

const (
	// QueuedNew: no job of the pull request was waiting; one was inserted.
	QueuedNew Inserted = iota
	// Merged: a job waits that will see this request when it runs.
	Merged
)

// String is the metrics label of what a request did.
func (i Inserted) String() string {
	if i == Merged {
		return "merged"
	}
	return "queued"
}

// ErrLanesBusy is a request that found every lane's job running, each
// perhaps past its last look at the requests: the delivery is retried.
var ErrLanesBusy = errors.New("every job judging this pull request again is finishing; retry")

// ScheduleRejudge counts a request to judge args' pull request again and
// makes sure a job will see it, in one transaction: the first lane with
// no job gets one, delay from now; a lane whose job waits takes the
// request as it is. A running job counts too, as long as it has not
// looked at the requests for the last time (the App's rejudge runner),
// which it cannot say: so a running lane is passed over for the next one,
// and when every lane runs the request is retried. A request is never
// dropped.
func (q *Queue) ScheduleRejudge(ctx context.Context, args Rejudge, delay time.Duration) (Inserted, error) {
	var did Inserted
	err := q.db.InTx(ctx, func(tx store.Tx) error {
		if err := store.RequestRejudge(ctx, tx, args.Key(), time.Now()); err != nil {
			return err
		}
		for lane := range lanes {
			args.Lane = lane
			res, err := q.e.insertTx(ctx, tx, args, &river.InsertOpts{UniqueOpts: rejudgeUnique, ScheduledAt: time.Now().Add(delay)})
			if err != nil {
				return err
			}
			switch {
			case !res.UniqueSkippedAsDuplicate:
				did = QueuedNew
				return nil
			case res.Job.State != rivertype.JobStateRunning:
				did = Merged
				return nil
			}
		}
		return ErrLanesBusy
	})
	if err != nil {
		return 0, fmt.Errorf("schedule judging %s again: %w", args.Key(), err)
	}
	return did, nil
}
