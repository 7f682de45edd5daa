package gh

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/google/go-github/v62/github"
)

// Installation holds the clients of one App installation: REST (go-github,
// unexported so that GitHub is spoken only here) and GraphQL (graphQL over
// hc), sharing one transport stack — installation
// token, conditional-request cache, rate-limit typing and paced, serial
// writes.
type Installation struct {
	ID   int64
	rest *github.Client

	hc         *http.Client
	graphqlURL string
	appID      int64
	// noBlockedBy is set once the server's schema proved to lack
	// Issue.blockedBy (older GHES).
	noBlockedBy atomicBool
	// files remembers files read at commits (ReadFiles).
	files fileCache
}

// Clients hands out per-installation clients, built once and reused so
// their ETag caches and write pacing persist.
type Clients struct {
	auth    *AppAuth
	baseURL string
	// WritePause separates two writes of one installation (GitHub asks for
	// serial writes at least a second apart); set before first use.
	WritePause time.Duration
	// Observe, when set, is told about every call; set before first use.
	Observe Observer

	mu       sync.Mutex
	insts    map[int64]*Installation
	appLogin string
}

// NewClients returns the client factory for auth's App.
func NewClients(auth *AppAuth, baseURL string) *Clients {
	return &Clients{auth: auth, baseURL: baseURL, WritePause: time.Second, insts: map[int64]*Installation{}}
}

// Auth is the App authenticator the clients use.
func (c *Clients) Auth() *AppAuth { return c.auth }

// Installation returns the clients for installation id.
func (c *Clients) Installation(id int64) (*Installation, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if in, ok := c.insts[id]; ok {
		return in, nil
	}
	var rt http.RoundTripper = &rateLimitTransport{base: c.auth.base, observe: c.Observe}
	rt = &installationTransport{auth: c.auth, id: id, base: rt}
	rt = &etagTransport{base: rt}
	rt = &pacedTransport{base: rt, pause: c.WritePause}
	hc := &http.Client{Transport: rt}
	rest, err := NewClient(c.baseURL, hc)
	if err != nil {
		return nil, err
	}
	in := &Installation{ID: id, rest: rest, hc: hc, graphqlURL: GraphQLURL(rest.BaseURL), appID: c.auth.appID}
	c.insts[id] = in
	return in, nil
}

// GraphQLURL is the GraphQL endpoint beside a REST base URL: github.com's
// api.github.com/graphql, GHES's /api/graphql beside /api/v3/, and
// <root>/graphql for a test server.
func GraphQLURL(rest *url.URL) string {
	u := *rest
	switch {
	case strings.HasSuffix(u.Path, "/api/v3/"):
		u.Path = strings.TrimSuffix(u.Path, "v3/") + "graphql"
	default:
		u.Path = strings.TrimSuffix(u.Path, "/") + "/graphql"
	}
	return u.String()
}

// pacedTransport makes one installation's writes serial and at least pause
// apart (GitHub docs: Best practices for using the REST API). Reads,
// including GraphQL queries, pass freely.
type pacedTransport struct {
	base  http.RoundTripper
	pause time.Duration

	mu   sync.Mutex
	last time.Time
}

func (t *pacedTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if !isWrite(req) {
		return t.base.RoundTrip(req)
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if err := sleepCtx(req.Context(), t.pause-time.Since(t.last)); err != nil {
		return nil, err
	}
	defer func() { t.last = time.Now() }()
	return t.base.RoundTrip(req)
}

// isWrite reports whether req changes state on GitHub. GraphQL POSTs are
// counted as reads: the App sends queries only.
func isWrite(req *http.Request) bool {
	switch req.Method {
	case http.MethodGet, http.MethodHead, http.MethodOptions:
		return false
	}
	return !strings.HasSuffix(req.URL.Path, "/graphql")
}

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

type atomicBool = atomic.Bool
