package queue

import (
	"context"
	"crypto/sha256"
	"fmt"
	"log/slog"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/aepgate/aepgate/app/webhook"
	"github.com/aepgate/aepgate/internal/store"
)

// benchQueue is a queue on a fresh SQLite file whose workers are not
// started, so only the enqueue is measured.
func benchQueue(b *testing.B) *Queue {
	ctx := context.Background()
	q, err := New(ctx, tempDB(b), Config{Workers: 1, JobTimeout: time.Minute, RescueAfter: time.Hour,
		ReconcileEvery: time.Hour, RetryBase: time.Second, MaxRetryDelay: time.Minute,
		PollInterval: time.Second, ReplayMemory: 24 * time.Hour, Logger: slog.New(slog.DiscardHandler)},
		Runners{Handles: func(string) bool { return true }})
	if err != nil {
		b.Fatal(err)
	}
	return q
}

// BenchmarkEnqueueBatch commits batches of 1, 8 and 64 fresh deliveries,
// each with a kept payload of the size the edge keeps of a pull_request
// body, and reports the time and the CPU time per delivery: what a commit
// costs whatever its size, and what each delivery adds.
func BenchmarkEnqueueBatch(b *testing.B) {
	payload := []byte(`{"action":"opened","installation":{"id":1},"repository":{"name":"r","owner":{"login":"o"}},` +
		`"pull_request":{"number":2,"head":{"sha":"` + strings.Repeat("a", 40) + `"},"body":"` + strings.Repeat("x", 300) + `"}}`)
	for _, size := range []int{1, 8, 64} {
		b.Run(fmt.Sprintf("size=%d", size), func(b *testing.B) {
			q := benchQueue(b)
			ctx := context.Background()
			seq := 0
			cpu := cpuTime()
			for b.Loop() {
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
			b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(seq), "µs/delivery")
			b.ReportMetric(float64((cpuTime()-cpu).Microseconds())/float64(seq), "cpu-µs/delivery")
		})
	}
}

// tempDB is a migrated App database on a fresh SQLite file.
func tempDB(tb testing.TB) *store.DB {
	tb.Helper()
	ctx := context.Background()
	db, err := store.Open(ctx, "sqlite:"+filepath.Join(tb.TempDir(), "q.db"))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(db.Close)
	if err := db.Migrate(ctx); err != nil {
		tb.Fatal(err)
	}
	return db
}

// cpuTime is the user and system CPU time this process used so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
