package gh

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/aepgate/aepgate/internal/testkit/ghfake"
)

// budgetWorld is an installed App whose budget runs on the fake's clock,
// against a fake that enforces GitHub's secondary limits.
type budgetWorld struct {
	f      *ghfake.Fake
	clock  *fakeClock
	in     *Installation
	issues [2]int
}

func newBudgetWorld(t *testing.T, auto bool, o BudgetOptions) *budgetWorld {
	t.Helper()
	f := ghfake.New(t)
	f.SetNow(time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC))
	f.SetSecondaryLimits(ghfake.GitHubSecondaryLimits())
	repo := f.CreateRepo("acme/widgets")
	key := ghfake.NewAppKey()
	inst := f.App(51, key).Install("acme", ghfake.Permissions{"metadata": "read", "issues": "write"}, repo)
	auth := NewAppAuth(51, key, f.URL(), nil)
	auth.now = f.Now
	w := &budgetWorld{f: f, clock: &fakeClock{f: f, auto: auto}}
	o.Clock = w.clock
	clients := NewClients(auth, f.URL())
	clients.Budget = o
	in, err := clients.Installation(inst.ID)
	if err != nil {
		t.Fatal(err)
	}
	w.in = in
	w.issues = [2]int{repo.OpenIssue("alice", "one", "").Number(), repo.OpenIssue("alice", "two", "").Number()}
	return w
}

// burst comments n times at once on the first issue, and returns the
// errors.
func (w *budgetWorld) burst(ctx context.Context, n int) []error {
	var mu sync.Mutex
	var errs []error
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			if _, err := w.in.Comment(ctx, "acme", "widgets", w.issues[0], fmt.Sprintf("comment %d", i)); err != nil {
				mu.Lock()
				errs = append(errs, err)
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	return errs
}

const commentRoute = "POST /repos/{owner}/{repo}/issues/{issue_number}/comments"

// comments are the comments written, oldest first.
func (w *budgetWorld) comments() []ghfake.Request {
	var out []ghfake.Request
	for _, r := range w.f.Writes() {
		if r.Pattern == commentRoute {
			out = append(out, r)
		}
	}
	return out
}

func refusals(s ghfake.LimitStats) int {
	n := 0
	for _, k := range s.Refusals {
		n += k
	}
	return n
}

// TestBudgetBurstOfWritesStaysUnderSecondaryLimits: 500 comments at once
// (content creation: 80 a minute and 500 an hour at GitHub) all land,
// paced under every limit with no refusal. The negative control sends the
// same burst past the budget, and the fake refuses it.
func TestBudgetBurstOfWritesStaysUnderSecondaryLimits(t *testing.T) {
	const n = 500
	tests := []struct {
		name    string
		unpaced bool
	}{
		{"paced", false},
		{"unpaced (negative control)", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newBudgetWorld(t, true, BudgetOptions{Unpaced: tt.unpaced})
			start := w.f.Now()
			errs := w.burst(context.Background(), n)
			st := w.f.LimitStats()
			t.Logf("%d writes, %d refusals %v, peak %d writes a minute, %v of GitHub's clock",
				st.Writes, refusals(st), st.Refusals, st.PeakWritesPerMinute, w.f.Now().Sub(start))
			if tt.unpaced {
				if refusals(st) == 0 || len(errs) == 0 {
					t.Fatalf("unpaced burst: %d refusals, %d errors; want the fake to refuse", refusals(st), len(errs))
				}
				return
			}
			if len(errs) > 0 || refusals(st) > 0 {
				t.Fatalf("paced burst: %d errors (first %v), refusals %v; want none", len(errs), errs[0], st.Refusals)
			}
			if got := len(w.comments()); got != n {
				t.Errorf("comments written = %d, want %d", got, n)
			}
			if st.PeakWritesPerMinute > ghfake.GitHubSecondaryLimits().ContentPerMinute {
				t.Errorf("peak writes a minute = %d, want ≤ %d", st.PeakWritesPerMinute, ghfake.GitHubSecondaryLimits().ContentPerMinute)
			}
		})
	}
}

// TestBudgetOwnWorkOvertakesQueuedFanout: with nine fan-out comments
// queued behind write pacing, an owner's own comment is the next write.
// The negative control sends the late comment as fan-out too: it waits
// its turn, last.
func TestBudgetOwnWorkOvertakesQueuedFanout(t *testing.T) {
	tests := []struct {
		name string
		late Priority
		want int // the late comment's place among the writes
	}{
		{"own", PriorityOwn, 1},
		{"fan-out (negative control)", PriorityFanout, 10},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newBudgetWorld(t, false, BudgetOptions{})
			got := w.lateComment(t, tt.late)
			if got != tt.want {
				t.Errorf("the late comment was write %d, want %d:\n%s", got, tt.want, w.f.WriteLog())
			}
		})
	}
}

