package boardweb

import (
	"bytes"
	"compress/flate"
	"context"
	"crypto/rsa"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/internal/testkit/ghfake"
	"github.com/aepgate/aepgate/protocol/boardview"
)

// fakeSource is the App as the page sees it: each installation's
// repositories and the boards kept.
type fakeSource struct {
	insts  map[int64][]string
	boards map[string]boardview.Board
}

func (s fakeSource) InstallationRepos(_ context.Context, id int64) ([]string, error) {
	return s.insts[id], nil
}

func (s fakeSource) Board(_ context.Context, repo string) (boardview.Board, bool, error) {
	b, ok := s.boards[repo]
	return b, ok, nil
}

var _ Source = fakeSource{}

// world is GitHub (ghfake) with org acme: acme/ledger, which alice may
// write, acme/secret (private, alice has no role) and acme/docs (alice
// reads it, no board kept yet); the App installed on acme; and the page
// served on loopback.
type world struct {
	f     *ghfake.Fake
	app   *ghfake.App
	srv   *httptest.Server
	page  *Page
	clock *testClock
}

// testClock is a settable clock for session expiry.
type testClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *testClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *testClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

var (
	keyOnce sync.Once
	key     *rsa.PrivateKey
)

// testKey shares one App key across the package's tests.
func testKey() *rsa.PrivateKey {
	keyOnce.Do(func() { key = ghfake.NewAppKey() })
	return key
}

// forgePath is a route of the test server alone: it sets the session
// cookie to its v parameter, as a person editing their cookie would.
const forgePath = "/board/_forge"

// newWorld builds the world; change adjusts the page's options.
func newWorld(t testing.TB, change func(*Options)) *world {
	t.Helper()
	f := ghfake.New(t)
	f.CreateRepo("acme/ledger").Grant("alice", "write")
	f.CreateRepo("acme/secret").SetPrivate(true)
	f.CreateRepo("acme/docs").Grant("alice", "read")
	app := f.App(4242, testKey())
	inst := app.Install("acme", ghfake.Permissions{"issues": "read", "checks": "write"})
	src := fakeSource{
		insts:  map[int64][]string{inst.ID: {"acme/ledger", "acme/secret", "acme/docs"}},
		boards: map[string]boardview.Board{"acme/ledger": ledgerBoard(), "acme/secret": secretBoard()},
	}
	w := &world{f: f, app: app, clock: &testClock{now: time.Date(2026, 11, 12, 9, 30, 0, 0, time.UTC)}}
	w.srv = httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		if r.URL.Path == forgePath { // the test's own route: a browser holding a forged cookie
			http.SetCookie(rw, &http.Cookie{Name: sessionCookie, Value: r.URL.Query().Get("v"), Path: "/board", HttpOnly: true})
			http.Redirect(rw, r, "/board", http.StatusFound)
			return
		}
		w.page.ServeHTTP(rw, r)
	}))
	t.Cleanup(w.srv.Close)
	o, err := gh.NewOAuth(f.URL(), app.ClientID, app.ClientSecret(), nil)
	if err != nil {
		t.Fatal(err)
	}
	opts := Options{PublicURL: w.srv.URL, Secret: []byte(app.ClientSecret()), GitHub: o, Source: src, Now: w.clock.Now}
	if change != nil {
		change(&opts)
	}
	if w.page, err = New(opts); err != nil {
		t.Fatal(err)
	}
	return w
}

// client is a browser without JavaScript: a cookie jar that follows
// redirects.
func client(t testing.TB) *http.Client {
	jar, err := cookiejar.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	return &http.Client{Jar: jar, Timeout: 30 * time.Second}
}

// get fetches url and returns the status and body.
func get(t testing.TB, c *http.Client, url string) (int, string) {
	t.Helper()
	resp, err := c.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// tamper rewrites a session cookie's payload with change, keeping its old
// signature, as someone editing their own cookie would.
func tamper(t testing.TB, value string, change func(*session)) string {
	t.Helper()
	p, mac, _ := strings.Cut(value, ".")
	packed, err := base64.RawURLEncoding.DecodeString(p)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := io.ReadAll(flate.NewReader(bytes.NewReader(packed)))
	if err != nil {
		t.Fatal(err)
	}
	var s session
	if err := json.Unmarshal(raw, &s); err != nil {
		t.Fatal(err)
	}
	change(&s)
	raw, _ = json.Marshal(s)
	var buf bytes.Buffer
	fw, _ := flate.NewWriter(&buf, flate.BestCompression)
	fw.Write(raw)
	fw.Close()
	return base64.RawURLEncoding.EncodeToString(buf.Bytes()) + "." + mac
}
