package gh

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"

	"github.com/google/go-github/v62/github"
)

// ErrCheckForbidden is wrapped by check-run errors when GitHub answered 403
// without rate limiting: the token may not write checks (a fork's pull
// request, or a workflow token with checks: read).
var ErrCheckForbidden = errors.New("token may not write check runs")

// classify wraps err from a check-run request: rate limits (go-github's
// typed errors, a 429, or a 403 with Retry-After or no requests remaining)
// wrap a *RateLimitError, any other 403 wraps ErrCheckForbidden. The caller
// decides when to try again; the publisher never waits out a limit itself
// (persisting while limited can get an integration banned).
func classify(op string, err error) error {
	var typed *RateLimitError
	if errors.As(err, &typed) {
		return fmt.Errorf("%s: %w", op, err)
	}
	if rl := asRateLimit(err); rl != nil {
		return fmt.Errorf("%s: %w: %w", op, rl, err)
	}
	var er *github.ErrorResponse
	if errors.As(err, &er) && er.Response != nil && er.Response.StatusCode == http.StatusForbidden {
		return fmt.Errorf("%s: %w: %w", op, ErrCheckForbidden, err)
	}
	return fmt.Errorf("%s: %w", op, err)
}

// asRateLimit returns the rate limit go-github's err reports, or nil: its
// typed errors, or a raw rate-limit answer (a client without our transport).
func asRateLimit(err error) *RateLimitError {
	var gl *github.RateLimitError
	if errors.As(err, &gl) {
		e := fromResponse(gl.Response)
		e.Reset = gl.Rate.Reset.Time
		return e
	}
	var al *github.AbuseRateLimitError
	if errors.As(err, &al) {
		e := fromResponse(al.Response)
		e.RetryAfter = al.GetRetryAfter()
		return e
	}
	var er *github.ErrorResponse
	if errors.As(err, &er) && er.Response != nil {
		req := er.Response.Request
		if req == nil {
			req = &http.Request{URL: &url.URL{}}
		}
		return rateLimited(req, er.Response)
	}
	return nil
}

// fromResponse names the refused request of a go-github rate-limit error.
func fromResponse(resp *http.Response) *RateLimitError {
	e := &RateLimitError{}
	if resp != nil {
		e.Status = resp.StatusCode
		if resp.Request != nil && resp.Request.URL != nil {
			e.Method, e.URL = resp.Request.Method, resp.Request.URL.Path
		}
	}
	return e
}
