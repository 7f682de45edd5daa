package queue

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/riverqueue/river"

	"github.com/aepgate/aepgate/app/webhook"
	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/internal/store"
)

// DeliveryMemory is how long delivery IDs are kept: GitHub redelivers for
// three days, so four is safe. The sweep answers the missed comments of as
// long (gates.Gates.Redelivered).
const DeliveryMemory = 4 * 24 * time.Hour

// Sweep is the periodic sweep (the reconcile job): it forgets old delivery
// IDs and webhook bodies, then sweeps every installation the App can see
// (Installation). A failing installation is logged and the sweep goes on;
// ctx's end stops it.
type Sweep struct {
	DB *store.DB
	// Installations lists the App's installations (gh.Clients).
	Installations func(ctx context.Context) ([]int64, error)
	// Installation sweeps one installation.
	Installation func(ctx context.Context, id int64) error
	// Job counts the sweep's result (metrics.Set.Job).
	Job func(kind, result string, d time.Duration)
	Log *slog.Logger
}

// Run sweeps once. Its GitHub calls wait behind every other work's for
// the installation's budget (gh.PriorityBackground).
func (s *Sweep) Run(ctx context.Context) (err error) {
	ctx = gh.WithPriority(ctx, gh.PriorityBackground)
	start := time.Now()
	defer func() {
		result := "ok"
		if _, limited := gh.RetryWait(err, time.Now()); limited {
			result = "snoozed"
		} else if err != nil {
			result = "retry"
		}
		s.Job(Reconcile{}.Kind(), result, time.Since(start))
	}()
	s.forget(ctx, "deliveries", s.DB.ForgetDeliveries, DeliveryMemory)
	s.forget(ctx, "webhook bodies", s.DB.ForgetBodies, webhook.ReplayMemory)
	ids, err := s.Installations(ctx)
	if err != nil {
		return fmt.Errorf("reconcile: %w", err)
	}
	for _, id := range ids {
		if err := s.Installation(ctx, id); err != nil {
			if ctx.Err() != nil {
				return fmt.Errorf("reconcile: %w", ctx.Err())
			}
			s.Log.Warn("reconcile installation", "installation", id, "err", err)
		}
	}
	return nil
}

func (s *Sweep) forget(ctx context.Context, what string, forget func(context.Context, time.Time) (int64, error), memory time.Duration) {
	if n, err := forget(ctx, time.Now().Add(-memory)); err != nil {
		s.Log.Warn("forget old "+what, "err", err)
	} else if n > 0 {
		s.Log.Info("forgot old "+what, "count", n)
	}
}

// Retrying is run as a delivery job: rate limits snooze the job for as long
// as GitHub asked, shutdown hands it back untouched, other errors are
// retried with backoff; job counts each result (metrics.Set.Job). A
// delivery's GitHub calls — a pull request's own new head, an owner's
// command — go before fan-outs and sweeps for the installation's budget
// (gh.PriorityOwn).
func Retrying(run func(ctx context.Context, d Delivery, log *slog.Logger) error, job func(kind, result string, d time.Duration), log *slog.Logger) func(context.Context, Delivery, int) error {
	return func(ctx context.Context, d Delivery, attempt int) error {
		start := time.Now()
		log := log.With("delivery", d.DeliveryID, "event", d.Event, "attempt", attempt)
		err := run(gh.WithPriority(ctx, gh.PriorityOwn), d, log)
		result := "ok"
		if err != nil {
			result = "retry"
			if wait, ok := gh.RetryWait(err, time.Now()); ok {
				result = "snoozed"
				log.Warn("rate limited; snoozing", "wait_seconds", wait.Seconds(), "err", err)
				err = river.JobSnooze(max(wait, 0))
			} else if errors.Is(ctx.Err(), context.Canceled) {
				result, err = "returned", river.JobSnooze(0) // shutdown: for the next process
			} else {
				log.Warn("delivery failed; will retry", "err", err)
			}
		}
		job(Delivery{}.Kind(), result, time.Since(start))
		log.Info("delivery processed", "result", result, "duration_seconds", time.Since(start).Seconds())
		return err
	}
}

// Repos sweeps one installation's repositories (list): do does the sweep's
// work for each, then board updates its board. A failing repository is
// logged and the sweep goes on, but a rate limit covers the whole
// installation: going on would only hammer GitHub (§3.4), so its sweep ends
// there, as it does when ctx ends.
func Repos(ctx context.Context, list func(context.Context) ([]gh.Repository, error), do, board func(context.Context, gh.Repository) error, log *slog.Logger) error {
	repos, err := list(ctx)
	if err != nil {
		return err
	}
	for _, r := range repos {
		if err := do(ctx, r); err != nil {
			if _, limited := gh.RetryWait(err, time.Now()); limited || ctx.Err() != nil {
				return fmt.Errorf("repository %s: %w", r.FullName(), err)
			}
			log.Warn("reconcile repository", "repo", r.FullName(), "err", err)
		}
		if err := board(ctx, r); err != nil {
			log.Warn("reconcile board", "repo", r.FullName(), "err", err)
		}
	}
	return nil
}
