package gh

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/google/go-github/v62/github"
)

// ErrCheckForbidden is wrapped by check-run errors when GitHub answered 403
// without rate limiting: the token may not write checks (a fork's pull
// request, or a workflow token with checks: read).
var ErrCheckForbidden = errors.New("token may not write check runs")

// CheckRateLimitError says GitHub refused a check-run request for rate
// limiting. The caller decides when to try again; the publisher never waits
// out a limit itself (persisting while limited can get an integration
// banned).
type CheckRateLimitError struct {
	// Op is what was being done, e.g. `create check run "aep/lint"`.
	Op string
	// Reset is when the primary limit resets (zero for secondary limits).
	Reset time.Time
	// RetryAfter is GitHub's Retry-After for secondary limits (zero when
	// not given).
	RetryAfter time.Duration
	// Err is go-github's error.
	Err error
}

func (e *CheckRateLimitError) Error() string {
	switch {
	case e.RetryAfter > 0:
		return fmt.Sprintf("%s: rate limited, retry after %s: %v", e.Op, e.RetryAfter, e.Err)
	case !e.Reset.IsZero():
		return fmt.Sprintf("%s: rate limited until %s: %v", e.Op, e.Reset.UTC().Format(time.RFC3339), e.Err)
	default:
		return fmt.Sprintf("%s: rate limited: %v", e.Op, e.Err)
	}
}

func (e *CheckRateLimitError) Unwrap() error { return e.Err }

// Wait is how long to wait from now before trying again, following GitHub's
// advice: Retry-After when given, else until the reset, else one minute.
func (e *CheckRateLimitError) Wait(now time.Time) time.Duration {
	switch {
	case e.RetryAfter > 0:
		return e.RetryAfter
	case e.Reset.After(now):
		return e.Reset.Sub(now)
	default:
		return time.Minute
	}
}

// classify wraps err from a check-run request: rate limits (go-github's
// typed errors, a 429, or a 403 with Retry-After or no requests remaining)
// become *CheckRateLimitError, any other 403 wraps ErrCheckForbidden.
func classify(op string, err error) error {
	var rl *github.RateLimitError
	if errors.As(err, &rl) {
		return &CheckRateLimitError{Op: op, Reset: rl.Rate.Reset.Time, Err: err}
	}
	var abuse *github.AbuseRateLimitError
	if errors.As(err, &abuse) {
		e := &CheckRateLimitError{Op: op, Err: err}
		if abuse.RetryAfter != nil {
			e.RetryAfter = *abuse.RetryAfter
		}
		return e
	}
	var er *github.ErrorResponse
	if errors.As(err, &er) && er.Response != nil {
		h, code := er.Response.Header, er.Response.StatusCode
		limited := code == http.StatusTooManyRequests ||
			(code == http.StatusForbidden && (h.Get("Retry-After") != "" || h.Get("X-RateLimit-Remaining") == "0"))
		switch {
		case limited:
			e := &CheckRateLimitError{Op: op, Err: err}
			if s, perr := strconv.Atoi(h.Get("Retry-After")); perr == nil && s > 0 {
				e.RetryAfter = time.Duration(s) * time.Second
			}
			return e
		case code == http.StatusForbidden:
			return fmt.Errorf("%s: %w: %w", op, ErrCheckForbidden, err)
		}
	}
	return fmt.Errorf("%s: %w", op, err)
}
