package app

import (
	"context"
	"testing"
	"time"
)

// drainBound bounds a wait for the App's queue to drain. The queue of a
// test holds a few evaluations, but on the shared 2-core CI machine (load
// averages of 30 measured) one evaluation has taken over 10 s, the bound
// these waits had: TestNonAgentPRUnaffected timed out draining one
// review's jobs.
const drainBound = 30 * time.Second

// idle waits until every webhook the fake sent so far was answered and
// the App's queue holds no job still to run, board updates included: for
// worlds whose BoardDelay is short (board tests), where quiet would leave
// a board update running beside what the test measures next.
func (w *ghfakeWorld) idle(t *testing.T) {
	t.Helper()
	w.f.Deliveries()
	waitFor(t, drainBound, "the App's queue to drain, board updates included", func() bool {
		var n int
		err := w.app.db.SQL.QueryRowContext(context.Background(),
			`SELECT COUNT(*) FROM river_job WHERE state NOT IN ('completed', 'cancelled', 'discarded')`).Scan(&n)
		if err != nil {
			t.Fatal(err)
		}
		return n == 0
	})
}
