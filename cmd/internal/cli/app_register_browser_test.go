package cli

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/aepgate/aepgate/internal/testkit/browser"
	"github.com/aepgate/aepgate/internal/testkit/ghfake"
)

// TestAppRegisterInChromium: in a real browser, the page's one button
// posts the manifest to GitHub (the fake), GitHub sends the browser back,
// and the page says the App is registered; the files are the App's. Skips,
// saying so, without Chromium (fails under CI=true).
func TestAppRegisterInChromium(t *testing.T) {
	p := browser.New(t)
	fake := ghfake.New(t)
	fake.SignIn("octocat")
	r := startRegister(t, fake, "--name", "browser-aepgate")
	p.Do(30*time.Second, chromedp.Navigate(r.local+"/"), chromedp.WaitVisible("#register"), chromedp.Click("#register"),
		chromedp.WaitVisible("#title"))
	title := browser.Get(p, 10*time.Second, chromedp.Text("#title"))
	text := browser.Get(p, 10*time.Second, chromedp.Text("#text"))
	if title != "Registered" || !strings.Contains(text, "browser-aepgate") {
		png, path := p.Screenshot("app-register.png")
		t.Fatalf("after the button: %q %q (screenshot %s, %d bytes)", title, text, path, len(png))
	}
	if errs := p.Errors(); len(errs) != 0 {
		t.Errorf("console errors: %v", errs)
	}
	if code := r.wait(t); code != 0 {
		t.Fatalf("exit %d, stdout %s", code, r.stdout)
	}
	app := fake.AppBySlug("browser-aepgate")
	if app == nil {
		t.Fatal("the fake has no App browser-aepgate")
	}
	checkRegisteredFiles(t, fake, r.dir, app)
}
