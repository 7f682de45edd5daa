package gh

import (
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
// token, conditional-request cache, rate-limit typing and the
// installation's budget (budget.go), which paces and orders every call.
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
	// budget is the installation's scheduler every call goes through.
	budget *budget
}

// Clients hands out per-installation clients, built once and reused so
// their ETag caches and budgets persist.
type Clients struct {
	auth    *AppAuth
	baseURL string
	// WritePause separates two writes of one installation, which the
	// budget sends one at a time (GitHub asks for serial writes at least a
	// second apart); set before first use.
	WritePause time.Duration
	// Budget tunes every installation's budget; set before first use.
	Budget BudgetOptions
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
	b := newBudget(rt, c.Budget, c.WritePause)
	hc := &http.Client{Transport: b}
	rest, err := NewClient(c.baseURL, hc)
	if err != nil {
		return nil, err
	}
	in := &Installation{ID: id, rest: rest, hc: hc, graphqlURL: GraphQLURL(rest.BaseURL), appID: c.auth.appID, budget: b}
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

type atomicBool = atomic.Bool
