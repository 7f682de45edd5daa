package ghfake

import (
	"bufio"
	"encoding/base64"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/google/go-github/v62/github"
	"github.com/vektah/gqlparser/v2/ast"
)

// Fake is one fake GitHub: its HTTP server and all the state behind it.
// Create it with New; every method is safe for concurrent use.
type Fake struct {
	t   TB
	srv *httptest.Server
	mux *router
	// schema loads GitHub's GraphQL schema (loadSchema: once per process).
	schema func() (*ast.Schema, error)
	// protect holds the checks negative-control tests may remove.
	protect protections

	mu      sync.Mutex
	now     time.Time // zero means the wall clock
	lastID  int64
	users   map[string]*user
	repos   map[string]*repoState // by lower-case "owner/name"
	apps    map[int64]*App
	insts   map[int64]*Installation
	tokens  map[string]*token
	reqs    []Request
	pending []delivery // webhook deliveries queued under mu, sent after
	sending inFlight   // deliveries queued and not yet answered
	hooks   hookConfig
	knobs   knobs
	table   []route
	oauth   oauthState          // the OAuth web flow (oauth.go)
	teams   map[string][]string // members by lower-case "org/slug" (teams.go)
	meta    metaState           // GET /meta (meta.go)
	// manifests are the codes of Apps registered from a manifest
	// (manifests.go).
	manifests map[string]*manifestCode
}

// New starts a fake GitHub for t and stops it when t ends. With a nil t
// (examples, benchmarks of other tools, aepgate-demo) the caller must
// Close it.
func New(t TB) *Fake {
	if t != nil {
		t.Helper()
	}
	f := &Fake{
		t:       t,
		mux:     &router{},
		lastID:  1000,
		users:   map[string]*user{},
		repos:   map[string]*repoState{},
		apps:    map[int64]*App{},
		insts:   map[int64]*Installation{},
		tokens:  map[string]*token{},
		schema:  loadSchema,
		protect: protections{permissions: true, signatures: true},
	}
	f.knobs.init()
	f.routes()
	f.srv = httptest.NewServer(f)
	fakes.Store(f.URL(), f)
	if t != nil {
		t.Cleanup(func() { fakes.Delete(f.URL()); f.srv.Close() })
	}
	return f
}

// fakes are the running fakes by URL (ByURL).
var fakes sync.Map

// ByURL is the running fake whose URL is url, or nil: for a test world
// that has only the URL the code under test was given.
func ByURL(url string) *Fake {
	f, _ := fakes.Load(url)
	fake, _ := f.(*Fake)
	return fake
}

// Close stops the server (New's cleanup does this when given a t).
func (f *Fake) Close() { f.srv.Close() }

// failLater reports a bug in the fake to the test that met it (or, with
// no test, on stderr).
func (f *Fake) failLater(msg string) {
	if f.t != nil {
		f.t.Errorf("%s", msg)
		return
	}
	fmt.Fprintln(os.Stderr, msg)
}

// Installation returns the installation with id, or nil.
func (f *Fake) Installation(id int64) *Installation {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.insts[id]
}

// URL is the REST root (and upload root) with its trailing slash, the value
// to pass as a GitHub Enterprise base URL, e.g. to gh.NewClient.
func (f *Fake) URL() string { return f.srv.URL + "/" }

// GraphQLURL is the GraphQL endpoint, for githubv4.NewEnterpriseClient.
func (f *Fake) GraphQLURL() string { return f.srv.URL + "/graphql" }

// HTTPClient returns the server's client; it authenticates nothing itself.
func (f *Fake) HTTPClient() *http.Client { return f.srv.Client() }

// Client returns a go-github client that talks to the fake with token.
func (f *Fake) Client(token string) *github.Client {
	c := github.NewClient(f.srv.Client()).WithAuthToken(token)
	u, err := url.Parse(f.URL())
	if err != nil {
		panic(fmt.Sprintf("ghfake: own URL %q: %v", f.URL(), err))
	}
	c.BaseURL, c.UploadURL = u, u
	return c
}

// Now is the fake's clock: the wall clock unless SetNow fixed it.
func (f *Fake) Now() time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.clock()
}

// SetNow fixes the fake's clock at t (token expiry, JWT checks, timestamps).
func (f *Fake) SetNow(t time.Time) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.now = t.UTC().Truncate(time.Second)
}

// Advance moves the fake's clock forward by d, fixing it first if needed.
func (f *Fake) Advance(d time.Duration) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.now = f.clock().Add(d)
}

func (f *Fake) clock() time.Time {
	if f.now.IsZero() {
		return time.Now().UTC().Truncate(time.Second)
	}
	return f.now
}

// nextID hands out a fresh database ID; callers hold mu.
func (f *Fake) nextID() int64 {
	f.lastID++
	return f.lastID
}

// nodeID builds a legacy-style global node ID ("010:CheckRun123", base64) as
// GitHub's REST responses carry.
func nodeID(kind string, id int64) string {
	return base64.StdEncoding.EncodeToString([]byte(fmt.Sprintf("%03d:%s%d", len(kind), kind, id)))
}

// ts formats a time as GitHub does (RFC 3339, UTC, seconds).
func ts(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return t.UTC().Format(time.RFC3339)
}

// root is the server root without trailing slash, for URLs in bodies.
func (f *Fake) root() string { return f.srv.URL }

// ServeHTTP serves the fake's API and then sends any webhook deliveries the
// request caused.
// GitHub Enterprise prefixes (/api/v3, /api/uploads, /api/graphql) are
// accepted too, because go-github (and gh.NewClient) add them to a bare
// host URL.
func (f *Fake) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	for _, p := range []string{"/api/v3", "/api/uploads", "/api"} {
		if rest, ok := strings.CutPrefix(r.URL.Path, p+"/"); ok {
			r.URL.Path = "/" + rest
			r.URL.RawPath = ""
			break
		}
	}
	hw := &hijackWatch{ResponseWriter: w}
	f.mux.ServeHTTP(hw, r)
	// The caller gets its answer first; the deliveries its request caused
	// follow (synchronously, so tests see them once the call returns).
	// A connection a fault hijacked (FaultDrop) cannot be flushed.
	if fl, ok := w.(http.Flusher); ok && !hw.hijacked {
		fl.Flush()
	}
	f.flush()
}

// hijackWatch notes whether a handler took the connection over.
type hijackWatch struct {
	http.ResponseWriter
	hijacked bool
}

func (h *hijackWatch) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	h.hijacked = true
	return http.NewResponseController(h.ResponseWriter).Hijack()
}

func (h *hijackWatch) Flush() {
	if !h.hijacked {
		_ = http.NewResponseController(h.ResponseWriter).Flush()
	}
}

func (h *hijackWatch) Unwrap() http.ResponseWriter { return h.ResponseWriter }
