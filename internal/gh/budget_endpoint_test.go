package gh

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/aepgate/aepgate/internal/testkit/ghfake"
)

func TestEndpointOf(t *testing.T) {
	tests := []struct {
		method, path, want string
	}{
		{"POST", "/repos/acme/app/check-runs", "POST /repos/{}/check-runs"},
		{"POST", "/repos/other/lib/check-runs", "POST /repos/{}/check-runs"},
		{"PATCH", "/repos/acme/app/check-runs/55", "PATCH /repos/{}/check-runs/{}"},
		{"GET", "/repos/acme/app/pulls/12/files", "GET /repos/{}/pulls/{}/files"},
		{"GET", "/repos/acme/app/collaborators/alice/permission", "GET /repos/{}/collaborators/{}/permission"},
		{"GET", "/repos/acme/app/contents/.github/aepgate.yml", "GET /repos/{}/contents/{}"},
		{"GET", "/repos/acme/app/commits/0123abc/check-runs", "GET /repos/{}/commits/{}/check-runs"},
		{"POST", "/app/installations/9/access_tokens", "POST /app/installations/{}/access_tokens"},
		{"GET", "/api/v3/repos/acme/app/issues/3", "GET /{}/repos/{}/issues/{}"},
		// A route word the list lacks is a parameter: its calls share the
		// window of a wider route, never one of their own.
		{"GET", "/repos/acme/app/traffic/views", "GET /repos/{}"},
		{"GET", "/repos/app/issues/issues/4", "GET /repos/{}/issues/{}"},
	}
	for _, tt := range tests {
		req := &http.Request{Method: tt.method, URL: &url.URL{Path: tt.path}}
		if got := endpointOf(req); got != tt.want {
			t.Errorf("endpointOf(%s %s) = %q, want %q", tt.method, tt.path, got, tt.want)
		}
	}
}

// TestBudgetPacesRESTPointsPerEndpoint: GitHub caps the REST points of
// each endpoint a minute (github-facts §3.4). With two comments spending
// an endpoint's ten points, a read of another endpoint leaves at once and
// a third comment waits a minute from the first on GitHub's clock, then
// lands with no refusal. The negative control, unpaced, sends the third
// comment at once and the fake refuses it.
func TestBudgetPacesRESTPointsPerEndpoint(t *testing.T) {
	tests := []struct {
		name    string
		unpaced bool
	}{
		{"paced", false},
		{"unpaced (negative control)", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newBudgetWorld(t, true, BudgetOptions{Limits: Limits{RESTPointsPerMinute: 10}, Headroom: -1, Unpaced: tt.unpaced})
			w.f.SetSecondaryLimits(ghfake.SecondaryLimits{RESTPointsPerMinute: 10})
			ctx := context.Background()
			for range 2 {
				if _, err := w.in.Comment(ctx, "acme", "widgets", w.issues[0], "x"); err != nil {
					t.Fatal(err)
				}
			}
			if err := w.get(ctx); err != nil {
				t.Fatalf("a read of another endpoint: %v", err)
			}
			_, err := w.in.Comment(ctx, "acme", "widgets", w.issues[0], "third")
			if tt.unpaced {
				var rl *RateLimitError
				if !errors.As(err, &rl) {
					t.Fatalf("unpaced third comment: %v, want the fake's refusal", err)
				}
				return
			}
			if err != nil {
				t.Fatalf("the third comment: %v", err)
			}
			if st := w.f.LimitStats(); refusals(st) > 0 {
				t.Errorf("refusals %v, want none", st.Refusals)
			}
			cs := w.comments()
			if len(cs) != 3 {
				t.Fatalf("%d comments written, want 3", len(cs))
			}
			var read ghfake.Request
			for _, r := range w.f.Requests() {
				if r.Method == http.MethodGet {
					read = r
				}
			}
			if gap := read.Time.Sub(cs[1].Time); gap >= time.Minute {
				t.Errorf("the read of another endpoint waited %v after the second comment, want less than the minute", gap)
			}
			if gap := cs[2].Time.Sub(cs[0].Time); gap < time.Minute {
				t.Errorf("the third comment came %v after the first, want ≥ a minute", gap)
			}
		})
	}
}
