package app

import (
	"context"
	"fmt"
	"time"

	"github.com/google/go-github/v62/github"

	"github.com/aepgate/aepgate/internal/gh"
)

// deliveryMemory is how long delivery IDs are kept: GitHub redelivers for
// three days, so four is safe.
const deliveryMemory = 4 * 24 * time.Hour

// runReconcile is the periodic sweep: for every installation and every
// repository it can see, re-evaluate the open pull requests, which repairs
// whatever lost or failed deliveries left behind; then forget old delivery
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
		a.metrics.job(reconcileArgs{}.Kind(), result, time.Since(start))
	}()
	if n, err := a.db.ForgetDeliveries(ctx, time.Now().Add(-deliveryMemory)); err != nil {
		a.log.Warn("forget old deliveries", "err", err)
	} else if n > 0 {
		a.log.Info("forgot old deliveries", "count", n)
	}
	appClient, err := a.clients.Auth().AppClient()
	if err != nil {
		return err
	}
	opts := &github.ListOptions{PerPage: 100}
	for {
		insts, resp, err := appClient.Apps.ListInstallations(ctx, opts)
		if err != nil {
			return fmt.Errorf("reconcile: list installations: %w", err)
		}
		for _, in := range insts {
			if err := a.reconcileInstallation(ctx, in.GetID()); err != nil {
				if ctx.Err() != nil {
					return fmt.Errorf("reconcile: %w", ctx.Err())
				}
				a.log.Warn("reconcile installation", "installation", in.GetID(), "err", err)
			}
		}
		if resp.NextPage == 0 {
			return nil
		}
		opts.Page = resp.NextPage
	}
}

func (a *App) reconcileInstallation(ctx context.Context, id int64) error {
	in, err := a.clients.Installation(id)
	if err != nil {
		return err
	}
	log := a.log.With("installation", id, "reconcile", true)
	ev, err := a.evaluator(id, log)
	if err != nil {
		return err
	}
	opts := &github.ListOptions{PerPage: 100}
	for {
		repos, resp, err := in.REST.Apps.ListRepos(ctx, opts)
		if err != nil {
			return fmt.Errorf("list repositories: %w", err)
		}
		for _, r := range repos.Repositories {
			j := job{Installation: id, Owner: r.GetOwner().GetLogin(), Repo: r.GetName()}
			if err := a.runTarget(ctx, ev, deliveryArgs{Event: "reconcile"}, j, target{AllOpen: true}); err != nil {
				// A rate limit covers the whole installation: going on
				// would only hammer GitHub (§3.4), so its sweep ends here.
				if _, limited := gh.RetryWait(err, time.Now()); limited || ctx.Err() != nil {
					return fmt.Errorf("repository %s: %w", r.GetFullName(), err)
				}
				log.Warn("reconcile repository", "repo", r.GetFullName(), "err", err)
			}
		}
		if resp.NextPage == 0 {
			return nil
		}
		opts.Page = resp.NextPage
	}
}
