package demo

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/renderer/html"

	"github.com/aepgate/aepgate/internal/testkit/golden"
)

// sampleResult is a small, fixed result: one refused step, one run with a
// Markdown summary (a table, a comment GitHub hides, a script tag) and an
// annotation, a ledger, a certificate, an increment certificate and a
// board issue with a Mermaid block.
func sampleResult() *Result {
	sha := strings.Repeat("a1", 20)
	return &Result{Version: TimelineVersion, Scenario: "happy", Speed: "fast",
		Steps: []Step{
			{N: 1, Title: "bob opens PR #3", Changes: []Change{{Commit: "PR head 1", SHA: sha, Name: "aepgate/gates", To: "success", Title: "No gate"}}, ElapsedMS: 120},
			{N: 2, Title: "cody comments '/aep resume': refused", Refused: true, Detail: "aepgate replied: only an owner (olivia) may resume", ElapsedMS: 480},
		},
		Commits: []CommitRuns{{Label: "PR head 1", SHA: sha, Runs: []RunView{{
			ID: 1042, Name: "aepgate/audit", By: "aepgate App", Status: "completed", Conclusion: "failure", Title: "Audit failed: 1 finding open",
			Summary:     "<!-- aepgate -->\n| Field | Value |\n| --- | --- |\n| Verdict | FAIL |\n\n<script>alert(1)</script>\n\n_Only aepgate/merge decides._\n",
			Annotations: []Annotation{{Path: "export/export.go", Line: 4, Level: "failure", Title: "F1", Message: "errors are wrapped"}}, Versions: 2,
		}}}},
		Ledger:      Ledger{Intact: true, Verdict: "ledger intact: 1 rows, head ab12", Head: "ab12", Rows: []LedgerRow{{Seq: 1, Kind: "check_run:aepgate/audit", Subject: "acme/widgets#3@" + sha, Hash: "ab12"}}},
		Certificate: `{"mergeSha":"` + sha + `","schemaVersion":1}`,
		Increment: &IncrementView{Milestone: 1, SHA: sha, SHA256: "cd34", Certificate: `{"integratedSha":"` + sha + `","kind":"increment","milestone":1}`,
			Command: "aepgate certificate fetch --repo acme/widgets --sha " + sha + " --increment 1 --app-id 4242",
			Fetch:   "increment certificate: milestone 1, check run 1225 by app-4242 (App ID 4242), sha256 cd34"},
		Attestation: &Attestation{Envelope: `{"payload":"e30=","payloadType":"application/vnd.in-toto+json","signatures":[{"keyid":"KID","sig":"AA=="}]}`,
			Command: "aepgate certificate verify certificate.dsse.json --jwks keys.jwks --sha " + sha, Output: "{\n  \"verified\": true\n}\n", Verified: true},
		Board: &BoardView{Number: 4, Title: "aepgate board", URL: "https://github.com/acme/widgets/issues/4", Pinned: true, Labels: []string{"aepgate:board"},
			Body: "<!-- aepgate:board:begin -->\n## Increments\n\n| story | state |\n| --- | --- |\n| [\\#1](https://github.com/acme/widgets/issues/1) Export | ✅ certified |\n\n```mermaid\ngraph LR\n  s1[\"#35;1 Export\"]:::certified\n```\n<!-- aepgate:board:end -->\n"},
		Figures:  Figures{Deliveries: 3, Accepted: 3, AppReads: 4, AppWrites: 2, TokenMints: 1, AppCheckRuns: 1, ReadsPerCheckRun: 4, WritesPerCheckRun: 2, ByCheck: map[string]CheckWrites{"aepgate/audit": {Created: 1, Updated: 1}}, WallMS: 1500},
		Problems: []string{},
	}
}

// TestReportGolden pins the rendered report and timeline.
func TestReportGolden(t *testing.T) {
	dir := t.TempDir()
	if err := writeReport(dir, sampleResult()); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"index.html", "timeline.json"} {
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		golden.Check(t, filepath.Join("testdata", f+".golden"), b)
	}
}

// TestReportIsSelfContained: nothing in the page loads from elsewhere.
func TestReportIsSelfContained(t *testing.T) {
	dir := t.TempDir()
	if err := writeReport(dir, sampleResult()); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"<script", "src=", `rel="stylesheet"`, "@import", "url("} {
		if strings.Contains(string(b), bad) {
			t.Errorf("index.html holds %q", bad)
		}
	}
}

// TestMarkdownDropsRawHTML: a summary's raw HTML never reaches the report;
// the negative control renders with goldmark's unsafe option and sees the
// script come through.
func TestMarkdownDropsRawHTML(t *testing.T) {
	const summary = "ok\n\n<script>alert(1)</script>\n"
	unsafe := goldmark.New(goldmark.WithExtensions(extension.GFM), goldmark.WithRendererOptions(html.WithUnsafe()))
	tests := []struct {
		name   string
		conv   goldmark.Markdown
		script bool
	}{
		{"report's renderer", md(), false},
		{"negative control: unsafe renderer", unsafe, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := string(renderMarkdown(tt.conv, summary))
			if strings.Contains(got, "<script>") != tt.script {
				t.Errorf("rendered %q; script passed = %v, want %v", got, !tt.script, tt.script)
			}
		})
	}
}
