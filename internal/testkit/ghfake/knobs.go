package ghfake

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/rand"
	"net/http"
	"strconv"
	"time"
)

// FaultKind names a failure the fake can inject on a route.
type FaultKind string

// The injectable faults.
const (
	FaultStatus    FaultKind = "status"    // answer Fault.Status (default 502) with an error body
	FaultSecondary FaultKind = "secondary" // 403 secondary rate limit with Retry-After
	FaultLatency   FaultKind = "latency"   // wait Fault.Delay, then serve normally
	FaultDrop      FaultKind = "drop"      // cut the connection mid-response
	// FaultLostResponse serves the request for real (a write takes effect)
	// and then answers 502, as when GitHub applied a write but the answer
	// never arrived: the case that makes retried writes duplicate.
	FaultLostResponse FaultKind = "lost_response"
)

// Fault is one injected failure rule for a route pattern.
type Fault struct {
	Kind       FaultKind
	Status     int           // FaultStatus: the status to answer (default 502); FaultSecondary: 403 (default) or 429
	RetryAfter int           // FaultSecondary: seconds in Retry-After (default 60; negative: no header)
	Delay      time.Duration // FaultLatency: how long to wait
	// Times limits how many requests the fault hits (0: every matching one).
	Times int
	// Rate, when between 0 and 1, hits only that share of requests, drawn
	// from the fake's seeded generator (see Seed), so runs repeat exactly.
	Rate float64
}

type faultRule struct {
	Fault
	hits int
}

// knobs holds the realism settings; guarded by mu.
type knobs struct {
	faults map[string][]*faultRule // by route pattern ("*" for every route)
	rng    *rand.Rand
	limit  map[tokenKind]int
	spent  map[string]*bucket // by rate-limit key (installation, token, user)
	status int                // answer to an exhausted budget: 403 (default) or 429
	// secondary are the secondary limits enforced (limits.go).
	secondary secondaryState
}

type bucket struct {
	used  int
	reset time.Time
}

func (k *knobs) init() {
	k.faults = map[string][]*faultRule{}
	k.rng = rand.New(rand.NewSource(1))
	k.limit = map[tokenKind]int{installationToken: 5000, actionsToken: 1000, userToken: 5000}
	k.spent = map[string]*bucket{}
	k.status = http.StatusForbidden
	k.secondary.init()
}

// contentRoutes create content in GitHub's sense (notifications): they
// count against the content-creation secondary limit.
var contentRoutes = map[string]bool{
	"POST /repos/{owner}/{repo}/issues":                                  true,
	"POST /repos/{owner}/{repo}/issues/{issue_number}/comments":          true,
	"POST /repos/{owner}/{repo}/pulls":                                   true,
	"POST /repos/{owner}/{repo}/pulls/{pull_number}/reviews":             true,
	"POST /repos/{owner}/{repo}/pulls/{pull_number}/requested_reviewers": true,
	"POST /repos/{owner}/{repo}/check-runs":                              true,
	"POST /repos/{owner}/{repo}/releases":                                true,
}

// InjectFault adds a fault on pattern (a route pattern as Routes lists it,
// or "*" for all routes). Faults are checked in the order added.
func (f *Fake) InjectFault(pattern string, fault Fault) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.knobs.faults[pattern] = append(f.knobs.faults[pattern], &faultRule{Fault: fault})
}

// ClearFaults removes every injected fault.
func (f *Fake) ClearFaults() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.knobs.faults = map[string][]*faultRule{}
}

// Seed reseeds the generator behind Fault.Rate.
func (f *Fake) Seed(seed int64) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.knobs.rng = rand.New(rand.NewSource(seed))
}

// SetRateLimit sets the hourly REST budget of every installation token
// (default 5,000), Actions token (1,000 per repository) and user token
// (5,000). Spent budget is kept.
func (f *Fake) SetRateLimit(installation, actions, user int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.knobs.limit = map[tokenKind]int{installationToken: installation, actionsToken: actions, userToken: user}
}

// SetRateLimitStatus sets the status an exhausted budget answers: 403
// (default; go-github's RateLimitError) or 429, which GitHub also sends.
func (f *Fake) SetRateLimitStatus(status int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.knobs.status = status
}

// pickFault chooses the fault (if any) that hits this request; callers hold mu.
func (f *Fake) pickFault(pattern string) *Fault {
	for _, key := range []string{pattern, "*"} {
		for _, r := range f.knobs.faults[key] {
			if r.Times > 0 && r.hits >= r.Times {
				continue
			}
			if r.Rate > 0 && r.Rate < 1 && f.knobs.rng.Float64() >= r.Rate {
				continue
			}
			r.hits++
			fault := r.Fault
			return &fault
		}
	}
	return nil
}

