package demo

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"html/template"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
)

//go:embed report.html.tmpl
var reportHTML string

// page is the report template: check-run Markdown is rendered by markdown,
// everything else is escaped by html/template. It is parsed on first use,
// not at every start of the binary.
var page = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("report").Funcs(template.FuncMap{
		"markdown": markdown,
		"short":    func(s string) string { return s[:min(12, len(s))] },
		"pretty":   prettyJSON,
		"state":    func(s string) string { return strings.ReplaceAll(s, "_", " ") },
		"divf":     func(ms int64) float64 { return float64(ms) / 1000 },
		"sub":      func(a, b int) int { return a - b },
	}).Parse(reportHTML))
})

// writeReport writes dir/index.html and dir/timeline.json.
func writeReport(dir string, res *Result) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("demo: report folder: %w", err)
	}
	js, err := json.MarshalIndent(res, "", "  ")
	if err != nil {
		return fmt.Errorf("demo: timeline: %w", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "timeline.json"), append(js, '\n'), 0o644); err != nil {
		return fmt.Errorf("demo: timeline: %w", err)
	}
	var b bytes.Buffer
	if err := page().Execute(&b, res); err != nil {
		return fmt.Errorf("demo: render the report: %w", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "index.html"), b.Bytes(), 0o644); err != nil {
		return fmt.Errorf("demo: write the report: %w", err)
	}
	return nil
}

// md renders GitHub-flavoured Markdown; raw HTML in the source is dropped,
// as GitHub drops what it does not allow.
var md = sync.OnceValue(func() goldmark.Markdown { return goldmark.New(goldmark.WithExtensions(extension.GFM)) })

// markdown renders a check run's Markdown summary to HTML with md.
func markdown(s string) template.HTML { return renderMarkdown(md(), s) }

// renderMarkdown renders s with conv. The summaries come from GitHub, so
// conv must drop raw HTML (goldmark's default; html.WithUnsafe would let a
// summary's script into the report).
func renderMarkdown(conv goldmark.Markdown, s string) template.HTML {
	var b bytes.Buffer
	if err := conv.Convert([]byte(s), &b); err != nil {
		return template.HTML(template.HTMLEscapeString(s))
	}
	return template.HTML(b.String())
}

// prettyJSON indents a JSON document, or returns it unchanged.
func prettyJSON(s string) string {
	var b bytes.Buffer
	if json.Indent(&b, []byte(s), "", "  ") != nil {
		return s
	}
	return b.String()
}
