package lint

import (
	"fmt"
	"strings"
	"testing"

	"github.com/aepgate/aepgate/protocol/rundoc"
	"github.com/aepgate/aepgate/protocol/status"
)

// bigRun generates a run of phases×perPhase tasks and gates (one gate per
// ten items), each with a full DONE report and an APPROVED verdict.
func bigRun(phases, perPhase int) rundoc.Files {
	var g, l strings.Builder
	l.WriteString("# Big — Compliance Log\n\n## Status board\n\n| ID | Delivery | Verdict | Notes |\n|---|---|---|---|\n")
	var reports strings.Builder
	for p := 0; p < phases; p++ {
		fmt.Fprintf(&g, "# Phase %d — Phase number %d\n\n", p, p)
		for i := 1; i <= perPhase; i++ {
			id := fmt.Sprintf("P%d-T%d", p, i)
			if i%10 == 0 {
				id = fmt.Sprintf("P%d-G%d", p, i/10)
				fmt.Fprintf(&g, "### %s — Gate: component %d rejects bad input\n\n**Proven by:**\n1. `go test ./c%d/...`\n\n"+
					"**Negative control:** remove the validation in c%d/check.go and watch TestReject%d fail; restore it and it passes.\n\n**Report:** `%s`\n\n---\n\n",
					id, i, i, i, i, id)
			} else {
				fmt.Fprintf(&g, "### %s — Build component %d of phase %d\n\n**Goal:** component %d works.\n\n**Files:** `c%d/`\n\n"+
					"**Steps:**\n1. Write it.\n2. Test it.\n\n**Verify:**\n```bash\ngo test ./c%d/...\n```\n\n**Report:** `%s`\n\n---\n\n",
					id, i, p, i, i, i, id)
			}
			fmt.Fprintf(&l, "| %s | done | `APPROVED` | |\n", id)
			fmt.Fprintf(&reports, "### %s — DONE\n\n**Changed:** `c%d/x.go`, `c%d/x_test.go`\n\n**Verify output:**\n```text\n$ go test ./c%d/...\n"+
				"=== RUN   TestComponent%d\n--- PASS: TestComponent%d (0.0%ds)\nok  \texample.com/big/%s\t0.%03ds\n```\n\n"+
				"**Observations:** none for %s.\n\n**Decisions made without stopping:** none\n\n### %s — APPROVED\n\n---\n\n",
				id, i, i, i, i, i, i%10, id, (p*perPhase+i)%1000, id, id)
		}
	}
	l.WriteString("\n## Reports\n\n")
	l.WriteString(reports.String())
	return rundoc.Files{Docs: map[string]string{rundoc.GuideFile: g.String(), rundoc.LogFile: l.String()}}
}

// BenchmarkLintStatus parses a 2,000-item run and computes lint and status,
// which is what `aepgate lint` plus `aepgate status` do after reading disk.
func BenchmarkLintStatus(b *testing.B) {
	files := bigRun(20, 100)
	size := 0
	for _, d := range files.Docs {
		size += len(d)
	}
	if res := Check(rundoc.Parse(files), DefaultOptions()); len(res.Problems) != 0 {
		b.Fatalf("generated run is not clean:\n%s", res.Text())
	}
	b.SetBytes(int64(size))
	b.ReportAllocs()
	for b.Loop() {
		run := rundoc.Parse(files)
		_ = Check(run, DefaultOptions()).Text()
		_ = status.Compute(run, "big").Text()
	}
	b.ReportMetric(float64(size), "input-bytes") // after the loop: b.Loop resets metrics
}

// benchSizes are the run sizes (tasks) the scaling benchmarks compare: the
// time and bytes per input byte should not grow with size.
var benchSizes = []int{2000, 100000}

// BenchmarkLint parses a clean generated run and renders lint's report, as
// `aepgate lint` does after reading disk.
func BenchmarkLint(b *testing.B) {
	for _, n := range benchSizes {
		files := bigRun(n/100, 100)
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			benchRun(b, files, func(run *rundoc.Run) { _ = Check(run, DefaultOptions()).Text() })
		})
	}
}

// BenchmarkStatus parses a clean generated run and renders status's text,
// as `aepgate status` does after reading disk.
func BenchmarkStatus(b *testing.B) {
	for _, n := range benchSizes {
		files := bigRun(n/100, 100)
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			benchRun(b, files, func(run *rundoc.Run) { _ = status.Compute(run, "big").Text() })
		})
	}
}

// BenchmarkLintMessy is BenchmarkLint on a run that trips every rule.
func BenchmarkLintMessy(b *testing.B) {
	for _, n := range benchSizes {
		files := messyRun(n, 1)
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			benchRun(b, files, func(run *rundoc.Run) { _ = Check(run, DefaultOptions()).Text() })
		})
	}
}

func benchRun(b *testing.B, files rundoc.Files, f func(*rundoc.Run)) {
	size := 0
	for _, d := range files.Docs {
		size += len(d)
	}
	b.SetBytes(int64(size))
	b.ReportAllocs()
	for b.Loop() {
		f(rundoc.Parse(files))
	}
}
