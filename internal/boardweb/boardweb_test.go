package boardweb

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/aepgate/aepgate/internal/gh"
)

// allCandidates is the access filter removed: every repository of the
// installations the person reaches.
func allCandidates(candidates []string, _ gh.UserAccess) []string { return candidates }

// unsigned opens cookies without checking their signature.
type unsigned struct{ hmacSigner }

func (unsigned) open(_ string, value string) ([]byte, bool) {
	payload, _, ok := splitCookie(value)
	return payload, ok
}

// TestBoardShowsOnlyReadableRepositories signs alice in with no
// JavaScript: she sees acme/ledger's board and acme/docs (no board yet),
// never acme/secret of the same installation. With the access filter
// removed, the secret board shows: the filter is what keeps it out.
func TestBoardShowsOnlyReadableRepositories(t *testing.T) {
	tests := []struct {
		name       string
		change     func(*Options)
		wantSecret bool
	}{
		{"filtered", nil, false},
		{"negative control: no access filter", func(o *Options) { o.filter = allCandidates }, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newWorld(t, tt.change)
			w.f.SignIn("alice")
			c := client(t)
			status, body := get(t, c, w.srv.URL+"/board/login")
			if status != http.StatusOK || !strings.Contains(body, "Signed in as <b>alice</b>") {
				t.Fatalf("after sign-in: %d\n%s", status, body)
			}
			for _, want := range []string{"acme/ledger", "Backfill before the unique index", "acme/docs", "has not kept a board"} {
				if !strings.Contains(body, want) {
					t.Errorf("board lacks %q", want)
				}
			}
			if got := strings.Contains(body, "acme/secret") || strings.Contains(body, "Initech"); got != tt.wantSecret {
				t.Errorf("secret repository shown = %v, want %v", got, tt.wantSecret)
			}
		})
	}
}

// TestCallbackStateMustMatch is login CSRF: mallory starts a sign-in of
// her own and sends alice's browser (which started one too) her callback
// link. The state does not match alice's cookie, so the callback refuses;
// with the state check removed, alice's browser is signed in as mallory.
func TestCallbackStateMustMatch(t *testing.T) {
	tests := []struct {
		name      string
		change    func(*Options)
		wantLogin bool
	}{
		{"checked", nil, false},
		{"negative control: state not compared", func(o *Options) { o.sameState = func(string, string) bool { return true } }, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newWorld(t, tt.change)
			w.f.SignIn("mallory")
			attacker := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
			resp, err := attacker.Get(w.srv.URL + "/board/login")
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			// Follow the redirect to GitHub, but not GitHub's back.
			resp, err = attacker.Get(resp.Header.Get("Location"))
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			link := resp.Header.Get("Location") // the callback with mallory's code
			victim := client(t)
			victim.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
			get(t, victim, w.srv.URL+"/board/login") // alice's browser holds a state cookie of its own
			status, body := get(t, victim, link)
			if tt.wantLogin {
				if status != http.StatusSeeOther {
					t.Fatalf("callback = %d, want the sign-in to go through without the check\n%s", status, body)
				}
				return
			}
			if status != http.StatusForbidden || !strings.Contains(body, "does not match") {
				t.Fatalf("callback = %d, want 403 refusing the state\n%s", status, body)
			}
			u, _ := url.Parse(w.srv.URL + "/board")
			for _, c := range victim.Jar.Cookies(u) {
				if c.Name == sessionCookie {
					t.Errorf("a session cookie was set: %v", c)
				}
			}
		})
	}
}

