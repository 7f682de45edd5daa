package lint

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aepgate/aepgate/protocol/rundoc"
)

// messyRun generates a run of about tasks items that trips every rule and
// most of the parser's corners: board verdicts (some in conflict), DONE
// without evidence, excused and scaffolded gates, sections without a Report
// line, orphans, phase-order breaks, repeated paragraphs, fenced headings,
// hyphen and en-dash separators, a plan with unfilled fields, open deferred
// items and weights, and annexes. The same seed gives the same bytes.
func messyRun(tasks int, seed uint64) rundoc.Files {
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	var g, board, reports strings.Builder
	perPhase := 50
	for n := 0; n < tasks; n++ {
		p, i := n/perPhase, n%perPhase+1
		if i == 1 {
			fmt.Fprintf(&g, "# Phase %d — Phase number %d\n\n", p, p)
		}
		id := fmt.Sprintf("P%d-T%d", p, i)
		if i%10 == 0 {
			id = fmt.Sprintf("P%d-G%d", p, i/10)
		}
		messyGuide(&g, rng, id, i)
		messyBoard(&board, rng, id)
		messyReports(&reports, rng, id, n)
	}
	log := "# Messy — Compliance Log\n\n## Status board\n\n| ID | Delivery | Verdict | Executor | Notes |\n|---|---|---|---|---|\n" +
		board.String() + "\n## Reports\n\n" + reports.String()
	annexes := []string{".gitkeep", "P1-a.md", "phase-2-b.md", "notes.md", "P01-c.md", ".DS_Store", "phase_3.md", "x.md"}
	return rundoc.Files{Docs: map[string]string{
		rundoc.GuideFile: g.String(), rundoc.LogFile: log, rundoc.PlanFile: messyPlan(tasks / perPhase),
	}, Annexes: annexes}
}

var sepWords = []string{"—", "–", "-"}

func messyGuide(g *strings.Builder, rng *rand.Rand, id string, i int) {
	sep := sepWords[rng.IntN(len(sepWords))]
	switch r := rng.IntN(100); {
	case i%10 == 0 && r < 60:
		fmt.Fprintf(g, "### %s %s Gate: part %d rejects bad input\n\n**Proven by:**\n1. `go test ./c%d/...`\n\n"+
			"**Negative control:** remove the validation in c%d/check.go and watch TestReject%d fail; restore it and it passes.\n\n**Report:** `%s`\n\n---\n\n",
			id, sep, i, i, i, i, id)
	case i%10 == 0 && r < 75:
		fmt.Fprintf(g, "### %s %s Gate: part %d holds\n\n**Negative control:** n/a, the suite covers it.\n\n**Report:** `%s`\n\n", id, sep, i, id)
	case i%10 == 0:
		fmt.Fprintf(g, "### %s %s Gate: <claim>\n\n**Negative control:** <what you break>\n\n**Report:** `%s`\n\n", id, sep, id)
	case r < 3:
		fmt.Fprintf(g, "### %s %s Build part %d\n\nNo report line here.\n\n", id, sep, i)
	case r < 5:
		fmt.Fprintf(g, "### Notes %s gate criteria for %s\n\nprose about the gate\n\n**Report:** `%s-extra`\n\n", sep, id, id)
	case r < 7:
		fmt.Fprintf(g, "### %s %s Investigate part %d\n\n```\n### %s-Z9 — fenced heading\n**Report:** `%s-Z9`\n```\n\n**Report:** `%s`\n\n", id, sep, i, id, id, id)
	default:
		fmt.Fprintf(g, "### %s %s Build component %d\n\n**Goal:** component %d works — ünïcödé ok.\n\n**Verify:**\n```bash\ngo test ./c%d/...\n```\n\n**Report:** `%s`\n\n---\n\n",
			id, sep, i, i, i, id)
	}
}

var boardVerdicts = []string{"`APPROVED`", "APPROVED", "**REJECTED**", "CONDITIONAL", "`PENDING`", "—", "approved"}

func messyBoard(b *strings.Builder, rng *rand.Rand, id string) {
	if rng.IntN(100) < 30 {
		return
	}
	exec := []string{"sonnet", "", "opus", "—"}[rng.IntN(4)]
	fmt.Fprintf(b, "| `%s` | 2026-11-02 | %s | %s | |\n", id, boardVerdicts[rng.IntN(len(boardVerdicts))], exec)
}

