package app

import (
	"context"
	"fmt"
	"time"

	"github.com/aepgate/aepgate/app/board"
	"github.com/aepgate/aepgate/app/queue"
	"github.com/aepgate/aepgate/app/route"
	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/internal/store"
)

// runReconcile is the periodic sweep (queue.Sweep): for every installation
// and every repository it can see, it does the sweep's work (sweep), which
// repairs whatever lost or failed deliveries (or asset changes, which send
// none) left behind, and updates its board.
func (a *App) runReconcile(ctx context.Context) error {
	s := queue.Sweep{DB: a.db, Installations: a.clients.Installations, Installation: a.reconcileInstallation, Job: a.metrics.Job, Log: a.log}
	return s.Run(ctx)
}

// reconcileInstallation sweeps installation id; a rate limit ends its
// sweep at once.
func (a *App) reconcileInstallation(ctx context.Context, id int64) error {
	log := a.log.With("installation", id, "sweep", true)
	j, err := a.judges(id, log)
	if err != nil {
		return err
	}
	repos, err := j.gh.Repositories(ctx)
	if err != nil {
		return err
	}
	for _, r := range repos {
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
