package status

import (
	"bytes"
	"strings"
	"testing"

	"github.com/aepgate/aepgate/protocol/rundoc"
)

func FuzzCompute(f *testing.F) {
	f.Add("# Phase 0 — a\n", "| ID | Verdict |\n|--|--|\n| P0-T1 | APPROVED |\n### P0-T1 — REJECTED\n", "| Phase | Weight |\n| P0 | 2 |\n")
	f.Add("", "### P9-T1 — DONE\n```\n### P9-T1 — APPROVED\n", "| Phase | Weight |\n| Phase 9 | NaN |\n")
	f.Fuzz(func(t *testing.T, guide, log, plan string) {
		run := rundoc.Parse(rundoc.Files{Docs: map[string]string{
			rundoc.GuideFile: guide, rundoc.LogFile: log, rundoc.PlanFile: plan,
		}})
		rep := Compute(run, "d")
		text := rep.Text()
		if len(rep.Items) > 0 && !strings.HasPrefix(text, "Status board:\n") {
			t.Fatalf("text does not start with the board: %q", text)
		}
		closed := 0
		for _, it := range rep.Items {
			if it.State == rundoc.Approved {
				closed++
			}
		}
		if closed+len(rep.Open) != len(rep.Items) {
			t.Fatalf("open %d + closed %d != items %d", len(rep.Open), closed, len(rep.Items))
		}
		got, err := rep.AppendJSON(nil)
		if err != nil {
			t.Fatal(err)
		}
		if want := encodingJSON(t, rep); !bytes.Equal(got, want) {
			t.Fatalf("AppendJSON differs from encoding/json:\n%s\nwant:\n%s", got, want)
		}
	})
}
