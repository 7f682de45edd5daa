package gh

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"time"
)

// Limits are GitHub's secondary rate limits for one installation
// (github-facts §3.4; GitHub docs: Rate limits for the REST API). They may
// change without notice; the primary limit is learned from the answers'
// x-ratelimit-* headers instead.
type Limits struct {
	// Concurrent is the most requests in flight at once (REST and GraphQL).
	Concurrent int
	// RESTPointsPerMinute caps the REST points of each endpoint (method
	// and route) in any minute: a GET, HEAD or OPTIONS costs 1, any other
	// method 5.
	RESTPointsPerMinute int
	// GraphQLPointsPerMinute caps GraphQL points in any minute: a query
	// costs 1, a mutation 5.
	GraphQLPointsPerMinute int
	// ContentPerMinute and ContentPerHour cap content-creating requests
	// (comments, issues, pull requests, reviews, review requests, check
	// runs, releases).
	ContentPerMinute, ContentPerHour int
}

// GitHubLimits are GitHub's documented secondary limits.
func GitHubLimits() Limits {
	return Limits{Concurrent: 100, RESTPointsPerMinute: 900, GraphQLPointsPerMinute: 2000,
		ContentPerMinute: 80, ContentPerHour: 500}
}

// DefaultHeadroom is the share of each limit the budget leaves unused.
const DefaultHeadroom = 0.2

// DefaultConcurrency is the most calls one installation's budget lets run
// at once.
const DefaultConcurrency = 10

// Clock is the time a budget paces by.
type Clock interface {
	Now() time.Time
	// AfterFunc calls f in its own goroutine once d has passed; the
	// returned func cancels it.
	AfterFunc(d time.Duration, f func()) (stop func() bool)
}

// wallClock is the real clock.
type wallClock struct{}

func (wallClock) Now() time.Time { return time.Now() }

func (wallClock) AfterFunc(d time.Duration, f func()) func() bool { return time.AfterFunc(d, f).Stop }

// BudgetOptions tune the budgets of Clients; the zero value is GitHub's
// limits with DefaultHeadroom and DefaultConcurrency on the wall clock.
type BudgetOptions struct {
	// Limits are the secondary limits assumed (zero: GitHubLimits).
	Limits Limits
	// Headroom is the share of each limit left unused (0: DefaultHeadroom;
	// negative: none). The primary limit keeps it back from fan-out and
	// background calls, and a hundredth from the others.
	Headroom float64
	// Concurrency caps the calls in flight (0: DefaultConcurrency), never
	// above Limits.Concurrent less the headroom.
	Concurrency int
	// Clock paces the budget (nil: the wall clock).
	Clock Clock
	// Unpaced lets every call through at once, in no order, counting only:
	// for a GitHub Enterprise Server without rate limits, and the negative
	// control of the pacing.
	Unpaced bool
	// Observer, when set, is told of waits and refusals.
	Observer BudgetObserver
}

// BudgetObserver is told what the budgets do.
type BudgetObserver interface {
	// BudgetWaited: a call of priority p left the queue after waiting d.
	BudgetWaited(p Priority, d time.Duration)
	// BudgetRefused: GitHub refused a call for a rate limit of kind
	// ("primary" or "secondary").
	BudgetRefused(kind string)
}

// callCost is what one request spends of the budget.
type callCost struct {
	graphql bool
	write   bool // a REST write or a GraphQL mutation
	content bool // a content-creating REST write
	points  int
	// endpoint is a REST call's endpoint (endpointOf), whose points per
	// minute GitHub caps.
	endpoint string
}

// costOf classifies req.
func costOf(req *http.Request) callCost {
	if strings.HasSuffix(req.URL.Path, "/graphql") {
		if isMutation(req) {
			return callCost{graphql: true, write: true, points: 5}
		}
		return callCost{graphql: true, points: 1}
	}
	switch req.Method {
	case http.MethodGet, http.MethodHead, http.MethodOptions:
		return callCost{points: 1, endpoint: endpointOf(req)}
	}
	return callCost{write: true, content: req.Method == http.MethodPost && contentPath(req.URL.Path), points: 5, endpoint: endpointOf(req)}
}

// contentSegments end the paths whose POST creates content.
var contentSegments = map[string]bool{"issues": true, "comments": true, "pulls": true, "reviews": true,
	"requested_reviewers": true, "check-runs": true, "releases": true}

func contentPath(path string) bool {
	i := strings.LastIndexByte(strings.TrimSuffix(path, "/"), '/')
	return contentSegments[strings.TrimSuffix(path, "/")[i+1:]]
}

// isMutation reports whether a GraphQL request's operation is a mutation,
// reading a copy of its body (a body that cannot be copied counts as one).
func isMutation(req *http.Request) bool {
	if req.Body == nil || req.Body == http.NoBody {
		return false
	}
	if req.GetBody == nil {
		return true
	}
	body, err := req.GetBody()
	if err != nil {
		return true
	}
	defer body.Close()
	var q struct {
		Query string `json:"query"`
	}
	raw, err := io.ReadAll(io.LimitReader(body, 1<<20))
	if err != nil || json.Unmarshal(raw, &q) != nil {
		return !bytes.Contains(raw, []byte(`"query"`))
	}
	return strings.HasPrefix(strings.TrimSpace(q.Query), "mutation")
}

// sleepCtx waits d on the wall clock, or until ctx is done.
func sleepCtx(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
