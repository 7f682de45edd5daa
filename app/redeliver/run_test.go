package redeliver

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/aepgate/aepgate/internal/gh"
)

var t0 = time.Date(2026, 12, 7, 12, 0, 0, 0, time.UTC)

// scene is a log, a record and a clock at t0, and a Redeliverer on them
// without pauses.
func scene(cfg Config) (*fakeLog, fakeRecorded, *fakeClock, *Redeliverer) {
	clock := &fakeClock{now: t0}
	log := &fakeLog{clock: clock, answer: http.StatusAccepted}
	rec := fakeRecorded{}
	if cfg.Pause == 0 {
		cfg.Pause = -1
	}
	return log, rec, clock, New(log, rec, cfg, clock.Now, nil, nil)
}

// guids are the GUIDs of the log's entries asked for.
func (l *fakeLog) guids() []string {
	var out []string
	for _, id := range l.asked {
		out = append(out, l.entries[id-1].GUID)
	}
	return out
}

func TestRunAsksForWhatTheEdgeMissed(t *testing.T) {
	log, rec, _, r := scene(Config{})
	log.add("too-old", 0, t0.Add(-Window-time.Minute))
	log.add("missed", 0, t0.Add(-time.Hour))
	log.add("answered-503", http.StatusServiceUnavailable, t0.Add(-50*time.Minute))
	log.add("recorded", 0, t0.Add(-40*time.Minute))
	rec["recorded"] = true
	log.add("ok", http.StatusAccepted, t0.Add(-30*time.Minute))
	log.add("retried-ok", 0, t0.Add(-25*time.Minute))
	log.add("retried-ok", http.StatusOK, t0.Add(-24*time.Minute))
	log.add("asked-by-hand", 0, t0.Add(-20*time.Minute))
	log.entries = append(log.entries, gh.HookDelivery{ID: int64(len(log.entries) + 1), GUID: "asked-by-hand", Redelivery: true, StatusCode: 0, DeliveredAt: t0.Add(-10 * time.Minute)})
	log.add("under-way", 0, t0.Add(-10*time.Second))

	got, err := r.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	want := Result{Missing: 2, Requested: 2, Pages: 1, Complete: true}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Result (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"missed", "answered-503"}, log.guids()); diff != "" {
		t.Errorf("asked for (-want +got), oldest first:\n%s", diff)
	}
}

// TestRunAsksOnce: a delivery asked for is not asked again, whether or not
// the redelivery reached the App and whether or not GitHub's log shows
// the redelivery yet; once recorded it counts as recovered, once.
func TestRunAsksOnce(t *testing.T) {
	for _, tc := range []struct {
		name   string
		answer int
		hide   bool
	}{
		{"redelivery answered", http.StatusAccepted, false},
		{"redelivery failed too", 0, false},
		{"log lags", 0, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			log, rec, clock, r := scene(Config{})
			log.answer, log.hideRedeliveries = tc.answer, tc.hide
			log.add("a", 0, t0.Add(-time.Hour))
			log.add("b", 0, t0.Add(-time.Hour))
			var results []Result
			for range 3 {
				res, err := r.Run(context.Background())
				if err != nil {
					t.Fatal(err)
				}
				results = append(results, res)
				clock.now = clock.now.Add(5 * time.Minute)
				rec["a"] = tc.answer != 0
			}
			if log.asks != 2 {
				t.Errorf("%d redelivery requests over three runs, want 2 (each GUID once)", log.asks)
			}
			recovered := 0
			for _, res := range results {
				recovered += res.Recovered
			}
			if want := map[bool]int{true: 1, false: 0}[tc.answer != 0]; recovered != want {
				t.Errorf("recovered %d, want %d", recovered, want)
			}
		})
	}
}

