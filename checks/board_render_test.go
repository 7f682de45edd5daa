package checks

import (
	"bytes"
	"flag"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/renderer/html"

	"github.com/aepgate/aepgate/internal/testkit/browser"
)

var updateScreenshots = flag.Bool("update-screenshots", false, "also write the board issue's screenshot into docs/board/")

// renderGFM renders Markdown as CommonMark with GitHub's extensions, raw
// HTML passed through (GitHub sanitizes it; passing it makes any HTML the
// board lets through visible here).
func renderGFM(t *testing.T, md string) string {
	t.Helper()
	var out bytes.Buffer
	if err := goldmark.New(goldmark.WithExtensions(extension.GFM), goldmark.WithRendererOptions(html.WithUnsafe())).Convert([]byte(md), &out); err != nil {
		t.Fatal(err)
	}
	return out.String()
}

// TestBoardRendersNoInjectedHTML renders the attack board: the only HTML
// comments are the App's markers, and no tag or link comes from a title.
// The negative control renders it without the escapers: an <img> tag and a
// javascript: link appear.
func TestBoardRendersNoInjectedHTML(t *testing.T) {
	same := func(s string) string { return s }
	tests := []struct {
		name     string
		esc      boardEscapes
		injected bool
	}{
		{"escaped", boardEscapes{text: inline, node: boardNodeLabel}, false},
		{"negative control: no escaping", boardEscapes{text: same, node: same}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := renderGFM(t, boardRegion(attackBoard(), tt.esc))
			got := strings.Contains(out, "<img") || strings.Contains(out, `href="javascript`) || strings.Count(out, "<!--") != 3
			if got != tt.injected {
				t.Errorf("injected HTML rendered: %v, want %v\n%s", got, tt.injected, out)
			}
		})
	}
}

// issueCSS is a small stand-in for GitHub's issue styles.
const issueCSS = `body{font:14px/1.5 -apple-system,"Segoe UI",Helvetica,Arial,sans-serif;color:#1f2328;max-width:1180px;margin:24px auto;padding:0 16px}
h2{font-size:1.5em;border-bottom:1px solid #d1d9e0;padding-bottom:.3em}h3{font-size:1.25em}
table{border-collapse:collapse;margin:8px 0}th,td{border:1px solid #d1d9e0;padding:6px 13px;vertical-align:top}th{background:#f6f8fa}
a{color:#0969da;text-decoration:none}code{background:#eff1f3;border-radius:6px;padding:.2em .4em;font-size:85%}
pre{background:#f6f8fa;border-radius:6px;padding:16px;font-size:85%;overflow:auto}blockquote{color:#59636e;border-left:.25em solid #d1d9e0;margin:0;padding:0 1em}`

// TestBoardIssueScreenshot renders the sample board issue as GitHub would
// lay out its Markdown (the Mermaid graph shows as its source: GitHub draws
// it) in headless Chromium, for docs/board.md.
func TestBoardIssueScreenshot(t *testing.T) {
	p := browser.New(t)
	page := "<!doctype html><meta charset=utf-8><title>aepgate board</title><style>" + issueCSS + "</style><article class=markdown-body><h1>aepgate board</h1>" +
		renderGFM(t, BoardIssueBody(BoardRegion(sampleBoard()))) + "</article>"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(page))
	}))
	defer srv.Close()
	p.Do(30*time.Second, chromedp.Navigate(srv.URL), chromedp.WaitVisible("article.markdown-body"))
	if errs := p.Errors(); len(errs) > 0 {
		t.Errorf("console errors: %q", errs)
	}
	if text := browser.Get(p, 30*time.Second, chromedp.Text("body")); !strings.Contains(text, "Owner inbox") || !strings.Contains(text, "Export reports") {
		t.Errorf("the rendered board lacks its inbox or stories:\n%s", text)
	}
	png, _ := p.Screenshot("issue.png")
	if *updateScreenshots {
		dir := filepath.Join("..", "docs", "board")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "issue.png"), png, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
