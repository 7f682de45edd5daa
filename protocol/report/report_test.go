package report

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/aepgate/aepgate/internal/testkit/golden"
)

const head = "4f5e6d7c8b9a0f1e2d3c4b5a69788796a5b4c3d2"

var facts = Facts{HeadSHA: head, Number: 34, HeadBranch: "unit-12-attempt-1"}

const good = `Implements the lint rules.

STATUS: done
WORK-UNIT: #12
ATTEMPT: 1
BRANCH: unit-12-attempt-1
PR: https://github.com/o/r/pull/34
DONE:
- lint checks plan/log agreement (tested)
NOT DONE / OPEN: none
FILES:
- protocol/lint/lint.go
VERIFY:
- ` + "`go test ./protocol/lint/...`" + ` → ok (41 tests)
- go vet ./... -> no findings
PRESERVATION: clean + pushed at ` + head + `
`

func TestCheck(t *testing.T) {
	tests := []struct {
		name      string
		body      string
		wantCodes []string
	}{
		{"good", good, nil},
		{"crlf", strings.ReplaceAll(good, "\n", "\r\n"), nil},
		{"bold labels", strings.NewReplacer("STATUS:", "**STATUS:**", "VERIFY:", "**VERIFY**:").Replace(good), nil},
		{"heading labels", strings.Replace(good, "DONE:\n", "### DONE\n", 1), nil},
		{"fenced", "Intro\n\n```text\n" + good + "```\n\n## Notes\nSTATUS: ignored\n", nil},
		{"list form", "- " + strings.ReplaceAll(strings.TrimSpace(good[strings.Index(good, "STATUS"):]), "\n", "\n- "), nil},
		{"no report", "just a description", []string{"no-report"}},
		{"missing fields", "STATUS: done\nWORK-UNIT: #1\n", []string{
			"missing-field", "missing-field", "missing-field", "missing-field", "missing-field",
			"missing-field", "missing-field", "missing-field"}},
		{"bad status", strings.Replace(good, "STATUS: done", "STATUS: finished", 1), []string{"invalid-status"}},
		{"bad attempt", strings.Replace(good, "ATTEMPT: 1", "ATTEMPT: first", 1), []string{"invalid-attempt"}},
		{"other branch", strings.Replace(good, "BRANCH: unit-12-attempt-1", "BRANCH: main", 1), []string{"wrong-branch"}},
		{"other pr", strings.Replace(good, "pull/34", "pull/35", 1), []string{"wrong-pr"}},
		{"pr none", strings.Replace(good, "https://github.com/o/r/pull/34", "none", 1), nil},
		{"empty done", strings.Replace(good, "- lint checks plan/log agreement (tested)\n", "", 1), []string{"empty-field"}},
		{"verify without result", strings.Replace(good, "go vet ./... -> no findings", "go vet ./...", 1), []string{"verify-without-result"}},
		{"stale sha", strings.Replace(good, head, strings.Repeat("a", 40), 1), []string{"stale-preservation"}},
		{"short sha", strings.Replace(good, head, head[:8], 1), []string{"preservation-short-sha"}},
		{"no sha", strings.Replace(good, "at "+head, "", 1), []string{"preservation-without-sha"}},
		{"dirty", strings.Replace(good, "clean + pushed", "dirty, pushed", 1), []string{"preservation-not-clean-pushed"}},
		{"duplicate", good + "STATUS: blocked\n", []string{"duplicate-field"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, p := range Check(Parse(tt.body), facts) {
				got = append(got, p.Code)
			}
			if diff := cmp.Diff(tt.wantCodes, got); diff != "" {
				t.Errorf("problem codes (-want +got):\n%s", diff)
			}
		})
	}
}

func TestParseFields(t *testing.T) {
	r := Parse(good)
	if r.Status != StatusDone || r.Attempt != 1 {
		t.Errorf("status %q attempt %d", r.Status, r.Attempt)
	}
	want := []VerifyStep{
		{Command: "go test ./protocol/lint/...", Result: "ok (41 tests)", Line: 14},
		{Command: "go vet ./...", Result: "no findings", Line: 15},
	}
	if diff := cmp.Diff(want, r.Verify); diff != "" {
		t.Errorf("verify (-want +got):\n%s", diff)
	}
	if got := r.Preservation; !got.Clean || !got.Pushed || got.SHA != head {
		t.Errorf("preservation = %+v", got)
	}
	if got := r.Fields[FieldStatus].Line; got != 3 {
		t.Errorf("STATUS line = %d, want 3", got)
	}
}

// TestHeadBindingNegativeControl shows the stale-SHA check is what stops a
// report written for an older head: with the binding off, it passes.
func TestHeadBindingNegativeControl(t *testing.T) {
	stale := strings.Replace(good, head, strings.Repeat("a", 40), 1)
	if ps := Check(Parse(stale), facts); len(ps) != 1 {
		t.Fatalf("with the binding on: %d problems, want 1", len(ps))
	}
	if ps := check(Parse(stale), facts, checkOptions{bindHead: false}); len(ps) != 0 {
		t.Fatalf("with the binding off the stale report still fails: %v", ps)
	}
}

func TestProblemsGolden(t *testing.T) {
	body := "STATUS: finished\nATTEMPT: 0\nVERIFY:\n- make test\nPRESERVATION: pushed at " + head[:10] + "\n"
	var b strings.Builder
	for _, p := range Check(Parse(body), facts) {
		fmt.Fprintf(&b, "%d\t%s\t%s\t%s\n", p.Line, p.Code, p.Field, p.Message)
	}
	golden.CheckString(t, filepath.Join("testdata", "problems.golden"), b.String())
}

func FuzzParse(f *testing.F) {
	f.Add(good)
	f.Add("```\nSTATUS: done\n```\nPR: x")
	f.Add("- STATUS: blocked\n- VERIFY: `a` → b\n1. PRESERVATION: clean pushed at abcdef0")
	f.Fuzz(func(t *testing.T, body string) {
		r := Parse(body)
		lines := strings.Count(body, "\n") + 1
		for _, p := range Check(r, facts) {
			if p.Line < 0 || p.Line > lines {
				t.Fatalf("problem at line %d of %d", p.Line, lines)
			}
			if p.Code == "" || p.Message == "" {
				t.Fatalf("problem without code or message: %+v", p)
			}
		}
	})
}
