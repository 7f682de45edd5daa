package queue

import (
	"context"
	"crypto/sha256"
	"errors"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/aepgate/aepgate/app/webhook"
)

// fakeYield is y on a clock that only its sleeps move; slept records them.
func fakeYield(y *Yield, t0 time.Time) (clock *time.Time, slept *[]time.Duration) {
	now := t0
	var s []time.Duration
	y.now = func() time.Time { return now }
	y.sleep = func(_ context.Context, d time.Duration) error {
		s = append(s, d)
		now = now.Add(d)
		return nil
	}
	return &now, &s
}

// TestYield: below the busy rate a job starts at once; at it, the jobs
// waiting take start slots 1/rate apart in the order they came, and a job
// waiting for its slot starts as soon as the edge is no longer busy. With
// pacing off (a negative busy rate, the negative control) nothing ever
// waits.
func TestYield(t *testing.T) {
	t0 := time.Date(2026, 12, 2, 6, 0, 0, 0, time.UTC)
	ctx := context.Background()
	tests := []struct {
		name            string
		busyAt, perSec  int
		arrived         int
		arrivedAgo      time.Duration
		jobs            int
		wantSlept       time.Duration // total time the jobs waited
		wantBusyAtStart bool
	}{
		{name: "quiet edge", busyAt: 100, perSec: 20, arrived: 99, jobs: 3},
		{name: "busy edge: 3 jobs over 2 slots of 50 ms", busyAt: 100, perSec: 20, arrived: 100, jobs: 3,
			wantSlept: 100 * time.Millisecond, wantBusyAtStart: true},
		{name: "arrivals over a second ago do not count", busyAt: 100, perSec: 20, arrived: 500,
			arrivedAgo: 1100 * time.Millisecond, jobs: 3},
		{name: "busy ends 400 ms in: the second job's 1 s slot is not waited for", busyAt: 100, perSec: 1,
			arrived: 100, arrivedAgo: 600 * time.Millisecond, jobs: 2, wantSlept: 400 * time.Millisecond, wantBusyAtStart: true},
		{name: "pacing off", busyAt: -1, perSec: 20, arrived: 10_000, jobs: 3},
		{name: "defaults: 100 a second is busy, 20 jobs a second", arrived: 100, jobs: 2, wantSlept: 50 * time.Millisecond, wantBusyAtStart: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			y := NewYield(tt.busyAt, tt.perSec)
			clock, slept := fakeYield(y, t0.Add(-tt.arrivedAgo))
			y.Arrived(tt.arrived)
			*clock = t0
			if got := y.Busy(); got != tt.wantBusyAtStart {
				t.Errorf("busy at the start = %v; want %v", got, tt.wantBusyAtStart)
			}
			for range tt.jobs {
				if err := y.Wait(ctx); err != nil {
					t.Fatal(err)
				}
			}
			var got time.Duration
			for _, d := range *slept {
				got += d
				if d > recheck {
					t.Errorf("one sleep of %v, longer than the %v recheck", d, recheck)
				}
			}
			// A job past its slot's start within the clock's resolution
			// starts; the window is counted in 100 ms slots.
			if got < tt.wantSlept || got > tt.wantSlept+windowTick {
				t.Errorf("the jobs waited %v in all; want %v (sleeps %v)", got, tt.wantSlept, *slept)
			}
		})
	}
}

// TestYieldSlotsInOrder: concurrent waiters at a busy edge are given
// distinct slots, one every 1/rate.
func TestYieldSlotsInOrder(t *testing.T) {
	y := NewYield(1, 10)
	t0 := time.Date(2026, 12, 2, 6, 0, 0, 0, time.UTC)
	y.now = func() time.Time { return t0 }
	y.Arrived(5)
	var mu sync.Mutex
	var slots []time.Duration
	y.sleep = func(ctx context.Context, d time.Duration) error {
		mu.Lock()
		defer mu.Unlock()
		slots = append(slots, d)
		return context.Canceled // stop after the first sleep: it shows the slot
	}
	for range 4 {
		y.Wait(context.Background())
	}
	want := []time.Duration{100 * time.Millisecond, 100 * time.Millisecond, 100 * time.Millisecond}
	if diff := cmp.Diff(want, slots); diff != "" {
		t.Errorf("first sleeps (-want +got):\n%s", diff)
	}
	if got, want := y.next.Sub(t0), 400*time.Millisecond; got != want {
		t.Errorf("next free slot %v after the start; want %v (4 jobs, 100 ms apart)", got, want)
	}
}

