package ghfake_test

import (
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aepgate/aepgate/internal/testkit/ghfake"
)

// apiCall is one request to make.
type apiCall struct{ method, path, body string }

// rawCall makes one raw request with tok (raw, so no client waits out a
// Retry-After on its own) and returns the answer's status and headers.
func rawCall(t *testing.T, f *ghfake.Fake, tok string, c apiCall) (int, http.Header) {
	t.Helper()
	req, err := http.NewRequest(c.method, f.URL()+strings.TrimPrefix(c.path, "/"), strings.NewReader(c.body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+tok)
	resp, err := f.HTTPClient().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode, resp.Header
}

// TestSecondaryLimits: each secondary limit refuses the request over it
// with Retry-After and the rate-limit headers, counts the refusal, and
// lets requests through again once its window has slid past.
func TestSecondaryLimits(t *testing.T) {
	comment := func(n int) apiCall {
		return apiCall{http.MethodPost, fmt.Sprintf("/repos/acme/widgets/issues/%d/comments", n), `{"body":"hi"}`}
	}
	read := func(n int) apiCall {
		return apiCall{http.MethodGet, fmt.Sprintf("/repos/acme/widgets/issues/%d", n), ""}
	}
	tests := []struct {
		name     string
		limits   ghfake.SecondaryLimits
		calls    []func(int) apiCall
		wait     time.Duration // after the refusal, until the next call passes
		kind     string
		wantCode int
	}{
		{"REST points per endpoint: two writes spend ten, a read of another endpoint none of them", ghfake.SecondaryLimits{RESTPointsPerMinute: 10, Status: 429},
			[]func(int) apiCall{comment, read, comment, comment}, time.Minute, "points", 429},
		{"content per minute", ghfake.SecondaryLimits{ContentPerMinute: 2},
			[]func(int) apiCall{comment, read, comment, comment}, time.Minute, "content", 403},
		{"content per hour", ghfake.SecondaryLimits{ContentPerHour: 2},
			[]func(int) apiCall{comment, comment, comment}, time.Hour, "content", 403},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, repo, _, tok := installedToken(t)
			f.SetNow(time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC))
			n := repo.OpenIssue("alice", "x", "").Number()
			f.SetSecondaryLimits(tt.limits)
			last := len(tt.calls) - 1
			for i, c := range tt.calls[:last] {
				if code, _ := rawCall(t, f, tok, c(n)); code >= 400 {
					t.Fatalf("call %d under the limit: %d", i, code)
				}
			}
			code, h := rawCall(t, f, tok, tt.calls[last](n))
			if code != tt.wantCode || h.Get("Retry-After") == "" || h.Get("X-RateLimit-Remaining") == "" {
				t.Fatalf("over the limit: %d, Retry-After %q, x-ratelimit-remaining %q; want %d with both", code, h.Get("Retry-After"), h.Get("X-RateLimit-Remaining"), tt.wantCode)
			}
			if got := f.LimitStats().Refusals[tt.kind]; got != 1 {
				t.Errorf("refusals %v, want one of %s", f.LimitStats().Refusals, tt.kind)
			}
			f.Advance(tt.wait - time.Second)
			if code, _ := rawCall(t, f, tok, tt.calls[last](n)); code < 400 {
				t.Errorf("a second before the window slid past: %d, want a refusal", code)
			}
			f.Advance(time.Second)
			if code, _ := rawCall(t, f, tok, tt.calls[last](n)); code >= 400 {
				t.Errorf("once the window slid past: %d", code)
			}
		})
	}
}

// TestSecondaryLimitOnConcurrency: a caller's request beyond the
// concurrent cap is refused while the others are in flight.
func TestSecondaryLimitOnConcurrency(t *testing.T) {
	f, repo, _, tok := installedToken(t)
	n := repo.OpenIssue("alice", "x", "").Number()
	f.SetSecondaryLimits(ghfake.SecondaryLimits{Concurrent: 1})
	f.InjectFault("GET /repos/{owner}/{repo}/issues/{issue_number}", ghfake.Fault{Kind: ghfake.FaultLatency, Delay: 300 * time.Millisecond})
	var wg sync.WaitGroup
	codes := make([]int, 3)
	for i := range codes {
		wg.Go(func() {
			codes[i], _ = rawCall(t, f, tok, apiCall{http.MethodGet, fmt.Sprintf("/repos/acme/widgets/issues/%d", n), ""})
		})
	}
	wg.Wait()
	if f.LimitStats().Refusals["concurrent"] == 0 {
		t.Errorf("answers %v, refusals %v: want the requests beyond one in flight refused", codes, f.LimitStats().Refusals)
	}
}

// TestSecondaryLimitsOff: by default no secondary limit applies.
func TestSecondaryLimitsOff(t *testing.T) {
	f, repo, _, tok := installedToken(t)
	n := repo.OpenIssue("alice", "x", "").Number()
	for i := range 100 {
		if code, _ := rawCall(t, f, tok, apiCall{http.MethodPost, fmt.Sprintf("/repos/acme/widgets/issues/%d/comments", n), `{"body":"hi"}`}); code != http.StatusCreated {
			t.Fatalf("comment %d: %d", i, code)
		}
	}
	if st := f.LimitStats(); len(st.Refusals) != 0 || st.PeakWritesPerMinute < 100 {
		t.Errorf("stats %+v: want no refusals and 100 writes in a minute", st)
	}
}
