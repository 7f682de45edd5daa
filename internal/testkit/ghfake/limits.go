package ghfake

import (
	"net/http"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

// SecondaryLimits are GitHub's secondary rate limits (GitHub docs: Rate
// limits for the REST API), which the fake enforces per caller (an
// installation, a user, a token) once SetSecondaryLimits turns them on.
// A zero field is no limit. Windows slide over the fake's clock.
type SecondaryLimits struct {
	// Concurrent caps the caller's requests in flight at once.
	Concurrent int
	// RESTPointsPerMinute caps the REST points of each endpoint (route
	// pattern) in any minute: GET and HEAD 1, other methods 5 (GitHub: 900
	// per endpoint).
	RESTPointsPerMinute int
	// GraphQLPointsPerMinute caps GraphQL points in any minute: a query 1,
	// a mutation 5 (GitHub: 2,000).
	GraphQLPointsPerMinute int
	// ContentPerMinute and ContentPerHour cap content-creating requests
	// (comments, issues, pull requests, reviews, review requests, check
	// runs, releases; GitHub: 80 and 500).
	ContentPerMinute, ContentPerHour int
	// Status answers a request over a limit: 403 (default) or 429.
	Status int
}

// GitHubSecondaryLimits are GitHub's documented secondary limits.
func GitHubSecondaryLimits() SecondaryLimits {
	return SecondaryLimits{Concurrent: 100, RESTPointsPerMinute: 900, GraphQLPointsPerMinute: 2000,
		ContentPerMinute: 80, ContentPerHour: 500, Status: http.StatusForbidden}
}

// SetSecondaryLimits enforces l from now on (the zero value turns them
// off, the default). What was spent is kept.
func (f *Fake) SetSecondaryLimits(l SecondaryLimits) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if l.Status == 0 {
		l.Status = http.StatusForbidden
	}
	f.knobs.secondary.limits = l
}

// SetContentLimit enforces only the content-creation limit of perMinute
// (0 turns every secondary limit off).
func (f *Fake) SetContentLimit(perMinute int) {
	f.SetSecondaryLimits(SecondaryLimits{ContentPerMinute: perMinute})
}

// secondaryState is what callers spent against the secondary limits;
// guarded by the fake's mu except flight.
type secondaryState struct {
	limits SecondaryLimits
	// spent by caller and window ("rest " and the route pattern, "graphql",
	// "content-m", "content-h").
	spent    map[string]map[string][]stamp
	refusals map[string]int // by kind: primary, concurrent, points, content
	// flight counts requests in flight by Authorization header.
	flightMu sync.Mutex
	flight   map[string]int
}

type stamp struct {
	at     time.Time
	points int
}

func (s *secondaryState) init() {
	s.spent = map[string]map[string][]stamp{}
	s.refusals = map[string]int{}
	s.flight = map[string]int{}
}

// enter counts r in flight and returns how many of its caller's are, with
// it; leave undoes it.
func (s *secondaryState) enter(r *http.Request) (int, func()) {
	key := r.Header.Get("Authorization")
	s.flightMu.Lock()
	s.flight[key]++
	n := s.flight[key]
	s.flightMu.Unlock()
	return n, func() {
		s.flightMu.Lock()
		s.flight[key]--
		s.flightMu.Unlock()
	}
}

// secondaryLimited applies the secondary limits to c; callers hold mu.
func (f *Fake) secondaryLimited(c *call) (int, any) {
	s := &f.knobs.secondary
	l := s.limits
	if c.tok == nil || l == (SecondaryLimits{Status: l.Status}) {
		return 0, nil
	}
	key, now := rateKey(c.tok), f.clock()
	if l.Concurrent > 0 && c.flight > l.Concurrent {
		return f.secondaryRefusal(c, "concurrent", time.Second, false)
	}
	kind, points, limit := "rest "+c.pattern, 1, l.RESTPointsPerMinute
	if c.pattern == graphQLPattern {
		kind, limit = "graphql", l.GraphQLPointsPerMinute
		if c.isMutation() {
			points = 5
		}
	} else if isWrite(c.r.Method) {
		points = 5
	}
	checks := []windowCheck{{kind, points, limit, time.Minute}}
	if contentRoutes[c.pattern] {
		checks = append(checks, windowCheck{"content-m", 1, l.ContentPerMinute, time.Minute},
			windowCheck{"content-h", 1, l.ContentPerHour, time.Hour})
	}
	for _, w := range checks {
		if wait, over := s.over(key, w, now); over {
			reason := "points"
			if strings.HasPrefix(w.name, "content") {
				reason = "content"
			}
			return f.secondaryRefusal(c, reason, wait, reason == "content")
		}
	}
	for _, w := range checks {
		s.add(key, w.name, stamp{now, w.points})
	}
	return 0, nil
}

