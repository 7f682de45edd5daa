package queue

import (
	"context"
	"crypto/sha256"
	"fmt"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/aepgate/aepgate/app/webhook"
	"github.com/aepgate/aepgate/internal/store"
)

// benchQueue is a queue on a fresh SQLite file whose workers are not
// started, so only the enqueue is measured.
func benchQueue(b *testing.B) *Queue {
	ctx := context.Background()
	db, err := store.Open(ctx, "sqlite:"+filepath.Join(b.TempDir(), "q.db"))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(db.Close)
	if err := db.Migrate(ctx); err != nil {
		b.Fatal(err)
	}
	q, err := New(ctx, db, Config{Workers: 1, JobTimeout: time.Minute, RescueAfter: time.Hour,
		ReconcileEvery: time.Hour, RetryBase: time.Second, MaxRetryDelay: time.Minute,
		PollInterval: time.Second, ReplayMemory: 24 * time.Hour, Logger: slog.New(slog.DiscardHandler)},
		Runners{Handles: func(string) bool { return true }})
	if err != nil {
		b.Fatal(err)
	}
	return q
}

// BenchmarkEnqueueBatch commits batches of 64 fresh deliveries, each with
// a kept payload of the size the edge keeps of a pull_request body, and
// reports the time per delivery.
func BenchmarkEnqueueBatch(b *testing.B) {
	q := benchQueue(b)
	ctx := context.Background()
	payload := []byte(`{"action":"opened","installation":{"id":1},"repository":{"name":"r","owner":{"login":"o"}},` +
		`"pull_request":{"number":2,"head":{"sha":"` + strings.Repeat("a", 40) + `"},"body":"` + strings.Repeat("x", 300) + `"}}`)
	const size = 64
	seq := 0
	b.ResetTimer()
	for range b.N {
		ds := make([]webhook.Delivery, size)
		for i := range ds {
			seq++
			id := fmt.Sprintf("d-%d", seq)
			ds[i] = webhook.Delivery{DeliveryID: id, Event: "pull_request", Payload: payload, BodySHA256: sha256.Sum256([]byte(id))}
		}
		if _, err := q.EnqueueBatch(ctx, ds); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*size), "µs/delivery")
}
