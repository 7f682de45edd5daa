package boardweb

import (
	"flag"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/aepgate/aepgate/internal/testkit/browser"
)

var updateScreenshots = flag.Bool("update-screenshots", false, "also write the browser tests' screenshots into docs/board/")

const wait = 30 * time.Second

// shot saves the page as the artefact name and, with -update-screenshots,
// as docs/board/name.
func shot(t *testing.T, p *browser.Page, name string) {
	t.Helper()
	png, _ := p.Screenshot(name)
	if !*updateScreenshots {
		return
	}
	dir := filepath.Join("..", "..", "docs", "board")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name), png, 0o644); err != nil {
		t.Fatal(err)
	}
}

// noErrors fails t if the page logged a console error or threw.
func noErrors(t *testing.T, p *browser.Page) {
	t.Helper()
	if errs := p.Errors(); len(errs) > 0 {
		t.Errorf("console errors: %q", errs)
	}
}

// TestBoardInBrowser signs alice in through GitHub's (ghfake's) OAuth pages
// in headless Chromium: she sees acme/ledger with its graph and acme/docs,
// never acme/secret; signing out returns to the sign-in page. With the
// access filter removed the same steps show acme/secret.
func TestBoardInBrowser(t *testing.T) {
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
			p := browser.New(t)
			w := newWorld(t, tt.change)
			w.f.SignIn("alice")
			p.Do(wait, chromedp.Navigate(w.srv.URL+"/board"), chromedp.WaitVisible("a.button"))
			p.Do(wait, chromedp.Click("a.button"), chromedp.WaitVisible("form.who"))
			if loc := browser.Get(p, wait, chromedp.Location()); loc != w.srv.URL+"/board" {
				t.Errorf("after sign-in the browser is at %q, want %s/board", loc, w.srv.URL)
			}
			text := browser.Get(p, wait, chromedp.Text("body"))
			for _, want := range []string{"Signed in as alice", "acme/ledger", "acme/docs", "Backfill before the unique index", "Recently certified"} {
				if !strings.Contains(text, want) {
					t.Errorf("page lacks %q", want)
				}
			}
			if got := strings.Contains(text, "acme/secret") || strings.Contains(text, "Initech"); got != tt.wantSecret {
				t.Errorf("acme/secret shown = %v, want %v", got, tt.wantSecret)
			}
			if tt.wantSecret {
				return
			}
			if n := browser.Get(p, wait, chromedp.Evaluate[int](`document.querySelectorAll("svg.dag g.node").length`)); n != 7 {
				t.Errorf("graph has %d nodes, want 7", n)
			}
			shot(t, p, "board.png")
			p.Do(wait, chromedp.Click("form.who button"), chromedp.WaitVisible("a.button"))
			shot(t, p, "signin.png")
			noErrors(t, p)
		})
	}
}

// TestBoardRefusalsInBrowser: a callback whose state is not the one this
// browser started with is refused (CSRF), and so is a session cookie
// edited to add a repository.
func TestBoardRefusalsInBrowser(t *testing.T) {
	p := browser.New(t)
	w := newWorld(t, nil)
	// The browser starts a sign-in (it gets a state cookie) but nobody is
	// signed in to GitHub, so it stops there; then it is sent a callback
	// with another state.
	p.Do(wait, chromedp.Navigate(w.srv.URL+"/board/login"))
	p.Do(wait, chromedp.Navigate(w.srv.URL+"/board/callback?code=stolen&state=forged"), chromedp.WaitVisible("section.notice"))
	if text := browser.Get(p, wait, chromedp.Text("section.notice")); !strings.Contains(text, "Sign-in refused") || !strings.Contains(text, "does not match") {
		t.Errorf("wrong state: page says %q", text)
	}
	shot(t, p, "refused.png")

	w.f.SignIn("alice")
	v, err := encodeSession(w.page.opts.sign, session{Login: "alice", Repos: []string{"acme/ledger"}, Expires: w.clock.Now().Add(time.Minute).Unix()})
	if err != nil {
		t.Fatal(err)
	}
	forged := tamper(t, v, func(s *session) { s.Repos = append(s.Repos, "acme/secret") })
	p.Do(wait, chromedp.Navigate(w.srv.URL+forgePath+"?v="+url.QueryEscape(forged)), chromedp.WaitVisible("section.notice"))
	text := browser.Get(p, wait, chromedp.Text("body"))
	if !strings.Contains(text, "Session refused") || strings.Contains(text, "Initech") {
		t.Errorf("tampered cookie: page says %q", text)
	}
	noErrors(t, p)
}

// TestBoardOffInBrowser is the page of a serve started without the OAuth
// flags.
func TestBoardOffInBrowser(t *testing.T) {
	p := browser.New(t)
	srv := httptest.NewServer(Off())
	t.Cleanup(srv.Close)
	p.Do(wait, chromedp.Navigate(srv.URL+"/board"), chromedp.WaitVisible("section.notice"))
	if text := browser.Get(p, wait, chromedp.Text("section.notice")); !strings.Contains(text, "The board page is off") || !strings.Contains(text, "--public-url") {
		t.Errorf("off page says %q", text)
	}
	shot(t, p, "off.png")
	noErrors(t, p)
}
