package gh

import (
	"net/http"
	"strings"
	"time"
)

// routeWords are the fixed segments of the REST routes (GitHub's REST
// description); every other segment of a path is a parameter.
var routeWords = map[string]bool{
	"repos": true, "orgs": true, "users": true, "user": true, "app": true, "apps": true, "installation": true,
	"installations": true, "access_tokens": true, "hook": true, "deliveries": true, "attempts": true, "config": true,
	"pulls": true, "issues": true, "comments": true, "reviews": true, "requested_reviewers": true, "files": true,
	"commits": true, "check-runs": true, "check-suites": true, "annotations": true, "rerequest": true,
	"contents": true, "collaborators": true, "permission": true, "git": true, "refs": true, "ref": true,
	"tags": true, "trees": true, "blobs": true, "milestones": true, "labels": true, "timeline": true, "events": true,
	"reactions": true, "merge": true, "compare": true, "releases": true, "latest": true, "assets": true,
	"actions": true, "runs": true, "pending_deployments": true, "deployment_protection_rule": true,
	"deployments": true, "statuses": true, "status": true, "branches": true, "protection": true,
	"attestations": true, "teams": true, "members": true, "memberships": true, "dependencies": true,
	"blocked_by": true, "blocking": true, "sub_issues": true, "meta": true, "rate_limit": true, "pulls_with_commit": true,
}

// paramsAfter are the route words followed by parameters whatever they
// spell (an owner and a repository named "app" are no route words).
var paramsAfter = map[string]int{"repos": 2, "orgs": 1, "users": 1}

// endpointOf is the REST endpoint req calls, its method and route with
// every parameter as "{}" (a run of them as one), for GitHub's points per
// minute per endpoint (github-facts §3.4). A segment the route words do
// not know counts as a parameter, so an unknown route shares its window
// with more calls, never fewer.
func endpointOf(req *http.Request) string {
	var b strings.Builder
	b.WriteString(req.Method)
	b.WriteByte(' ')
	param, skip := false, 0
	for _, seg := range strings.Split(strings.Trim(req.URL.Path, "/"), "/") {
		if skip > 0 || !routeWords[seg] {
			skip = max(0, skip-1)
			if !param {
				b.WriteString("/{}")
			}
			param = true
			continue
		}
		param, skip = false, paramsAfter[seg]
		b.WriteByte('/')
		b.WriteString(seg)
	}
	return b.String()
}

// endpoints are the REST points windows, one per endpoint, made on first
// use (GitHub's routes are few, so they are kept).
type endpoints struct {
	cap int
	by  map[string]*window
}

func (e *endpoints) of(endpoint string) *window {
	w := e.by[endpoint]
	if w == nil {
		w = &window{span: time.Minute, cap: e.cap}
		e.by[endpoint] = w
	}
	return w
}
