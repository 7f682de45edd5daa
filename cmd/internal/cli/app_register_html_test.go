package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"html"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/google/go-cmp/cmp"

	"github.com/aepgate/aepgate/app"
	"github.com/aepgate/aepgate/internal/testkit/browser"
	"github.com/aepgate/aepgate/internal/testkit/ghfake"
	"github.com/aepgate/aepgate/internal/testkit/golden"
)

// TestRegisterPageGolden: app register's page, rendered for an
// organisation, is the golden file: the summary, the permissions and
// events, the manifest indented in a closed <details>, and the form whose
// hidden field posts the same manifest as compact JSON.
func TestRegisterPageGolden(t *testing.T) {
	f := registerFlags{manifestFlags: manifestFlags{url: "https://aepgate.example.com", name: "Acme aepgate", org: "acme", events: app.Events}}
	m, err := f.manifest()
	if err != nil {
		t.Fatal(err)
	}
	m.RedirectURL = "http://127.0.0.1:8765/callback"
	v, err := newRegisterView(m, "https://github.com/organizations/acme/settings/apps/new?state=STATE", "https://github.com", "acme")
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := registerPage().Execute(&b, v); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	golden.CheckString(t, filepath.Join("testdata", "app", "register-page.golden.html"), page)
	field := regexp.MustCompile(`name="manifest" value="([^"]*)"`).FindStringSubmatch(page)
	if field == nil {
		t.Fatal("page has no manifest field")
	}
	var posted, want map[string]any
	if err := json.Unmarshal([]byte(html.UnescapeString(field[1])), &posted); err != nil {
		t.Fatalf("posted manifest is not JSON: %v", err)
	}
	raw, _ := json.Marshal(m)
	json.Unmarshal(raw, &want)
	if diff := cmp.Diff(want, posted); diff != "" {
		t.Errorf("posted manifest (-want +got):\n%s", diff)
	}
	if strings.Contains(field[1], "\n") {
		t.Error("the posted manifest is indented; GitHub takes it as it is, compact is what was tested")
	}
}

// TestResultPageGolden: the callback's pages, registered and refused.
func TestResultPageGolden(t *testing.T) {
	for _, tt := range []struct {
		file string
		view resultView
	}{
		{"result-registered.golden.html", resultView{Title: "Registered", OK: true, Link: "https://github.com/apps/acme-aepgate/installations/new",
			Text: "App acme-aepgate (ID 7) is registered; its key and secrets are in /srv/aepgate. Install it on the repositories it guards:"}},
		{"result-refused.golden.html", resultView{Title: "Refused", Text: "the state is not the one this page sent to GitHub: the code is not converted"}},
	} {
		var b bytes.Buffer
		if err := resultPage().Execute(&b, tt.view); err != nil {
			t.Fatal(err)
		}
		golden.CheckString(t, filepath.Join("testdata", "app", tt.file), b.String())
	}
}

// TestRegisterPageInBrowser: in headless Chromium with JavaScript off,
// the page shows its summary with the manifest folded away; opening the
// <details> shows it indented; the button posts the manifest to GitHub
// (the fake), which registers the App and sends the browser back to the
// callback's "Registered" page, and the command ends with 0.
func TestRegisterPageInBrowser(t *testing.T) {
	p := browser.New(t)
	fake := ghfake.New(t)
	fake.SignIn("octocat")
	r := startRegister(t, fake, "--name", "Acme aepgate", "--org", "acme")
	const wait = 30 * time.Second
	p.Do(wait, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true})
		return err
	}))
	p.Do(wait, chromedp.EmulateViewport(1100, 900), chromedp.Navigate(r.local+"/"), chromedp.WaitVisible("#register"))
	p.Screenshot("register-page.png")
	if browser.Get(p, wait, chromedp.Evaluate[bool](`document.querySelector("#manifest").checkVisibility()`)) {
		t.Error("the manifest shows before its <details> is opened")
	}
	p.Do(wait, chromedp.Click("#manifest-details summary"), chromedp.WaitVisible("#manifest"))
	p.Screenshot("register-page-manifest.png")
	pre := browser.Get(p, wait, chromedp.Text("#manifest"))
	if !strings.Contains(pre, "\n  \"name\": \"Acme aepgate\"") {
		t.Errorf("the manifest shown is not indented JSON: %.200q", pre)
	}
	p.Do(wait, chromedp.Click("#register"), chromedp.WaitVisible("#title"))
	p.Screenshot("register-done.png")
	if got := browser.Get(p, wait, chromedp.Text("#install")); got != "Install the App on GitHub" {
		t.Errorf("install link %q", got)
	}
	if got := browser.Get(p, wait, chromedp.Text("#title")); got != "Registered" {
		t.Errorf("after the button the page says %q, want Registered (%s)", got, browser.Get(p, wait, chromedp.Text("#text")))
	}
	if code := r.wait(t); code != 0 {
		t.Errorf("app register exit %d, want 0", code)
	}
	if fake.AppBySlug("acme-aepgate") == nil {
		t.Error("no App registered on the fake")
	}
	if errs := p.Errors(); len(errs) > 0 {
		t.Errorf("console errors: %q", errs)
	}
}