// TestYieldMiddleware: the queue's workers wait through Config.Yield —
// at a busy edge paced to 5 jobs a second, three deliveries' jobs start
// at least 200 ms apart.
func TestYieldMiddleware(t *testing.T) {
	ctx := context.Background()
	db := tempDB(t)
	y := NewYield(1, 5)
	stop := make(chan struct{})
	defer close(stop)
	go func() { // keep the edge busy
		for {
			y.Arrived(10)
			select {
			case <-stop:
				return
			case <-time.After(20 * time.Millisecond):
			}
		}
	}()
	var mu sync.Mutex
	var starts []time.Time
	done := make(chan struct{}, 3)
	q, err := New(ctx, db, Config{Workers: 4, JobTimeout: time.Minute, RescueAfter: time.Hour,
		ReconcileEvery: time.Hour, RetryBase: time.Second, MaxRetryDelay: time.Minute,
		PollInterval: 20 * time.Millisecond, Yield: y, Logger: slog.New(slog.DiscardHandler)},
		Runners{Handles: func(string) bool { return true }, Delivery: func(context.Context, Delivery, int) error {
			mu.Lock()
			starts = append(starts, time.Now())
			mu.Unlock()
			done <- struct{}{}
			return nil
		}})
	if err != nil {
		t.Fatal(err)
	}
	ds := make([]webhook.Delivery, 3)
	for i := range ds {
		id := string(rune('a' + i))
		ds[i] = webhook.Delivery{DeliveryID: id, Event: "pull_request", Payload: []byte(`{}`), BodySHA256: sha256.Sum256([]byte(id))}
	}
	if _, err := q.EnqueueBatch(ctx, ds); err != nil {
		t.Fatal(err)
	}
	if err := q.Start(ctx); err != nil {
		t.Fatal(err)
	}
	defer q.Stop(ctx)
	for range 3 {
		select {
		case <-done:
		case <-time.After(30 * time.Second):
			t.Fatal("the jobs did not all run within 30 s")
		}
	}
	mu.Lock()
	defer mu.Unlock()
	for i := 1; i < len(starts); i++ {
		if gap := starts[i].Sub(starts[i-1]); gap < 190*time.Millisecond {
			t.Errorf("job %d started %v after the one before; want at least 200 ms at 5 a second", i, gap)
		}
	}
}

// TestYieldObserve: the edge's batch observer is still called, and only
// committed batches count as arrivals.
func TestYieldObserve(t *testing.T) {
	y := NewYield(10, 20)
	var seen []int
	observe := y.Observe(func(size int, _ time.Duration, _ error) { seen = append(seen, size) })
	observe(6, time.Millisecond, nil)
	observe(50, time.Millisecond, errors.New("batch failed"))
	if y.Busy() {
		t.Error("busy after 6 committed deliveries and a failed batch of 50; want not (10 a second)")
	}
	observe(4, time.Millisecond, nil)
	if !y.Busy() {
		t.Error("not busy after 10 committed deliveries; want busy")
	}
	if diff := cmp.Diff([]int{6, 50, 4}, seen); diff != "" {
		t.Errorf("batches the next observer saw (-want +got):\n%s", diff)
	}
}

// TestYieldMetrics: the series count the jobs that waited at a busy edge
// (not the one that started at once) and for how long, and show the edge
// busy.
func TestYieldMetrics(t *testing.T) {
	y := NewYield(10, 20)
	fakeYield(y, time.Date(2026, 12, 2, 6, 0, 0, 0, time.UTC))
	y.Arrived(10)
	for range 3 {
		y.Wait(context.Background())
	}
	reg := prometheus.NewRegistry()
	reg.MustRegister(y)
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]float64{}
	for _, mf := range mfs {
		for _, m := range mf.GetMetric() {
			got[mf.GetName()] = m.GetCounter().GetValue() + m.GetGauge().GetValue()
		}
	}
	// Two jobs waited 50 ms each, one after the other.
	want := map[string]float64{"aepgate_jobs_yielded_total": 2, "aepgate_job_yield_seconds_total": 0.1, "aepgate_webhook_busy": 1}
	if diff := cmp.Diff(want, got, cmpopts.EquateApprox(0, 1e-9)); diff != "" {
		t.Errorf("series (-want +got):\n%s", diff)
	}
}
