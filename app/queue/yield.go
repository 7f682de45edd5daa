package queue

import (
	"context"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"
)

// Jobs give way to webhooks. An acknowledgement that comes late loses the
// delivery (GitHub gives up after 10 s and does not send it again by
// itself); a job that starts late loses nothing, it is in the database.
// Measured with internal/loadgen at 1,000 deliveries/s on two cores
// (docs/app.md, "Group commit and throughput"), the edge alone acknowledged within
// 11 ms at the 99th percentile; with the workers running each delivery's
// job beside it, 20 to 68 ms. So while verified deliveries arrive faster
// than a threshold, jobs start at a bounded rate instead of as fast as
// workers free up; below it they start as before.

// Yield paces job starts while the webhook edge is busy. Arrived counts
// what the edge committed; Wait is what a job does before it starts.
type Yield struct {
	// busyAt is the arrival rate (deliveries per second, over the last
	// second) from which the edge counts as busy; 0 turns pacing off.
	busyAt int
	// every is the spacing of job starts while it is busy.
	every time.Duration
	now   func() time.Time
	sleep func(ctx context.Context, d time.Duration) error

	mu      sync.Mutex
	arrived window
	// next is the earliest start given to no job yet.
	next time.Time
	// waited and waitedFor count the jobs that waited and for how long
	// (Collect).
	waited    int64
	waitedFor time.Duration
}

// recheck bounds one sleep of a waiting job, so that it starts soon once
// the edge is no longer busy.
const recheck = 100 * time.Millisecond

// Defaults of NewYield (serve's --webhook-busy-rate and --busy-job-rate).
const (
	DefaultBusyRate    = 100
	DefaultBusyJobRate = 20
)

// NewYield paces job starts to jobsPerSecond while deliveries arrive at
// busyAt a second or more; 0 means DefaultBusyRate and DefaultBusyJobRate,
// a negative busyAt never paces.
func NewYield(busyAt, jobsPerSecond int) *Yield {
	y := &Yield{now: time.Now, sleep: sleepCtx}
	if busyAt == 0 {
		busyAt = DefaultBusyRate
	}
	if jobsPerSecond <= 0 {
		jobsPerSecond = DefaultBusyJobRate
	}
	if busyAt > 0 {
		y.busyAt, y.every = busyAt, time.Second/time.Duration(jobsPerSecond)
	}
	return y
}

// Observe is next (nil: none) counting, too, the deliveries of every batch
// the edge committed (webhook.BatchConfig.Observe).
func (y *Yield) Observe(next func(size int, took time.Duration, err error)) func(int, time.Duration, error) {
	return func(size int, took time.Duration, err error) {
		if next != nil {
			next(size, took, err)
		}
		if err == nil {
			y.Arrived(size)
		}
	}
}

// Arrived counts n deliveries the edge committed now.
func (y *Yield) Arrived(n int) {
	if y == nil || y.busyAt == 0 {
		return
	}
	now := y.now()
	y.mu.Lock()
	y.arrived.add(now, n)
	y.mu.Unlock()
}

// Busy reports whether deliveries arrived at the busy rate over the last
// second.
func (y *Yield) Busy() bool {
	if y == nil || y.busyAt == 0 {
		return false
	}
	now := y.now()
	y.mu.Lock()
	defer y.mu.Unlock()
	return y.arrived.sum(now) >= y.busyAt
}

// Wait returns at once unless the edge is busy; then it takes the next
// start slot (one every 1/jobsPerSecond, first come first served) and
// returns when it is due, or sooner if the edge stops being busy, or with
// ctx's error.
func (y *Yield) Wait(ctx context.Context) error {
	if y == nil || y.busyAt == 0 {
		return nil
	}
	y.mu.Lock()
	now := y.now()
	if y.arrived.sum(now) < y.busyAt {
		y.mu.Unlock()
		return nil
	}
	slot := y.next
	if slot.Before(now) {
		slot = now
	}
	y.next = slot.Add(y.every)
	y.mu.Unlock()
	defer y.count(now)
	for {
		left := slot.Sub(y.now())
		if left <= 0 || !y.Busy() {
			return nil
		}
		if err := y.sleep(ctx, min(left, recheck)); err != nil {
			return err
		}
	}
}

// count records a job that began to wait at since, if it waited at all.
func (y *Yield) count(since time.Time) {
	if d := y.now().Sub(since); d > 0 {
		y.mu.Lock()
		y.waited++
		y.waitedFor += d
		y.mu.Unlock()
	}
}

var (
	yieldedDesc = prometheus.NewDesc("aepgate_jobs_yielded_total",
		"Jobs that waited to start because the webhook edge was busy (--webhook-busy-rate).", nil, nil)
	yieldSecondsDesc = prometheus.NewDesc("aepgate_job_yield_seconds_total",
		"Time jobs waited to start because the webhook edge was busy.", nil, nil)
	busyDesc = prometheus.NewDesc("aepgate_webhook_busy",
		"1 while verified deliveries arrive at --webhook-busy-rate or more and jobs give way to them, else 0.", nil, nil)
)

// Describe sends the yield's three series.
func (y *Yield) Describe(ch chan<- *prometheus.Desc) {
	ch <- yieldedDesc
	ch <- yieldSecondsDesc
	ch <- busyDesc
}

// Collect reports the jobs that waited, their wait and whether the edge
// is busy now.
func (y *Yield) Collect(ch chan<- prometheus.Metric) {
	busy := 0.0
	if y.Busy() {
		busy = 1
	}
	y.mu.Lock()
	n, d := y.waited, y.waitedFor
	y.mu.Unlock()
	ch <- prometheus.MustNewConstMetric(yieldedDesc, prometheus.CounterValue, float64(n))
	ch <- prometheus.MustNewConstMetric(yieldSecondsDesc, prometheus.CounterValue, d.Seconds())
	ch <- prometheus.MustNewConstMetric(busyDesc, prometheus.GaugeValue, busy)
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// windowSlots × windowTick is the second over which arrivals are counted.
const (
	windowSlots = 10
	windowTick  = 100 * time.Millisecond
)

// window counts events in the last second, in slots of windowTick.
type window struct {
	count [windowSlots]int
	// tick is the slot's windowTick since the Unix epoch.
	tick [windowSlots]int64
}

func (w *window) add(now time.Time, n int) {
	t := now.UnixNano() / int64(windowTick)
	k := t % windowSlots
	if w.tick[k] != t {
		w.tick[k], w.count[k] = t, 0
	}
	w.count[k] += n
}

func (w *window) sum(now time.Time) int {
	t := now.UnixNano() / int64(windowTick)
	s := 0
	for k := range windowSlots {
		if d := t - w.tick[k]; d >= 0 && d < windowSlots {
			s += w.count[k]
		}
	}
	return s
}

// yieldMiddleware makes every job kind Wait before it runs. The wait is
// inside the job's timeout; at the default pace a job waits for at most
// its workers' share of one second.
type yieldMiddleware struct {
	river.MiddlewareDefaults
	y *Yield
}

// Work runs the job once Wait returned; a wait cut short by the job's
// context (a shutdown, the timeout) runs it too, so that the job's own
// handling of the ended context decides what River does with it.
func (m *yieldMiddleware) Work(ctx context.Context, _ *rivertype.JobRow, doInner func(context.Context) error) error {
	_ = m.y.Wait(ctx)
	return doInner(ctx)
}
