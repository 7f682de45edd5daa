package demo

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/aepgate/aepgate/internal/testkit/browser"
)

// TestReportInBrowser opens the happy scenario's index.html (served from
// its folder on loopback) in headless Chromium: no console error, no resource loaded (the report is
// self-contained), and the texts a reader looks for are visible.
func TestReportInBrowser(t *testing.T) {
	res, out := play(t, "happy")
	srv := httptest.NewServer(http.FileServer(http.Dir(out)))
	defer srv.Close()
	p := browser.New(t)
	p.Do(30*time.Second, chromedp.Navigate(srv.URL+"/index.html"), chromedp.WaitVisible(chromedp.CSS("h1")))
	text := browser.Get(p, 10*time.Second, chromedp.Text(chromedp.CSS("main")))
	for _, want := range []string{"aepgate-demo: happy", "Timeline", "Check runs, as GitHub shows them", "aepgate/certificate",
		"Audit failed: 1 finding open", "ledger intact", `"mergeSha"`, "release v1.0.0 is closed", "as expected"} {
		if !strings.Contains(text, want) {
			t.Errorf("the page does not show %q", want)
		}
	}
	board := browser.Get(p, 10*time.Second, chromedp.Text(chromedp.CSS(".summary.board")))
	if !strings.Contains(board, "certified") {
		t.Errorf("the board issue's body shows no certified story: %q", board)
	}
	resources := browser.Get(p, 10*time.Second, chromedp.Evaluate[[]string](`performance.getEntriesByType("resource").map(e => e.name)`))
	if len(resources) != 0 {
		t.Errorf("the report loaded %q; it must be self-contained", resources)
	}
	p.Screenshot("demo-report.png")
	if errs := p.Errors(); len(errs) > 0 {
		t.Errorf("console errors: %v", errs)
	}
	if len(res.Steps) == 0 {
		t.Error("no steps")
	}
}
