package queue

import (
	"context"
	"crypto/sha256"
	"fmt"
	"log/slog"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
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

// BenchmarkBatcherClosedLoop hands deliveries to the edge's Batcher over
// a queue on a SQLite file from 32 senders at once, each sending its next
// delivery as soon as the last one was answered: what the group commit
// sustains when deliveries never stop coming, and each one's wait from
// hand-over to answer (p50, p99).
func BenchmarkBatcherClosedLoop(b *testing.B) {
	payload := []byte(`{"action":"opened","pull_request":{"number":2,"head":{"sha":"` + strings.Repeat("a", 40) + `"},"body":"` + strings.Repeat("x", 300) + `"}}`)
	q := benchQueue(b)
	bt := webhook.NewBatcher(q, webhook.BatchConfig{})
	defer bt.Close()
	const senders = 32
	var seq atomic.Int64
	lat := make([][]time.Duration, senders)
	cpu := cpuTime()
	b.ResetTimer()
	var wg sync.WaitGroup
	for s := range senders {
		wg.Go(func() {
			for int(seq.Add(1)) <= b.N {
				id := fmt.Sprintf("d-%d-%d", s, len(lat[s]))
				start := time.Now()
				if _, err := bt.Enqueue(context.Background(), webhook.Delivery{DeliveryID: id, Event: "pull_request",
					Payload: payload, BodySHA256: sha256.Sum256([]byte(id))}); err != nil {
					b.Error(err)
					return
				}
				lat[s] = append(lat[s], time.Since(start))
			}
		})
	}
	wg.Wait()
	b.StopTimer()
	all := slices.Concat(lat...)
	slices.Sort(all)
	if len(all) == 0 {
		return
	}
	b.ReportMetric(float64(len(all))/b.Elapsed().Seconds(), "deliveries/s")
	b.ReportMetric(float64((cpuTime()-cpu).Microseconds())/float64(len(all)), "cpu-µs/delivery")
	b.ReportMetric(float64(all[len(all)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(all[len(all)*99/100].Microseconds())/1000, "p99-ms")
}

// BenchmarkBatcherOpenLoop hands deliveries to the edge's Batcher over a
// queue on a SQLite file at a fixed rate for 5 s a run, open loop (each
// delivery on its own goroutine, whether or not the last were answered),
// as GitHub sends them: each one's wait from hand-over to answer (p50,
// p99, max) with no HTTP in front. Run it with -benchtime 1x.
func BenchmarkBatcherOpenLoop(b *testing.B) {
	payload := []byte(`{"action":"opened","pull_request":{"number":2,"head":{"sha":"` + strings.Repeat("a", 40) + `"},"body":"` + strings.Repeat("x", 300) + `"}}`)
	for _, rate := range []int{1000, 2000} {
		b.Run(fmt.Sprintf("rate=%d", rate), func(b *testing.B) {
			var all []time.Duration
			for b.Loop() {
				all = append(all, openLoop(b, payload, rate, 5*time.Second)...)
			}
			slices.Sort(all)
			b.ReportMetric(float64(all[len(all)/2].Microseconds())/1000, "p50-ms")
			b.ReportMetric(float64(all[len(all)*99/100].Microseconds())/1000, "p99-ms")
			b.ReportMetric(float64(all[len(all)-1].Microseconds())/1000, "max-ms")
		})
	}
}

// openLoop sends rate deliveries a second for d to a fresh queue's
// Batcher and returns each one's wait.
func openLoop(b *testing.B, payload []byte, rate int, d time.Duration) []time.Duration {
	q := benchQueue(b)
	bt := webhook.NewBatcher(q, webhook.BatchConfig{})
	defer bt.Close()
	n := rate * int(d/time.Second)
	lat := make([]time.Duration, n)
	start := time.Now()
	var wg sync.WaitGroup
	for i := range n {
		if wait := time.Until(start.Add(time.Duration(i) * time.Second / time.Duration(rate))); wait > 0 {
			time.Sleep(wait)
		}
		wg.Go(func() {
			id := fmt.Sprintf("d-%d", i)
			t0 := time.Now()
			if _, err := bt.Enqueue(context.Background(), webhook.Delivery{DeliveryID: id, Event: "pull_request",
				Payload: payload, BodySHA256: sha256.Sum256([]byte(id))}); err != nil {
				b.Error(err)
			}
			lat[i] = time.Since(t0)
		})
	}
	wg.Wait()
	return lat
}
