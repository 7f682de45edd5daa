package gh

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/aepgate/aepgate/checks"
)

const testSHA = "0123456789abcdef0123456789abcdef01234567"

func lintRun(problems int) checks.Run {
	r := checks.Run{
		Name: "aep/lint", HeadSHA: testSHA, ExternalID: "lint:" + testSHA,
		Conclusion: checks.ConclusionFailure, Title: fmt.Sprintf("%d problems", problems), Summary: "summary",
	}
	for i := range problems {
		r.Annotations = append(r.Annotations, checks.Annotation{
			Path: "docs/run/plan.md", StartLine: i + 1, Level: checks.LevelFailure, Message: fmt.Sprintf("problem %d", i),
		})
	}
	return r
}

func newTestPublisher(t *testing.T) (*checksFake, *CheckPublisher) {
	f, c := newChecksFake(t)
	p := NewCheckPublisher(c, 0)
	p.WritePause = 0
	return f, p
}

func TestPublishPagesAnnotations(t *testing.T) {
	tests := []struct {
		name      string
		problems  int
		wantReqs  []string
		wantCount int
	}{
		{"none", 0, []string{"GET", "POST"}, 0},
		{"fifty", 50, []string{"GET", "POST"}, 50},
		{"fifty-one", 51, []string{"GET", "POST", "PATCH"}, 51},
		{"hundred-twenty", 120, []string{"GET", "POST", "PATCH", "PATCH"}, 120},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, p := newTestPublisher(t)
			id, err := p.Publish(context.Background(), "o", "r", lintRun(tt.problems))
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, r := range f.requests {
				got = append(got, strings.Fields(r)[0])
			}
			if diff := cmp.Diff(tt.wantReqs, got); diff != "" {
				t.Errorf("requests (-want +got):\n%s", diff)
			}
			if n := len(f.runs[id-1].anns); n != tt.wantCount {
				t.Errorf("annotations = %d, want %d", n, tt.wantCount)
			}
		})
	}
}

func TestPublishTwiceUpdatesNeverDuplicates(t *testing.T) {
	f, p := newTestPublisher(t)
	ctx := context.Background()
	id1, err := p.Publish(ctx, "o", "r", lintRun(120))
	if err != nil {
		t.Fatal(err)
	}
	writes := f.writes()
	id2, err := p.Publish(ctx, "o", "r", lintRun(120))
	if err != nil {
		t.Fatal(err)
	}
	if id1 != id2 || len(f.runs) != 1 {
		t.Fatalf("second publish made run %d (runs: %d), want the same run %d", id2, len(f.runs), id1)
	}
	if got := f.writes(); got != writes {
		t.Errorf("an unchanged run was written again: %d writes, want %d", got, writes)
	}
	if n := len(f.runs[0].anns); n != 120 {
		t.Errorf("annotations = %d, want 120 (none duplicated)", n)
	}
}

func TestPublishUpdateCases(t *testing.T) {
	tests := []struct {
		name       string
		second     func(checks.Run) checks.Run
		wantRuns   int
		wantAnns   []int // per run
		wantWrites int   // by the second publish
	}{
		{"new conclusion keeps run", func(r checks.Run) checks.Run {
			r.Conclusion, r.Title = checks.ConclusionSuccess, "fixed"
			return r
		}, 1, []int{3}, 1},
		{"more annotations are appended", func(r checks.Run) checks.Run {
			r.Annotations = append(r.Annotations, checks.Annotation{Path: "x.md", StartLine: 9, Level: checks.LevelWarning, Message: "new"})
			return r
		}, 1, []int{4}, 1},
		{"stale annotations need a fresh run", func(r checks.Run) checks.Run {
			r.Annotations = r.Annotations[1:]
			return r
		}, 2, []int{3, 2}, 1},
		{"other external id is another run", func(r checks.Run) checks.Run {
			r.ExternalID = "other"
			return r
		}, 2, []int{3, 3}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, p := newTestPublisher(t)
			first := lintRun(3)
			if _, err := p.Publish(context.Background(), "o", "r", first); err != nil {
				t.Fatal(err)
			}
			before := f.writes()
			if _, err := p.Publish(context.Background(), "o", "r", tt.second(first)); err != nil {
				t.Fatal(err)
			}
			var anns []int
			for _, r := range f.runs {
				anns = append(anns, len(r.anns))
			}
			if len(f.runs) != tt.wantRuns || !cmp.Equal(anns, tt.wantAnns) {
				t.Errorf("runs = %d with annotations %v, want %d with %v", len(f.runs), anns, tt.wantRuns, tt.wantAnns)
			}
			if got := f.writes() - before; got != tt.wantWrites {
				t.Errorf("writes = %d, want %d", got, tt.wantWrites)
			}
		})
	}
}