// injectFault applies a fault to the request, reporting whether the request
// was answered (or dropped) by it, or must be served with its answer lost.
// Latency is served outside the lock.
func (f *Fake) injectFault(w http.ResponseWriter, r *http.Request, pattern string) (answered, lost bool) {
	f.mu.Lock()
	fault := f.pickFault(pattern)
	f.mu.Unlock()
	if fault == nil {
		return false, false
	}
	status := 0
	switch fault.Kind {
	case FaultLostResponse:
		return false, true
	case FaultLatency:
		select {
		case <-time.After(fault.Delay):
		case <-r.Context().Done():
		}
		return false, false
	case FaultDrop:
		if hj, ok := w.(http.Hijacker); ok {
			// A half-sent response, so clients see the drop rather than
			// silently retrying on a fresh connection.
			if conn, buf, err := hj.Hijack(); err == nil {
				_, _ = buf.WriteString("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 4096\r\n\r\n{\"id\":")
				_ = buf.Flush()
				_ = conn.Close()
			}
		}
	case FaultSecondary:
		status = fault.Status
		if status == 0 {
			status = http.StatusForbidden
		}
		after := fault.RetryAfter
		if after == 0 {
			after = 60
		}
		if after > 0 {
			w.Header().Set("Retry-After", strconv.Itoa(after))
		}
		writeRaw(w, status, obj{
			"message":           "You have exceeded a secondary rate limit. Please wait a few minutes before you try again.",
			"documentation_url": "https://docs.github.com/free-pro-team@latest/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits",
		})
	default:
		status = fault.Status
		if status == 0 {
			status = http.StatusBadGateway
		}
		writeRaw(w, status, obj{"message": fmt.Sprintf("ghfake: injected %d", status)})
	}
	f.mu.Lock()
	f.reqs = append(f.reqs, Request{Method: r.Method, Path: r.URL.Path, Query: r.URL.RawQuery, Pattern: pattern,
		Status: status, Write: isWrite(r.Method), Fault: string(fault.Kind), Time: f.clock()})
	f.mu.Unlock()
	return true, false
}

// rateKey is the budget a token spends from.
func rateKey(t *token) string {
	switch {
	case t.inst != nil:
		return "installation:" + itoa(t.inst.ID)
	case t.user != nil:
		return "user:" + t.user.login
	default:
		return "token:" + t.value
	}
}

// spend charges one request to the caller's budget, sets the x-ratelimit-*
// headers, and refuses (403 with remaining 0) once the budget is spent.
func (f *Fake) spend(c *call) (int, any) {
	if c.tok == nil {
		return 0, nil
	}
	b, limit := f.bucketFor(c.tok)
	resource := "core"
	if c.pattern == graphQLPattern {
		b, limit = f.graphBucket(c.tok)
		resource = "graphql"
	}
	h := c.w.Header()
	h.Set("X-RateLimit-Limit", strconv.Itoa(limit))
	h.Set("X-RateLimit-Reset", strconv.FormatInt(b.reset.Unix(), 10))
	h.Set("X-RateLimit-Resource", resource)
	if b.used >= limit {
		h.Set("X-RateLimit-Remaining", "0")
		h.Set("X-RateLimit-Used", strconv.Itoa(b.used))
		f.knobs.secondary.refusals["primary"]++
		msg := "API rate limit exceeded for installation. Wait until the reset time in x-ratelimit-reset."
		return f.knobs.status, obj{"message": msg,
			"documentation_url": "https://docs.github.com/rest/overview/resources-in-the-rest-api#rate-limiting"}
	}
	b.used++
	h.Set("X-RateLimit-Remaining", strconv.Itoa(limit-b.used))
	h.Set("X-RateLimit-Used", strconv.Itoa(b.used))
	return 0, nil
}

// graphQLPattern is the GraphQL route, which spends the graphql budget.
const graphQLPattern = "POST /graphql"

// graphBucket is the caller's GraphQL points budget (same sizes as REST).
func (f *Fake) graphBucket(t *token) (*bucket, int) {
	return f.bucket("graphql:"+rateKey(t), t.kind)
}

// charge spends n more points of the caller's GraphQL budget (a query's
// cost beyond the one point spend took).
func (f *Fake) charge(c *call, n int) {
	if c.tok == nil || n <= 0 {
		return
	}
	b, limit := f.graphBucket(c.tok)
	b.used += n
	c.w.Header().Set("X-RateLimit-Remaining", strconv.Itoa(max(0, limit-b.used)))
	c.w.Header().Set("X-RateLimit-Used", strconv.Itoa(b.used))
}

func (f *Fake) bucketFor(t *token) (*bucket, int) {
	return f.bucket(rateKey(t), t.kind)
}

func (f *Fake) bucket(key string, kind tokenKind) (*bucket, int) {
	b := f.knobs.spent[key]
	now := f.clock()
	if b == nil || !now.Before(b.reset) {
		b = &bucket{reset: now.Add(time.Hour)}
		f.knobs.spent[key] = b
	}
	return b, f.knobs.limit[kind]
}

// conditional sets the ETag (a hash of the body and the Authorization
// header, as GitHub's varies with the credential) and answers 304 to a
// matching If-None-Match, refunding the request's rate-limit charge.
func (f *Fake) conditional(c *call, body []byte) bool {
	h := sha256.New()
	h.Write(body)
	h.Write([]byte(c.r.Header.Get("Authorization")))
	etag := `W/"` + hex.EncodeToString(h.Sum(nil))[:40] + `"`
	c.w.Header().Set("ETag", etag)
	inm := c.r.Header.Get("If-None-Match")
	if inm == "" || (inm != etag && inm != etag[2:]) {
		return false
	}
	if c.tok != nil {
		b, limit := f.bucketFor(c.tok)
		b.used = max(0, b.used-1)
		c.w.Header().Set("X-RateLimit-Remaining", strconv.Itoa(limit-b.used))
		c.w.Header().Set("X-RateLimit-Used", strconv.Itoa(b.used))
	}
	c.w.WriteHeader(http.StatusNotModified)
	return true
}

func writeRaw(w http.ResponseWriter, status int, v obj) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	b, _ := json.Marshal(v)
	_, _ = w.Write(b)
}
