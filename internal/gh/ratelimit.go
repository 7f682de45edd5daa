package gh

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"time"

	"github.com/google/go-github/v62/github"
)

// RateLimitError says GitHub refused a request for rate limiting
// (GitHub docs: Rate limits for the REST API). The caller waits Wait(now)
// before trying again; nothing here retries by itself.
type RateLimitError struct {
	// Method and URL name the refused request.
	Method, URL string
	// Status is GitHub's HTTP status (403 or 429).
	Status int
	// RetryAfter is GitHub's Retry-After (secondary limits), zero when absent.
	RetryAfter time.Duration
	// Reset is when the primary limit resets, zero when unknown.
	Reset time.Time
}

// Error says which request was limited and for how long.
func (e *RateLimitError) Error() string {
	switch {
	case e.RetryAfter > 0:
		return fmt.Sprintf("github rate limit on %s %s: retry after %s", e.Method, e.URL, e.RetryAfter)
	case !e.Reset.IsZero():
		return fmt.Sprintf("github rate limit on %s %s: resets at %s", e.Method, e.URL, e.Reset.UTC().Format(time.RFC3339))
	default:
		return fmt.Sprintf("github rate limit on %s %s", e.Method, e.URL)
	}
}

// Wait is how long to wait from now before trying again, as GitHub advises:
// Retry-After when given, else until the reset, else one minute.
func (e *RateLimitError) Wait(now time.Time) time.Duration {
	switch {
	case e.RetryAfter > 0:
		return e.RetryAfter
	case e.Reset.After(now):
		return e.Reset.Sub(now) + time.Second
	default:
		return time.Minute
	}
}

// RetryWait reports whether err is a rate limit of any kind (ours,
// go-github's typed errors, possibly wrapped) and how long to wait.
func RetryWait(err error, now time.Time) (time.Duration, bool) {
	var rl *RateLimitError
	if errors.As(err, &rl) {
		return rl.Wait(now), true
	}
	var gl *github.RateLimitError
	if errors.As(err, &gl) {
		return (&RateLimitError{Reset: gl.Rate.Reset.Time}).Wait(now), true
	}
	var al *github.AbuseRateLimitError
	if errors.As(err, &al) {
		return (&RateLimitError{RetryAfter: al.GetRetryAfter()}).Wait(now), true
	}
	return 0, false
}

// rateLimited turns a rate-limit answer into a *RateLimitError: a 429, or a
// 403 carrying Retry-After or x-ratelimit-remaining: 0.
func rateLimited(req *http.Request, resp *http.Response) *RateLimitError {
	h := resp.Header
	limited := resp.StatusCode == http.StatusTooManyRequests ||
		(resp.StatusCode == http.StatusForbidden && (h.Get("Retry-After") != "" || h.Get("X-RateLimit-Remaining") == "0"))
	if !limited {
		return nil
	}
	return limitError(req, resp)
}

// limitError is the *RateLimitError of an answer known to be a rate limit,
// with GitHub's Retry-After and, when the primary limit is spent, its reset.
func limitError(req *http.Request, resp *http.Response) *RateLimitError {
	h := resp.Header
	e := &RateLimitError{Method: req.Method, URL: req.URL.Path, Status: resp.StatusCode}
	if s, err := strconv.Atoi(h.Get("Retry-After")); err == nil && s >= 0 {
		e.RetryAfter = time.Duration(s) * time.Second
	}
	if s, err := strconv.ParseInt(h.Get("X-RateLimit-Reset"), 10, 64); err == nil && h.Get("X-RateLimit-Remaining") == "0" {
		e.Reset = time.Unix(s, 0)
	}
	return e
}

// rateLimitTransport reports every call to an observer and turns
// rate-limit answers into *RateLimitError, for REST and GraphQL alike.
type rateLimitTransport struct {
	base    http.RoundTripper
	observe Observer
}

// Observer is told about every GitHub call: method, route (a path
// template such as /repos/{owner}/{repo}/pulls/{n}), the status (0 when the
// request failed) and the x-ratelimit-remaining it reported (-1 when none).
type Observer func(method, route string, status, remaining int, elapsed time.Duration)

func (t *rateLimitTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	start := time.Now()
	resp, err := t.base.RoundTrip(req)
	status, remaining := 0, -1
	if err == nil {
		status = resp.StatusCode
		if n, perr := strconv.Atoi(resp.Header.Get("X-RateLimit-Remaining")); perr == nil {
			remaining = n
		}
	}
	if t.observe != nil {
		t.observe(req.Method, Route(req.URL.Path), status, remaining, time.Since(start))
	}
	if err != nil {
		return nil, err
	}
	if rl := rateLimited(req, resp); rl != nil {
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<16))
		resp.Body.Close()
		return nil, rl
	}
	return resp, nil
}