func TestPublishErrors(t *testing.T) {
	reset := time.Now().Add(30 * time.Minute).Unix()
	tests := []struct {
		name      string
		status    int
		headers   map[string]string
		wantRate  bool
		wantWait  time.Duration
		wantForbd bool
	}{
		{"primary rate limit", http.StatusForbidden, map[string]string{"X-RateLimit-Remaining": "0", "X-RateLimit-Limit": "1000", "X-RateLimit-Reset": fmt.Sprint(reset)}, true, 0, false},
		{"secondary with retry-after", http.StatusForbidden, map[string]string{"Retry-After": "42"}, true, 42 * time.Second, false},
		{"429", http.StatusTooManyRequests, map[string]string{"Retry-After": "7"}, true, 7 * time.Second, false},
		{"read-only token", http.StatusForbidden, nil, false, 0, true},
		{"server error", http.StatusInternalServerError, nil, false, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, p := newTestPublisher(t)
			f.status, f.headers = tt.status, tt.headers
			_, err := p.Publish(context.Background(), "o", "r", lintRun(1))
			if err == nil {
				t.Fatal("Publish succeeded against a refusing server")
			}
			var rl *RateLimitError
			if got := errors.As(err, &rl); got != tt.wantRate {
				t.Fatalf("rate-limit error = %v, want %v (err: %v)", got, tt.wantRate, err)
			}
			if rl != nil && tt.wantWait > 0 && rl.Wait(time.Now()) != tt.wantWait {
				t.Errorf("Wait = %s, want %s", rl.Wait(time.Now()), tt.wantWait)
			}
			if rl != nil && tt.wantWait == 0 && rl.Reset.Unix() != reset {
				t.Errorf("Reset = %v, want %v", rl.Reset, time.Unix(reset, 0))
			}
			if wait, ok := RetryWait(err, time.Now()); ok != tt.wantRate || (ok && wait <= 0) {
				t.Errorf("RetryWait = %s, %v; want a positive wait: %v", wait, ok, tt.wantRate)
			}
			if got := errors.Is(err, ErrCheckForbidden); got != tt.wantForbd {
				t.Errorf("forbidden = %v, want %v (err: %v)", got, tt.wantForbd, err)
			}
			if len(f.requests) != 1 {
				t.Errorf("made %d requests, want 1 (no busy retry): %v", len(f.requests), f.requests)
			}
		})
	}
}

func TestPublishRefusesInvalidRunWithoutRequest(t *testing.T) {
	f, p := newTestPublisher(t)
	r := lintRun(1)
	r.HeadSHA = "main"
	if _, err := p.Publish(context.Background(), "o", "r", r); err == nil {
		t.Fatal("Publish accepted a run with a non-SHA head")
	}
	if len(f.requests) != 0 {
		t.Errorf("requests = %v, want none", f.requests)
	}
}

func TestPublishFitsOversizedSummary(t *testing.T) {
	f, p := newTestPublisher(t)
	r := lintRun(0)
	r.Summary = strings.Repeat("| row | with some text |\n", 200_000/26)
	if _, err := p.Publish(context.Background(), "o", "r", r); err != nil {
		t.Fatal(err)
	}
	got := f.runs[0].run.GetOutput().GetSummary()
	if len(got) > checks.MaxSummaryBytes || !strings.Contains(got, "aepgate cut this summary") {
		t.Errorf("summary of %d bytes, note present %v", len(got), strings.Contains(got, "cut"))
	}
}

func TestPublishAppIDNarrowsSearch(t *testing.T) {
	f, c := newChecksFake(t)
	p := NewCheckPublisher(c, 4242)
	p.WritePause = 0
	if _, err := p.Publish(context.Background(), "o", "r", lintRun(0)); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(f.queries[0], "app_id=4242") || !strings.Contains(f.queries[0], "filter=latest") {
		t.Errorf("search query %q lacks app_id=4242 or filter=latest", f.queries[0])
	}
}

func TestPublishPacesWritesAcrossCalls(t *testing.T) {
	f, c := newChecksFake(t)
	p := NewCheckPublisher(c, 0)
	p.WritePause = 30 * time.Millisecond
	start := time.Now()
	for _, name := range []string{"a", "b", "c"} {
		r := lintRun(51) // two writes each
		r.Name = name
		if _, err := p.Publish(context.Background(), "o", "r", r); err != nil {
			t.Fatal(err)
		}
	}
	// Six writes need at least five pauses between them.
	if got := time.Since(start); got < 5*p.WritePause {
		t.Errorf("six writes took %s, want at least %s", got, 5*p.WritePause)
	}
	if f.writes() != 6 {
		t.Errorf("writes = %d, want 6", f.writes())
	}
}

func TestPublishStopsOnCancelledContext(t *testing.T) {
	f, p := newTestPublisher(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := p.Publish(ctx, "o", "r", lintRun(1)); err == nil {
		t.Fatal("Publish wrote with a cancelled context")
	}
	if f.writes() != 0 {
		t.Errorf("writes = %d, want 0", f.writes())
	}
}

func TestPublishUntitledRunIsIdempotent(t *testing.T) {
	f, p := newTestPublisher(t)
	r := lintRun(0)
	r.Title = ""
	for range 2 {
		if _, err := p.Publish(context.Background(), "o", "r", r); err != nil {
			t.Fatal(err)
		}
	}
	if f.writes() != 1 {
		t.Errorf("writes = %d, want 1 (the second publish finds the run unchanged)", f.writes())
	}
}
