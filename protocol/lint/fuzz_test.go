package lint

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/aepgate/aepgate/protocol/rundoc"
)

func FuzzCheck(f *testing.F) {
	f.Add(task("P0-T1")+gate("P0-G1", control), done("P0-T1")+done("P0-G1"), "## Non-goals\n", "P1-a.md")
	f.Add("### P0-G1 — Gate: <x>\n**Negative control:** n/a", "### P0-G1 — DONE\n**Verify output:** ```\n", "| ID | Deferred to | Closed by |\n| D1 | P0 | |", "phase-01.md")
	f.Add("**Report:** `P1-T1`", "| id | verdict |\n|--|--|\n| P1-T1 | APPROVED |\n### P1-T1 — REJECTED", "", ".gitkeep")
	f.Fuzz(func(t *testing.T, guide, log, plan, annex string) {
		run := rundoc.Parse(rundoc.Files{
			Docs:    map[string]string{rundoc.GuideFile: guide, rundoc.LogFile: log, rundoc.PlanFile: plan},
			Annexes: strings.Split(annex, "/"),
		})
		res := Check(run, Options{AnnexThreshold: 1})
		text := res.Text()
		if (res.ExitCode() == 0) != strings.HasPrefix(text, "clean") {
			t.Fatalf("exit code %d does not match text %q", res.ExitCode(), text)
		}
		for _, p := range res.Problems {
			if p.Rule == "" || p.Tag == "" || p.File == "" {
				t.Fatalf("incomplete problem %+v", p)
			}
		}
		if _, err := json.Marshal(res.JSON("d")); err != nil {
			t.Fatal(err)
		}
	})
}
