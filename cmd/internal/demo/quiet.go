package demo

import (
	"context"
	"fmt"
	"time"

	"github.com/aepgate/aepgate/internal/store"
)

// activeJobs counts the App's River jobs that wait or run: a delivery's
// evaluation, a board job inside its window, a retry.
const activeJobs = `SELECT count(*) FROM river_job WHERE state NOT IN ('completed', 'cancelled', 'discarded')`

// awaitQuiet waits until the App has nothing left to do, so that stopping
// it refuses no delivery and cuts no job short. The App is quiet when
// every delivery the simulated GitHub sent has been answered and no River
// job waits or runs, with no delivery sent in between: the App queues a
// delivery's job before it answers, and only a job writes to GitHub, so
// once both hold at one moment no write is on its way. A reconcile sweep
// that starts later finds everything written already and writes nothing
// (the App writes nothing twice), so it sends no delivery either.
func (w *world) awaitQuiet(ctx context.Context) error {
	db, err := store.Open(ctx, "sqlite:"+w.dbPath)
	if err != nil {
		return fmt.Errorf("demo: open the App's queue: %w", err)
	}
	defer db.Close()
	deadline := time.Now().Add(w.wait)
	for {
		jobs, err := w.busy(ctx, db)
		if err != nil {
			return err
		}
		if jobs == 0 {
			return nil
		}
		if time.Now().After(deadline) || w.ctx.Err() != nil {
			return fmt.Errorf("demo: the App was still busy after %v (%d jobs waiting or running, or deliveries unanswered)", w.wait, jobs)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// busy counts the App's jobs that wait or run; an unanswered delivery, or
// one sent while the jobs were counted, counts as one more.
func (w *world) busy(ctx context.Context, db *store.DB) (int, error) {
	before, answered := w.answered()
	if !answered {
		return 1, nil
	}
	var jobs int
	if err := db.SQL.QueryRowContext(ctx, activeJobs).Scan(&jobs); err != nil {
		return 0, fmt.Errorf("demo: count the App's jobs: %w", err)
	}
	if after, answered := w.answered(); !answered || after != before {
		jobs++
	}
	return jobs, nil
}

// answered counts the deliveries sent and reports whether each has had its
// answer (Deliveries waits for those in flight).
func (w *world) answered() (int, bool) {
	ds := w.f.Deliveries()
	for _, d := range ds {
		if d.Status == 0 && d.Err == nil {
			return len(ds), false
		}
	}
	return len(ds), true
}