// longParas are repeated across reports so that L8 finds them.
var longParas = []string{
	"The ledger migration ran against a copy of production data and every balance matched the source system to the cent after replay.",
	"Re-ran the whole suite on a clean checkout with the race detector on; nothing flaked across three runs and the timings stayed flat.",
	"Ünïcödé paragraph: the reconciler compared 2,104,388 postings with the bank export and reported no drift for the window checked here.",
}

func messyReports(b *strings.Builder, rng *rand.Rand, id string, n int) {
	sep := sepWords[rng.IntN(len(sepWords))]
	switch r := rng.IntN(100); {
	case r < 8:
		fmt.Fprintf(b, "### %s %s DONE\n\n**Verify output:** all tests pass\n\n", id, sep)
	case r < 12:
		fmt.Fprintf(b, "### %s %s DONE\n\n**Verify output:**\n```\n<paste>\n```\n\n### %s %s REJECTED\n\n", id, sep, id, sep)
	case r < 20:
		fmt.Fprintf(b, "### %s %s PENDING\n\n**Verify output:**\n\n", id, sep)
	case r < 24:
		fmt.Fprintf(b, "### %s %s BLOCKED\n\nwaiting on access\n\n### %s %s in_review\n\n", id, sep, id, sep)
	case r < 26:
		fmt.Fprintf(b, "### %s-orphan%d %s DONE\n\n**Verify output:**\n```\nok\n```\n\n", id, n%7, sep)
	case r < 28:
		// nothing: the guide's Report has no log entry
	default:
		fmt.Fprintf(b, "### %s %s DONE\n\n**Changed:** `c%d/x.go`\n\n**Verify output:**\n```text\n$ go test ./c%d/...\n### %s — APPROVED\nok  \texample.com/m/%s\t0.%03ds\n```\n\n"+
			"**Observations:** none for %s.\n\n", id, sep, n, n, id, id, n%1000, id)
		if rng.IntN(100) < 5 {
			b.WriteString(longParas[rng.IntN(len(longParas))] + "\n\n")
		}
		verdict := []string{"APPROVED", "APPROVED", "APPROVED", "CONDITIONAL", "REJECTED"}[rng.IntN(5)]
		fmt.Fprintf(b, "### %s %s %s\n\n---\n\n", id, sep, verdict)
	}
}

// messyPlan is a template-shaped plan with unfilled fields, a deferred
// ledger with open rows and a phases table with weights.
func messyPlan(phases int) string {
	var b strings.Builder
	b.WriteString("# Messy — Plan of Record\n\n## Opportunity\n\n**Target outcome:** <outcome>\n\n**Problem:** drift goes unnoticed.\n\n" +
		"## Shaping\n\n| Option | Cost |\n|---|---|\n| a | |\n\n## Non-goals\n\n- <none>\n\n## Phases\n\n| Phase | Delivers | Weight |\n|---|---|---|\n")
	for p := 0; p <= phases; p++ {
		fmt.Fprintf(&b, "| P%d | things | %s |\n", p, []string{"1", "2.5", "x", "-1", ""}[p%5])
	}
	b.WriteString("\n## Deferred items ledger\n\n| ID | What | Deferred to | Closed by |\n|---|---|---|---|\n")
	for p := 0; p <= phases; p++ {
		fmt.Fprintf(&b, "| D%d | item | P%d | %s |\n", p, p, []string{"—", "P0-T1", "", "-"}[p%4])
	}
	return b.String()
}

var (
	genDir   = flag.String("genrun", "", "TestWriteRun writes a generated run into this folder")
	genTasks = flag.Int("genrun.tasks", 100000, "how many tasks TestWriteRun generates")
	genMessy = flag.Bool("genrun.messy", false, "TestWriteRun writes messyRun instead of bigRun")
)

// TestWriteRun writes a generated run to disk for measuring the built
// binary (`go test ./protocol/lint -run TestWriteRun -genrun /tmp/run`).
// Without -genrun it does nothing.
func TestWriteRun(t *testing.T) {
	if *genDir == "" {
		t.Skip("no -genrun folder")
	}
	files := bigRun(*genTasks/100, 100)
	if *genMessy {
		files = messyRun(*genTasks, 1)
	}
	if err := os.MkdirAll(filepath.Join(*genDir, rundoc.AnnexDir), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, b := range files.Docs {
		if err := os.WriteFile(filepath.Join(*genDir, name), []byte(b), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range files.Annexes {
		if err := os.WriteFile(filepath.Join(*genDir, rundoc.AnnexDir, name), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
