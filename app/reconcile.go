package app

import (
	"context"
	"fmt"
	"time"

	"github.com/aepgate/aepgate/app/board"
	"github.com/aepgate/aepgate/app/queue"
	"github.com/aepgate/aepgate/app/route"
	"github.com/aepgate/aepgate/app/webhook"
	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/internal/store"
)

// deliveryMemory is how long delivery IDs are kept: GitHub redelivers for
// three days, so four is safe. The sweep answers the missed comments of as
// long (gates.Gates.Redelivered).
const deliveryMemory = 4 * 24 * time.Hour

// runReconcile is the periodic sweep: for every installation and every
// repository it can see, re-evaluate the open pull requests and re-verify
// the Latest release, which repairs whatever lost or failed deliveries (or
// asset changes, which send none) left behind, and update its board
// (each open attempt's health moves with time); then forget old delivery
// IDs. A failing installation is logged and the sweep goes on; a rate limit
// ends that installation's sweep at once.
func (a *App) runReconcile(ctx context.Context) (err error) {
	start := time.Now()
	defer func() {
		result := "ok"
		if _, limited := gh.RetryWait(err, time.Now()); limited {
			result = "snoozed"
		} else if err != nil {
			result = "retry"
		}
		a.metrics.Job(queue.Reconcile{}.Kind(), result, time.Since(start))
	}()
	if n, err := a.db.ForgetDeliveries(ctx, time.Now().Add(-deliveryMemory)); err != nil {
		a.log.Warn("forget old deliveries", "err", err)
	} else if n > 0 {
		a.log.Info("forgot old deliveries", "count", n)
	}
	if n, err := a.db.ForgetBodies(ctx, time.Now().Add(-webhook.ReplayMemory)); err != nil {
		a.log.Warn("forget old webhook bodies", "err", err)
	} else if n > 0 {
		a.log.Info("forgot old webhook bodies", "count", n)
	}
	ids, err := a.clients.Installations(ctx)
	if err != nil {
		return fmt.Errorf("reconcile: %w", err)
	}
	for _, id := range ids {
		if err := a.reconcileInstallation(ctx, id); err != nil {
			if ctx.Err() != nil {
				return fmt.Errorf("reconcile: %w", ctx.Err())
			}
			a.log.Warn("reconcile installation", "installation", id, "err", err)
		}
	}
	return nil
}

func (a *App) reconcileInstallation(ctx context.Context, id int64) error {
	in, err := a.clients.Installation(id)
	if err != nil {
		return err
	}
	log := a.log.With("installation", id, "sweep", true)
	j, err := a.judges(id, log)
	if err != nil {
		return err
	}
	repos, err := in.Repositories(ctx)
	if err != nil {
		return err
	}
	for _, r := range repos {
		// The open pull requests, then the Latest release (GitHub sends no
		// event when a release asset changes).
		w := route.Where{Installation: id, Owner: r.Owner, Repo: r.Name, Event: store.SweepEvent, Sweep: true}
		if err := a.handlers(j).Run(ctx, w, a.sweep()); err != nil {
			// A rate limit covers the whole installation: going on
			// would only hammer GitHub (§3.4), so its sweep ends here.
			if _, limited := gh.RetryWait(err, time.Now()); limited || ctx.Err() != nil {
				return fmt.Errorf("repository %s: %w", r.FullName(), err)
			}
			log.Warn("reconcile repository", "repo", r.FullName(), "err", err)
		}
		// The board shows each open attempt's health as of its update, so
		// the sweep updates it too, at once: its window (the one before
		// now) has ended. Nothing is written when the board is the same.
		if err := board.Insert(ctx, a.queue, board.Args{Installation: id, Owner: r.Owner, Repo: r.Name, Slot: board.Slot(time.Now(), a.opts.BoardDelay) - 1}); err != nil {
			log.Warn("reconcile board", "repo", r.FullName(), "err", err)
		}
	}
	return nil
}
