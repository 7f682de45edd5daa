package app

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/aepgate/aepgate/app/queue"
	"github.com/aepgate/aepgate/app/webhook"
	"github.com/aepgate/aepgate/internal/testkit/pgtest"
)

// TestEnqueueBatch: on both engines one batch records every delivery ID
// once and queues one job per fresh delivery of an event that starts work;
// a duplicate inside the batch and one of an earlier batch are not fresh,
// and an event that starts no work is recorded without a job. The queue
// stats (aepgate_queue_jobs) count the jobs.
func TestEnqueueBatch(t *testing.T) {
	for _, engine := range []string{"sqlite", "postgres"} {
		t.Run(engine, func(t *testing.T) {
			database := ""
			if engine == "postgres" {
				if testing.Short() {
					t.Skip("PostgreSQL: runs without -short")
				}
				database = pgtest.Start(t)
			}
			a, err := New(context.Background(), testOptions(t, nil, database))
			if err != nil {
				t.Fatal(err)
			}
			defer a.Close()
			push := func(id string) webhook.Delivery {
				return webhook.Delivery{DeliveryID: id, Event: "push", Payload: []byte(`{"ref":"refs/heads/x"}`)}
			}
			ctx := context.Background()
			first, err := a.queue.EnqueueBatch(ctx, []webhook.Delivery{push("a"), push("b"), push("a"), {DeliveryID: "p", Event: "ping"}})
			if err != nil {
				t.Fatal(err)
			}
			second, err := a.queue.EnqueueBatch(ctx, []webhook.Delivery{push("b"), push("c")})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff([][]bool{{true, true, false, true}, {false, true}}, [][]bool{first, second}); diff != "" {
				t.Errorf("fresh (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(map[string]int{"a": 1, "b": 1, "c": 1}, jobsByDelivery(t, a)); diff != "" {
				t.Errorf("delivery jobs (-want +got):\n%s", diff)
			}
			stats, err := a.db.QueueStats(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if len(stats) != 1 || stats[0].Queue != "default" || stats[0].State != "available" || stats[0].Jobs != 3 || stats[0].OldestSeconds < 0 || stats[0].OldestSeconds > 60 {
				t.Errorf("queue stats = %+v, want 3 available jobs of the default queue, waiting a moment", stats)
			}
		})
	}
}

// jobsByDelivery counts the delivery jobs of each delivery ID, on either
// engine.
func jobsByDelivery(t *testing.T, a *App) map[string]int {
	t.Helper()
	if a.db.Pool == nil {
		return deliveryJobs(t, a)
	}
	rows, err := a.db.Pool.Query(context.Background(), `SELECT args->>'delivery_id' FROM river_job WHERE kind = $1`, queue.Delivery{}.Kind())
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
	return out
}