// windowCheck is one sliding window a request spends points of.
type windowCheck struct {
	name   string
	points int
	cap    int
	span   time.Duration
}

// over reports whether w's points do not fit in key's window at now, and
// how long until they would.
func (s *secondaryState) over(key string, w windowCheck, now time.Time) (time.Duration, bool) {
	if w.cap <= 0 {
		return 0, false
	}
	var live []stamp
	sum := 0
	for _, st := range s.spent[key][w.name] {
		if now.Sub(st.at) < w.span {
			live = append(live, st)
			sum += st.points
		}
	}
	if s.spent[key] != nil {
		s.spent[key][w.name] = live
	}
	excess := sum + w.points - w.cap
	if excess <= 0 {
		return 0, false
	}
	for _, st := range live {
		excess -= st.points
		if excess <= 0 {
			return st.at.Add(w.span).Sub(now), true
		}
	}
	return w.span, true
}

func (s *secondaryState) add(key, name string, st stamp) {
	if s.spent[key] == nil {
		s.spent[key] = map[string][]stamp{}
	}
	s.spent[key][name] = append(s.spent[key][name], st)
}

// secondaryRefusal answers GitHub's secondary-limit refusal with
// Retry-After (whole seconds, rounded up) and counts it.
func (f *Fake) secondaryRefusal(c *call, kind string, wait time.Duration, content bool) (int, any) {
	f.knobs.secondary.refusals[kind]++
	secs := int((wait + time.Second - 1) / time.Second)
	c.w.Header().Set("Retry-After", strconv.Itoa(max(1, secs)))
	msg := "You have exceeded a secondary rate limit. Please wait a few minutes before you try again."
	if content {
		msg = "You have exceeded a secondary rate limit and have been temporarily blocked from content creation. Please retry your request again later."
	}
	return f.knobs.secondary.limits.Status, obj{"message": msg,
		"documentation_url": "https://docs.github.com/free-pro-team@latest/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits"}
}

// isMutation reports whether the GraphQL request's operation is a
// mutation (its body is kept for the handler).
func (c *call) isMutation() bool {
	var req gqlRequest
	if err := c.decode(&req); err != nil {
		return false
	}
	return strings.HasPrefix(strings.TrimSpace(req.Query), "mutation")
}

// LimitStats are the counts a budget test reads.
type LimitStats struct {
	// Reads and Writes count the requests served (those answered 403 or
	// 429, and injected faults, left out).
	Reads, Writes int
	// PeakWritesPerMinute is the most writes served within any minute of
	// the fake's clock.
	PeakWritesPerMinute int
	// Refusals count rate-limit refusals by kind: primary, concurrent,
	// points, content.
	Refusals map[string]int
}

// LimitStats summarises the request log and the refusals so far.
func (f *Fake) LimitStats() LimitStats {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := LimitStats{Refusals: map[string]int{}}
	for k, n := range f.knobs.secondary.refusals {
		out.Refusals[k] = n
	}
	var writes []time.Time
	for _, r := range f.reqs {
		if r.Fault != "" || r.Status == http.StatusForbidden || r.Status == http.StatusTooManyRequests {
			continue
		}
		if r.Write {
			out.Writes++
			writes = append(writes, r.Time)
		} else {
			out.Reads++
		}
	}
	sort.Slice(writes, func(i, j int) bool { return writes[i].Before(writes[j]) })
	for i, j := 0, 0; j < len(writes); j++ {
		for writes[j].Sub(writes[i]) >= time.Minute {
			i++
		}
		out.PeakWritesPerMinute = max(out.PeakWritesPerMinute, j-i+1)
	}
	return out
}
