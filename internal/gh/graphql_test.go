package gh

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

// TestGraphQLRateLimitsAreTyped: GraphQL's primary limit answers 200 with a
// RATE_LIMITED error, and a secondary limit may be a bare 403 saying so;
// both must become *RateLimitError so the job waits instead of retrying at
// once (GitHub docs: Rate limits and query limits for the GraphQL API).
// Other errors must not.
func TestGraphQLRateLimitsAreTyped(t *testing.T) {
	tests := []struct {
		name    string
		status  int
		headers map[string]string
		body    string
		limited bool
		wait    time.Duration
	}{
		{"primary", 200, map[string]string{"X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "1700000100"},
			`{"data":null,"errors":[{"type":"RATE_LIMITED","message":"API rate limit exceeded for installation ID 7."}]}`, true, 101 * time.Second},
		{"primary in extensions", 200, nil,
			`{"errors":[{"extensions":{"type":"RATE_LIMITED"},"message":"API rate limit exceeded"}]}`, true, time.Minute},
		{"secondary without headers", 403, nil,
			`{"message":"You have exceeded a secondary rate limit. Please wait a few minutes before you try again."}`, true, time.Minute},
		{"plain forbidden", 403, nil, `{"message":"Resource not accessible by integration"}`, false, 0},
		{"query error", 200, nil, `{"errors":[{"type":"INVALID","message":"Field 'x' doesn't exist"}]}`, false, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				for k, v := range tt.headers {
					w.Header().Set(k, v)
				}
				w.WriteHeader(tt.status)
				io.WriteString(w, tt.body)
			}))
			defer srv.Close()
			var out map[string]any
			err := graphQL(context.Background(), srv.Client(), srv.URL+"/graphql", "query { viewer { login } }", nil, &out)
			if err == nil {
				t.Fatal("no error")
			}
			wait, ok := RetryWait(err, time.Unix(1_700_000_000, 0))
			if ok != tt.limited || wait != tt.wait {
				t.Errorf("RetryWait(%v) = %v, %v; want %v, %v", err, wait, ok, tt.wait, tt.limited)
			}
			var rl *RateLimitError
			if tt.limited != errors.As(err, &rl) {
				t.Errorf("err %T %v: rate limit typed = %v, want %v", err, err, !tt.limited, tt.limited)
			}
		})
	}
}
