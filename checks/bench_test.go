package checks

import (
	"fmt"
	"strings"
	"testing"

	"github.com/aepgate/aepgate/protocol/lint"
)

// BenchmarkLintRun renders aep/lint for 2,000 problems and fits it to
// GitHub's limits (the summary is cut from ~230 KB).
func BenchmarkLintRun(b *testing.B) {
	var ps []lint.Problem
	for i := range 2000 {
		ps = append(ps, lint.Problem{Rule: "L3", Tag: "[missing report line]", ID: fmt.Sprintf("P0-T%d", i),
			File: "execution-guide.md", Line: i + 1, Message: "has no **Report:** line naming a task ID"})
	}
	folders := []LintFolder{{Dir: "docs/run", Result: lint.Result{Problems: ps}}}
	b.ReportAllocs()
	for b.Loop() {
		r := Fit(LintRun(sha, folders))
		if len(AnnotationPages(r.Annotations)) != 40 {
			b.Fatal("wrong page count")
		}
	}
}

// BenchmarkCutMarkdown cuts a 1 MB summary to 65,535 bytes.
func BenchmarkCutMarkdown(b *testing.B) {
	s := strings.Repeat("| row | some text in a cell | ✅ |\n", 1<<20/36)
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		if len(CutMarkdown(s, MaxSummaryBytes, "summary")) > MaxSummaryBytes {
			b.Fatal("too long")
		}
	}
}