// TestTamperedSessionRefused edits alice's own cookie to add acme/secret:
// the signature no longer matches and the page refuses it. With the
// signature unchecked, the secret board shows.
func TestTamperedSessionRefused(t *testing.T) {
	tests := []struct {
		name       string
		change     func(*Options)
		wantStatus int
	}{
		{"signed", nil, http.StatusForbidden},
		{"negative control: signature unchecked", func(o *Options) { o.sign = unsigned{newHMACSigner(o.Secret)} }, http.StatusOK},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newWorld(t, tt.change)
			w.f.SignIn("alice")
			c := client(t)
			get(t, c, w.srv.URL+"/board/login")
			u, _ := url.Parse(w.srv.URL + "/board")
			var forged string
			for _, ck := range c.Jar.Cookies(u) {
				if ck.Name == sessionCookie {
					forged = tamper(t, ck.Value, func(s *session) { s.Repos = append(s.Repos, "acme/secret") })
				}
			}
			if forged == "" {
				t.Fatal("no session cookie after sign-in")
			}
			c.Jar.SetCookies(u, []*http.Cookie{{Name: sessionCookie, Value: forged, Path: "/board"}})
			status, body := get(t, c, w.srv.URL+"/board")
			if status != tt.wantStatus {
				t.Fatalf("tampered cookie: %d, want %d\n%s", status, tt.wantStatus, body)
			}
			if shown := strings.Contains(body, "Initech"); shown != (tt.wantStatus == http.StatusOK) {
				t.Errorf("secret board shown = %v", shown)
			}
		})
	}
}

// TestExpiredSessionSignsInAgain: after the session's minutes the page
// sends the browser through GitHub again rather than trusting an old list.
func TestExpiredSessionSignsInAgain(t *testing.T) {
	w := newWorld(t, nil)
	w.f.SignIn("alice")
	c := client(t)
	get(t, c, w.srv.URL+"/board/login")
	w.clock.Advance(DefaultSessionTTL)
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	resp, err := c.Get(w.srv.URL + "/board")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusFound || !strings.HasSuffix(resp.Header.Get("Location"), "/board/login") {
		t.Errorf("expired session: %s to %q, want 302 to /board/login", resp.Status, resp.Header.Get("Location"))
	}
}

func TestCookieAttributes(t *testing.T) {
	for _, public := range []string{"https://aepgate.example", "http://127.0.0.1:8080"} {
		p, err := New(Options{PublicURL: public, Secret: []byte("s"), GitHub: &gh.OAuth{}, Source: fakeSource{}, Now: func() time.Time { return boardTime }})
		if err != nil {
			t.Fatal(err)
		}
		rec := httptest.NewRecorder()
		p.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/board/login", nil))
		cs := rec.Result().Cookies()
		if len(cs) != 1 {
			t.Fatalf("%s: cookies %v, want the state cookie", public, cs)
		}
		c := cs[0]
		wantSecure := strings.HasPrefix(public, "https:")
		if c.Name != stateCookie || !c.HttpOnly || c.SameSite != http.SameSiteLaxMode || c.Secure != wantSecure || c.Path != "/board" || c.MaxAge != 600 {
			t.Errorf("%s: state cookie %+v; want HttpOnly, SameSite=Lax, Secure=%v, Path=/board, 10 minutes", public, c, wantSecure)
		}
		if csp := rec.Header().Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'none'") {
			t.Errorf("%s: CSP %q", public, csp)
		}
	}
}

func TestOffPage(t *testing.T) {
	rec := httptest.NewRecorder()
	Off().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/board", nil))
	if rec.Code != http.StatusNotFound || !strings.Contains(rec.Body.String(), "The board page is off") || !strings.Contains(rec.Body.String(), "--client-secret-file") {
		t.Errorf("off page: %d\n%s", rec.Code, rec.Body.String())
	}
}

// TestSignInRevokesTheToken: the user token is used for one read of the
// person's access and then revoked, on GitHub, before the session starts.
func TestSignInRevokesTheToken(t *testing.T) {
	w := newWorld(t, nil)
	w.f.SignIn("alice")
	if status, body := get(t, client(t), w.srv.URL+"/board/login"); status != http.StatusOK || !strings.Contains(body, "Signed in as <b>alice</b>") {
		t.Fatalf("after sign-in: %d\n%s", status, body)
	}
	var revoked, afterRevoke []string
	for _, r := range w.f.Requests() {
		switch {
		case r.Pattern == "DELETE /applications/{client_id}/token":
			revoked = append(revoked, r.String())
		case len(revoked) > 0 && r.User != "":
			afterRevoke = append(afterRevoke, r.String()) // the user token used after it was revoked
		}
	}
	if len(revoked) != 1 || !strings.HasSuffix(revoked[0], "204") {
		t.Errorf("revocations: %v, want one answered 204", revoked)
	}
	if len(afterRevoke) > 0 {
		t.Errorf("the user token was used after it was revoked: %v", afterRevoke)
	}
}