func TestRunBoundsRequestsAndKeepsTheRestForLater(t *testing.T) {
	log, _, clock, r := scene(Config{MaxRequests: 2})
	for i := range 5 {
		log.add(fmt.Sprintf("g%d", i), 0, t0.Add(time.Duration(i-60)*time.Minute))
	}
	var asked []int
	for range 4 {
		res, err := r.Run(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		asked = append(asked, res.Requested)
		clock.now = clock.now.Add(5 * time.Minute)
	}
	if diff := cmp.Diff([]int{2, 2, 1, 0}, asked); diff != "" {
		t.Errorf("requests per run (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"g0", "g1", "g2", "g3", "g4"}, log.guids()); diff != "" {
		t.Errorf("asked for (-want +got):\n%s", diff)
	}
}

// TestRunReadsBackOnlyToTheLastRun: after a complete run the next reads
// only the newer part of the log; a run cut by the page bound starts over.
func TestRunReadsBackOnlyToTheLastRun(t *testing.T) {
	log, _, clock, r := scene(Config{MaxPages: 3})
	for i := range 250 {
		log.add(fmt.Sprintf("ok-%d", i), http.StatusAccepted, t0.Add(time.Duration(i-300)*time.Second))
	}
	first, err := r.Run(context.Background())
	if err != nil || first.Pages != 3 || !first.Complete {
		t.Fatalf("first run = %+v, %v; want 3 pages, complete", first, err)
	}
	clock.now = clock.now.Add(5 * time.Minute)
	log.add("new", 0, clock.now.Add(-2*time.Minute))
	second, err := r.Run(context.Background())
	if err != nil || second.Pages != 1 || second.Requested != 1 {
		t.Errorf("second run = %+v, %v; want 1 page, 1 request", second, err)
	}

	log2, _, _, cut := scene(Config{MaxPages: 2})
	log2.entries = log.entries[:250]
	for _, want := range []int{2, 2} {
		res, err := cut.Run(context.Background())
		if err != nil || res.Pages != want || res.Complete {
			t.Errorf("cut run = %+v, %v; want %d pages, incomplete", res, err, want)
		}
	}
}

// TestRunHonoursRetryAfter: a rate-limited request ends the run and no
// run starts before GitHub's Retry-After is over; the deliveries not yet
// asked for are asked then.
func TestRunHonoursRetryAfter(t *testing.T) {
	limit := &gh.RateLimitError{Method: "POST", Status: http.StatusForbidden, RetryAfter: 90 * time.Second}
	for _, tc := range []struct {
		name   string
		set    func(*fakeLog) func()
		asks   int // requests made in the first run
		listed int // lists made before the wait is over
	}{
		{"on a redelivery", func(l *fakeLog) func() {
			l.refuse = func(int64) error { return limit }
			return func() { l.refuse = nil }
		}, 1, 1},
		{"on the list", func(l *fakeLog) func() {
			l.listErr = fmt.Errorf("list hook deliveries: %w", limit)
			return func() { l.listErr = nil }
		}, 0, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			log, _, clock, r := scene(Config{})
			log.add("a", 0, t0.Add(-time.Hour))
			log.add("b", 0, t0.Add(-time.Hour))
			lift := tc.set(log)
			res, err := r.Run(context.Background())
			if _, ok := gh.RetryWait(err, t0); !ok || !res.Limited || !res.Retry.Equal(t0.Add(90*time.Second)) {
				t.Fatalf("limited run = %+v, %v; want Limited until t0+90s", res, err)
			}
			if log.asks != tc.asks {
				t.Errorf("%d requests in the limited run, want %d", log.asks, tc.asks)
			}
			lift()
			clock.now = t0.Add(89 * time.Second)
			if res, err := r.Run(context.Background()); err != nil || !res.Skipped {
				t.Errorf("run before Retry-After is over = %+v, %v; want skipped", res, err)
			}
			if log.lists != tc.listed || log.asks != tc.asks {
				t.Errorf("GitHub was called before Retry-After was over: %d lists, %d requests", log.lists, log.asks)
			}
			clock.now = t0.Add(91 * time.Second)
			res, err = r.Run(context.Background())
			if err != nil || res.Requested != 2 {
				t.Errorf("run after the wait = %+v, %v; want both asked", res, err)
			}
		})
	}
}

func TestRunAsksARefusedDeliveryOnce(t *testing.T) {
	log, _, clock, r := scene(Config{})
	log.add("gone", 0, t0.Add(-time.Hour))
	log.refuse = func(int64) error { return errors.New("422 validation failed") }
	for range 3 {
		res, err := r.Run(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		clock.now = clock.now.Add(5 * time.Minute)
		_ = res
	}
	if log.asks != 1 {
		t.Errorf("%d requests for one refused delivery over three runs, want 1", log.asks)
	}
}

func TestConfigDefaults(t *testing.T) {
	got := Config{Pause: -1, Grace: -1}.withDefaults()
	want := Config{Every: DefaultEvery, MaxRequests: DefaultMaxRequests, MaxPages: DefaultMaxPages}
	if diff := cmp.Diff(want, got, cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("withDefaults (-want +got):\n%s", diff)
	}
}

func TestOutcome(t *testing.T) {
	for _, tc := range []struct {
		res  Result
		err  error
		want string
	}{
		{Result{Complete: true}, nil, "ok"},
		{Result{}, nil, "incomplete"},
		{Result{Complete: true}, errors.New("store down"), "error"},
		{Result{Limited: true}, errors.New("rate limit"), "limited"},
		{Result{Limited: true, Skipped: true}, nil, "waiting"},
	} {
		if got := Outcome(tc.res, tc.err); got != tc.want {
			t.Errorf("Outcome(%+v, %v) = %q, want %q", tc.res, tc.err, got, tc.want)
		}
	}
}

func TestLoopOff(t *testing.T) {
	log, _, _, _ := scene(Config{})
	log.add("a", 0, t0.Add(-time.Hour))
	New(log, fakeRecorded{}, Config{Every: -1}, nil, nil, nil).Loop(context.Background())
	if log.lists != 0 {
		t.Errorf("a Redeliverer turned off read the log %d times", log.lists)
	}
}
