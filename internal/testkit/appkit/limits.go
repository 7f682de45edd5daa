package appkit

import (
	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/internal/testkit/ghfake"
)

// The tests' GitHub differs from GitHub (github-facts §3.4) in two limits
// only, so that a test may create a check run for each of hundreds of pull
// requests within seconds: GitHub's REST points per endpoint (900 a
// minute, a check run's creation 5: 180 a minute) and content creation (80
// a minute, 500 an hour, check runs included) would spread 500 check runs
// over more than an hour.
const (
	TestRESTPointsPerMinute = 1_000_000
	TestContentPerMinute    = 100_000
	TestContentPerHour      = 1_000_000
)

// Limits are the secondary limits of the tests' GitHub: GitHub's, with the
// REST points and content limits above. Options gives them to the App's
// budget; EnforceLimits makes the fake enforce them.
func Limits() gh.Limits {
	l := gh.GitHubLimits()
	l.RESTPointsPerMinute = TestRESTPointsPerMinute
	l.ContentPerMinute, l.ContentPerHour = TestContentPerMinute, TestContentPerHour
	return l
}

// EnforceLimits makes w's fake enforce l, refusing a request over one of
// them with 403 and Retry-After as GitHub does.
func (w *World) EnforceLimits(l gh.Limits) {
	w.F.SetSecondaryLimits(ghfake.SecondaryLimits{Concurrent: l.Concurrent, RESTPointsPerMinute: l.RESTPointsPerMinute,
		GraphQLPointsPerMinute: l.GraphQLPointsPerMinute, ContentPerMinute: l.ContentPerMinute, ContentPerHour: l.ContentPerHour})
}
