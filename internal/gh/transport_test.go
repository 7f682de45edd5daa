package gh

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

func TestETagTransport(t *testing.T) {
	var full, notModified atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("If-None-Match") == `"v1"` {
			notModified.Add(1)
			w.WriteHeader(http.StatusNotModified)
			return
		}
		full.Add(1)
		w.Header().Set("ETag", `"v1"`)
		io.WriteString(w, "payload")
	}))
	defer srv.Close()
	hc := &http.Client{Transport: &etagTransport{base: http.DefaultTransport}}
	for i := range 3 {
		resp, err := hc.Get(srv.URL + "/repos/o/r")
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || string(b) != "payload" {
			t.Fatalf("read %d: %d %q", i, resp.StatusCode, b)
		}
	}
	if full.Load() != 1 || notModified.Load() != 2 {
		t.Errorf("full=%d notModified=%d, want 1 and 2", full.Load(), notModified.Load())
	}
}

func TestRateLimitTransport(t *testing.T) {
	tests := []struct {
		name    string
		status  int
		headers map[string]string
		wantErr bool
		wait    time.Duration
	}{
		{"secondary", 403, map[string]string{"Retry-After": "7"}, true, 7 * time.Second},
		{"too many", 429, map[string]string{"Retry-After": "3"}, true, 3 * time.Second},
		{"primary", 403, map[string]string{"X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "1700000100"}, true, 101 * time.Second},
		{"plain forbidden", 403, nil, false, 0},
		{"server error", 502, nil, false, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				for k, v := range tt.headers {
					w.Header().Set(k, v)
				}
				w.WriteHeader(tt.status)
			}))
			defer srv.Close()
			var seen string
			hc := &http.Client{Transport: &rateLimitTransport{base: http.DefaultTransport, observe: func(m, route string, status, _ int, _ time.Duration) {
				seen = route
			}}}
			resp, err := hc.Get(srv.URL + "/repos/acme/app/pulls/12")
			if seen != "/repos/{owner}/{repo}/pulls/{n}" {
				t.Errorf("observed route %q", seen)
			}
			if !tt.wantErr {
				if err != nil {
					t.Fatal(err)
				}
				resp.Body.Close()
				return
			}
			var rl *RateLimitError
			if !errors.As(err, &rl) {
				t.Fatalf("err = %v, want *RateLimitError", err)
			}
			wait, ok := RetryWait(err, time.Unix(1_700_000_000, 0))
			if !ok || wait != tt.wait {
				t.Errorf("wait = %v %v, want %v", wait, ok, tt.wait)
			}
		})
	}
}

func TestBudgetWritesAreSerialAndApart(t *testing.T) {
	var times []time.Time
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		times = append(times, time.Now())
	}))
	defer srv.Close()
	hc := &http.Client{Transport: newBudget(http.DefaultTransport, BudgetOptions{}, 30*time.Millisecond)}
	for range 3 {
		req, _ := http.NewRequestWithContext(context.Background(), http.MethodPost, srv.URL+"/repos/o/r/check-runs", nil)
		resp, err := hc.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	for i := 1; i < len(times); i++ {
		if gap := times[i].Sub(times[i-1]); gap < 30*time.Millisecond {
			t.Errorf("writes %d and %d only %v apart", i-1, i, gap)
		}
	}
}

func TestRoute(t *testing.T) {
	tests := map[string]string{
		"/api/v3/repos/a/b/commits/0123456789abcdef0123456789abcdef01234567/check-runs": "/repos/{owner}/{repo}/commits/{ref}/check-runs",
		"/repos/a/b/check-runs/55":           "/repos/{owner}/{repo}/check-runs/{n}",
		"/app/installations/9/access_tokens": "/app/installations/{n}/access_tokens",
		"/repos/a/b/contents/.github/x.yml":  "/repos/{owner}/{repo}/contents/{path}",
		"/graphql":                           "/graphql",
	}
	for in, want := range tests {
		if got := Route(in); got != want {
			t.Errorf("Route(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestGraphQLURL(t *testing.T) {
	tests := map[string]string{
		"":                                "https://api.github.com/graphql",
		"https://ghe.example.com/":        "https://ghe.example.com/api/graphql",
		"https://ghe.example.com/api/v3/": "https://ghe.example.com/api/graphql",
		"http://127.0.0.1:8080/test/":     "http://127.0.0.1:8080/test/graphql",
	}
	for base, want := range tests {
		c, err := NewClient(base, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := GraphQLURL(c.BaseURL); got != want {
			t.Errorf("GraphQLURL(%q) = %q, want %q", base, got, want)
		}
	}
}

// TestETagCacheIsPerInstallation: two installations reading the same URL
// never share a cached answer (the cache is keyed on installation + URL,
// since GitHub's ETags depend on the Authorization header): a second
// installation's first read is unconditional, so it can never be answered with the first one's body.
func TestETagCacheIsPerInstallation(t *testing.T) {
	key := testKey(t)
	var conditional atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/access_tokens") {
			json.NewEncoder(w).Encode(map[string]any{"token": "tok-" + r.URL.Path, "expires_at": time.Now().Add(time.Hour).Format(time.RFC3339)})
			return
		}
		if r.Header.Get("If-None-Match") != "" {
			conditional.Add(1)
			w.WriteHeader(http.StatusNotModified)
			return
		}
		w.Header().Set("ETag", `"same"`)
		io.WriteString(w, `{"private":"`+r.Header.Get("Authorization")+`"}`)
	}))
	defer srv.Close()
	cs := NewClients(NewAppAuth(1, key, srv.URL+"/", nil), srv.URL+"/")
	read := func(id int64) {
		t.Helper()
		in, err := cs.Installation(id)
		if err != nil {
			t.Fatal(err)
		}
		resp, err := in.hc.Get(srv.URL + "/repos/o/r")
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	read(1)
	read(2)
	if n := conditional.Load(); n != 0 {
		t.Fatalf("installation 2's first read was conditional on installation 1's ETag (%d conditional reads)", n)
	}
	read(1)
	if n := conditional.Load(); n != 1 {
		t.Fatalf("installation 1's repeated read was not conditional (%d conditional reads)", n)
	}
}

// TestUnauthorizedForgetsToken: a 401 drops the cached installation token,
// so the next request mints a new one instead of failing for an hour.
func TestUnauthorizedForgetsToken(t *testing.T) {
	key := testKey(t)
	var minted atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/access_tokens") {
			n := minted.Add(1)
			json.NewEncoder(w).Encode(map[string]any{"token": fmt.Sprintf("tok-%d", n), "expires_at": time.Now().Add(time.Hour).Format(time.RFC3339)})
			return
		}
		if r.Header.Get("Authorization") == "Bearer tok-1" {
			w.WriteHeader(http.StatusUnauthorized) // revoked early
			return
		}
		io.WriteString(w, "{}")
	}))
	defer srv.Close()
	in, err := NewClients(NewAppAuth(1, key, srv.URL+"/", nil), srv.URL+"/").Installation(5)
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []int{http.StatusUnauthorized, http.StatusOK} {
		resp, err := in.hc.Get(srv.URL + "/repos/o/r")
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != want {
			t.Fatalf("request %d: status %d, want %d", i, resp.StatusCode, want)
		}
	}
	if n := minted.Load(); n != 2 {
		t.Errorf("%d tokens minted, want 2 (the 401 must drop the first)", n)
	}
}
