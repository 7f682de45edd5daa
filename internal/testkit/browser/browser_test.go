package browser

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestPageSeesTextAndErrors opens a page that throws and logs an error, and
// one that does not: the helper must tell them apart.
func TestPageSeesTextAndErrors(t *testing.T) {
	pages := map[string]string{
		"/clean":  `<!doctype html><title>ok</title><p id="p">hello</p>`,
		"/broken": `<!doctype html><title>bad</title><p id="p">hello</p><script>console.error("boom"); undefinedFn();</script>`,
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, pages[r.URL.Path])
	}))
	defer srv.Close()
	p := New(t)
	p.Do(30*time.Second, chromedp.Navigate(srv.URL+"/clean"))
	text := Get(p, 10*time.Second, chromedp.Text("#p"))
	if text != "hello" || len(p.Errors()) != 0 {
		t.Fatalf("clean page: text %q, errors %v", text, p.Errors())
	}
	p.Do(30*time.Second, chromedp.Navigate(srv.URL+"/broken"), chromedp.Sleep(300*time.Millisecond))
	errs := strings.Join(p.Errors(), "\n")
	if !strings.Contains(errs, "boom") || !strings.Contains(errs, "undefinedFn") {
		t.Fatalf("broken page: errors %q, want the console error and the exception", errs)
	}
	png, path := p.Screenshot("broken.png")
	if len(png) < 100 || !strings.HasSuffix(path, "broken.png") {
		t.Fatalf("screenshot: %d bytes at %s", len(png), path)
	}
}
