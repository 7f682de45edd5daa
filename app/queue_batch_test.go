package app_test

import (
	"context"
	"crypto/sha256"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/aepgate/aepgate/app"
	"github.com/aepgate/aepgate/app/queue"
	"github.com/aepgate/aepgate/app/webhook"
	"github.com/aepgate/aepgate/internal/testkit/appkit"
	"github.com/aepgate/aepgate/internal/testkit/pgtest"
)

// TestEnqueueBatch: on both engines one batch records every delivery ID
// and body once and queues one job per new delivery of an event that
// starts work; a duplicate ID or a replayed body (the same SHA-256 under
// another ID) inside the batch or of an earlier batch queues nothing, and
// an event that starts no work is recorded without a job. The queue stats
// (aepgate_queue_jobs) count the jobs. Its negative control remembers no
// bodies (app.Options.noReplays): each replay is queued again.
func TestEnqueueBatch(t *testing.T) {
	dup, replay := webhook.Outcome{Duplicate: true}, webhook.Outcome{ReplayOf: "a"}
	for _, tt := range []struct {
		name, engine string
		noReplays    bool
		want         [][]webhook.Outcome
		jobs         map[string]int
	}{
		{"sqlite", "sqlite", false, [][]webhook.Outcome{{{}, {}, dup, {}, replay}, {dup, {}, replay}}, map[string]int{"a": 1, "b": 1, "c": 1}},
		{"postgres", "postgres", false, [][]webhook.Outcome{{{}, {}, dup, {}, replay}, {dup, {}, replay}}, map[string]int{"a": 1, "b": 1, "c": 1}},
		{"broken: no body record", "sqlite", true, [][]webhook.Outcome{{{}, {}, dup, {}, {}}, {dup, {}, {}}}, map[string]int{"a": 1, "b": 1, "c": 1, "r1": 1, "r2": 1}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			database := ""
			if tt.engine == "postgres" {
				if testing.Short() {
					t.Skip("PostgreSQL: runs without -short")
				}
				database = pgtest.Start(t)
			}
			o := appkit.Options(t, nil, database)
			o.Seams.NoReplays = tt.noReplays
			a, err := app.New(context.Background(), o)
			if err != nil {
				t.Fatal(err)
			}
			defer a.Close()
			push := func(id, ref string) webhook.Delivery {
				body := `{"ref":"refs/heads/` + ref + `"}`
				return webhook.Delivery{DeliveryID: id, Event: "push", Payload: []byte(body), BodySHA256: sha256.Sum256([]byte(body))}
			}
			ctx := context.Background()
			first, err := a.Queue().EnqueueBatch(ctx, []webhook.Delivery{push("a", "x"), push("b", "y"), push("a", "x"), {DeliveryID: "p", Event: "ping"}, push("r1", "x")})
			if err != nil {
				t.Fatal(err)
			}
			second, err := a.Queue().EnqueueBatch(ctx, []webhook.Delivery{push("b", "y"), push("c", "z"), push("r2", "x")})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, [][]webhook.Outcome{first, second}); diff != "" {
				t.Errorf("outcomes (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.jobs, jobsByDelivery(t, a)); diff != "" {
				t.Errorf("delivery jobs (-want +got):\n%s", diff)
			}
			stats, err := a.Store().QueueStats(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if len(stats) != 1 || stats[0].Queue != "default" || stats[0].State != "available" || stats[0].Jobs != int64(len(tt.jobs)) || stats[0].OldestSeconds < 0 || stats[0].OldestSeconds > 60 {
				t.Errorf("queue stats = %+v, want %d available jobs of the default queue, waiting a moment", stats, len(tt.jobs))
			}
		})
	}
}

// jobsByDelivery counts the delivery jobs of each delivery ID, on either
// engine.
func jobsByDelivery(t *testing.T, a *app.App) map[string]int {
	t.Helper()
	if a.Store().Pool == nil {
		return deliveryJobs(t, a)
	}
	rows, err := a.Store().Pool.Query(context.Background(), `SELECT args->>'delivery_id' FROM river_job WHERE kind = $1`, queue.Delivery{}.Kind())
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