// lateComment queues ten fan-out comments on the first issue, then one of
// priority late on the second, runs the clock until all are written, and
// returns the late one's place among the comments (-1: missing).
func (w *budgetWorld) lateComment(t *testing.T, late Priority) int {
	t.Helper()
	fanout := WithPriority(context.Background(), PriorityFanout)
	var wg sync.WaitGroup
	for i := range 10 {
		wg.Go(func() {
			if _, err := w.in.Comment(fanout, "acme", "widgets", w.issues[0], fmt.Sprintf("fan-out %d", i)); err != nil {
				t.Error(err)
			}
		})
	}
	waitUntil(t, "nine fan-out writes queued, one written", func() bool {
		return w.in.budget.state().Waiting[PriorityFanout] == 9 && len(w.comments()) == 1
	})
	wg.Go(func() {
		if _, err := w.in.Comment(WithPriority(context.Background(), late), "acme", "widgets", w.issues[1], "late"); err != nil {
			t.Error(err)
		}
	})
	waitUntil(t, "the late write queued", func() bool {
		s := w.in.budget.state()
		return s.Waiting[PriorityOwn]+s.Waiting[PriorityFanout] == 10
	})
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	for running := true; running; {
		select {
		case <-done:
			running = false
		case <-time.After(time.Millisecond):
			w.clock.Advance(time.Second)
		}
	}
	latePath := fmt.Sprintf("/repos/acme/widgets/issues/%d/comments", w.issues[1])
	for i, r := range w.comments() {
		if r.Path == latePath {
			return i
		}
	}
	return -1
}

// TestBudgetHonoursRetryAfter: after GitHub refuses a call for a secondary
// limit, the next call leaves no sooner than Retry-After (a minute when
// GitHub gives none) on GitHub's clock. The negative control, unpaced,
// sends it at once.
func TestBudgetHonoursRetryAfter(t *testing.T) {
	tests := []struct {
		name    string
		fault   ghfake.Fault
		unpaced bool
		want    time.Duration
	}{
		{"429 with Retry-After", ghfake.Fault{Kind: ghfake.FaultSecondary, Status: 429, RetryAfter: 30, Times: 1}, false, 30 * time.Second},
		{"403 with Retry-After", ghfake.Fault{Kind: ghfake.FaultSecondary, RetryAfter: 45, Times: 1}, false, 45 * time.Second},
		{"429 without Retry-After", ghfake.Fault{Kind: ghfake.FaultSecondary, Status: 429, RetryAfter: -1, Times: 1}, false, time.Minute},
		{"unpaced (negative control)", ghfake.Fault{Kind: ghfake.FaultSecondary, Status: 429, RetryAfter: 30, Times: 1}, true, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newBudgetWorld(t, true, BudgetOptions{Unpaced: tt.unpaced})
			w.f.InjectFault("GET /repos/{owner}/{repo}/issues/{issue_number}", tt.fault)
			var rl *RateLimitError
			if err := w.get(context.Background()); !errors.As(err, &rl) {
				t.Fatalf("first call: %v, want a *RateLimitError", err)
			}
			if err := w.get(context.Background()); err != nil {
				t.Fatalf("second call: %v", err)
			}
			reqs := w.f.Requests()
			last := reqs[len(reqs)-1]
			var refused ghfake.Request
			for _, r := range reqs {
				if r.Fault != "" {
					refused = r
				}
			}
			gap := last.Time.Sub(refused.Time)
			if tt.unpaced {
				if gap != 0 {
					t.Errorf("unpaced: the next call came %v later, want at once", gap)
				}
				return
			}
			if gap < tt.want {
				t.Errorf("the next call came %v after the refusal, want ≥ %v", gap, tt.want)
			}
		})
	}
}

// TestBudgetWaitEndsWithTheContext: a call held by a pause returns its
// context's error at its deadline, unsent, and leaves nothing queued.
func TestBudgetWaitEndsWithTheContext(t *testing.T) {
	w := newBudgetWorld(t, false, BudgetOptions{})
	w.f.InjectFault("GET /repos/{owner}/{repo}/issues/{issue_number}", ghfake.Fault{Kind: ghfake.FaultSecondary, RetryAfter: 600, Times: 1})
	_ = w.get(context.Background())
	sent := len(w.f.Requests())
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if err := w.get(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want the context's deadline", err)
	}
	if got := len(w.f.Requests()); got != sent {
		t.Errorf("%d requests sent while paused, want none", got-sent)
	}
	for p, n := range w.in.budget.state().Waiting {
		if n != 0 {
			t.Errorf("%d calls of priority %s still queued", n, p)
		}
	}
}

// get reads the first issue over the installation's HTTP client.
func (w *budgetWorld) get(ctx context.Context) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, fmt.Sprintf("%srepos/acme/widgets/issues/%d", w.f.URL(), w.issues[0]), nil)
	if err != nil {
		return err
	}
	resp, err := w.in.hc.Do(req)
	if err != nil {
		return err
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("status %d", resp.StatusCode)
	}
	return nil
}

// waitUntil polls cond (no timing is asserted; the deadline only ends a
// hung test).
func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("gave up waiting: %s", what)
		}
		time.Sleep(time.Millisecond)
	}
}
