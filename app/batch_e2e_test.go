package app_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/aepgate/aepgate/app"
	"github.com/aepgate/aepgate/app/queue"
	"github.com/aepgate/aepgate/app/webhook"
	"github.com/aepgate/aepgate/internal/testkit/appkit"
)

// TestGroupCommitFailureMidBatch runs the App's edge on its SQLite
// database: 24 signed deliveries arrive at once and are committed in
// batches of exactly 8, and the database refuses one delivery's row in the middle
// of its batch (a trigger, armed once). None of that batch's 8 deliveries
// is acknowledged; GitHub's redelivery of each (simulated) then succeeds;
// every delivery has exactly one ID row and one job. The negative control
// acknowledges each delivery when the writer takes it, before its batch
// commits: the failed batch's deliveries are then acknowledged, GitHub
// never redelivers them, and they have no job.
func TestGroupCommitFailureMidBatch(t *testing.T) {
	for _, control := range []bool{false, true} {
		name := "acknowledged after commit"
		if control {
			name = "negative control: acknowledged before commit"
		}
		t.Run(name, func(t *testing.T) {
			o := appkit.Options(t, nil, "")
			// A batch closes when it holds 8, never on time: the 24
			// deliveries (and the 8 redelivered) make whole batches, so which
			// deliveries share the failed batch does not depend on how fast a
			// loaded machine lets them arrive (with a 5 s wait, a stall of the
			// process closed batches early and the failed one held fewer).
			o.BatchSize, o.BatchWait = 8, 10*time.Minute
			if control {
				o.Seams.Batch.Answer = func(context.Context, <-chan webhook.Result) webhook.Result { return webhook.Result{} }
			}
			a, err := app.New(context.Background(), o)
			if err != nil {
				t.Fatal(err)
			}
			defer a.Close()
			armFault(t, a, "d-13")
			srv := httptest.NewServer(a.Handler())
			defer srv.Close()
			var ids []string
			for i := range 24 {
				ids = append(ids, fmt.Sprintf("d-%02d", i))
			}
			var redeliver []string
			for id, code := range deliverAt(t, srv.URL, ids) {
				if code >= 300 {
					redeliver = append(redeliver, id)
				}
			}
			if !control && len(redeliver) != 8 {
				t.Errorf("unacknowledged: %d %v, want the 8 of the failed batch", len(redeliver), redeliver)
			}
			if control {
				// Answered before their batches committed: let every batch
				// commit or fail before the fault is lifted (none is
				// redelivered).
				a.Batcher().Close()
			}
			if _, err := a.Store().SQL.Exec(`INSERT INTO test_fault VALUES (1)`); err != nil {
				t.Fatal(err)
			}
			for id, code := range deliverAt(t, srv.URL, redeliver) {
				if code >= 300 {
					t.Errorf("redelivery of %s answered %d", id, code)
				}
			}
			a.Batcher().Close() // every handed-over batch has committed
			jobs := deliveryJobs(t, a)
			lost := 0
			for _, id := range ids {
				if jobs[id] != 1 {
					lost++
					if !control {
						t.Errorf("delivery %s has %d jobs, want 1", id, jobs[id])
					}
				}
			}
			if control && lost == 0 {
				t.Fatal("acknowledging before the commit lost nothing, so waiting for it is not what keeps deliveries")
			}
			t.Logf("deliveries acknowledged but without a job: %d", lost)
		})
	}
}

// armFault makes the database refuse the row of delivery id until a row
// is put in test_fault.
func armFault(t *testing.T, a *app.App, id string) {
	t.Helper()
	for _, q := range []string{
		`CREATE TABLE test_fault (n INTEGER)`,
		`CREATE TRIGGER test_fault BEFORE INSERT ON aepgate_delivery
			WHEN NEW.delivery_id = '` + id + `' AND (SELECT COUNT(*) FROM test_fault) = 0
			BEGIN SELECT RAISE(ABORT, 'injected fault'); END`,
	} {
		if _, err := a.Store().SQL.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
}

// deliverAt posts a signed push delivery for each of ids at once and
// returns each one's status.
func deliverAt(t *testing.T, base string, ids []string) map[string]int {
	var mu sync.Mutex
	out := map[string]int{}
	var wg sync.WaitGroup
	for _, id := range ids {
		wg.Go(func() {
			// The body is the delivery's own, so a redelivery is the same
			// body (not a replay of another delivery's).
			body := fmt.Appendf(nil, `{"ref":"refs/heads/%s","after":"%040x","commits":[],"installation":{"id":1},"repository":{"name":"app","owner":{"login":"acme"}},"pusher":{"name":"p"}}`, id, id)
			code := appkit.Deliver(t, base, "push", id, body)
			mu.Lock()
			defer mu.Unlock()
			out[id] = code
		})
	}
	wg.Wait()
	return out
}

// deliveryJobs counts the delivery jobs of each delivery ID.
func deliveryJobs(t *testing.T, a *app.App) map[string]int {
	t.Helper()
	rows, err := a.Store().SQL.Query(`SELECT json_extract(args, '$.delivery_id') FROM river_job WHERE kind = ?`, queue.Delivery{}.Kind())
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := map[string]int{}
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			t.Fatal(err)
		}
		out[id]++
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}
