package scaffold

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/aepgate/aepgate/protocol/lint"
	"github.com/aepgate/aepgate/protocol/rundoc"
	"github.com/aepgate/aepgate/protocol/status"
)

func render(name string) rundoc.Files {
	f := rundoc.Files{Docs: map[string]string{}, Annexes: []string{rundoc.KeepFile}}
	for _, file := range Render(name) {
		f.Docs[file.Path] = string(file.Content)
	}
	return f
}

func TestRenderSubstitutesName(t *testing.T) {
	files := Render("Ledger Service")
	var paths []string
	for _, f := range files {
		paths = append(paths, f.Path)
		if strings.Contains(string(f.Content), nameToken) {
			t.Errorf("%s still holds %s", f.Path, nameToken)
		}
	}
	if diff := cmp.Diff(Documents, paths); diff != "" {
		t.Errorf("paths (-want +got):\n%s", diff)
	}
	titles := map[string]string{
		rundoc.PlanFile:  "# Ledger Service — Plan of Record\n",
		rundoc.GuideFile: "# Ledger Service — Execution Guide\n",
		rundoc.LogFile:   "# Ledger Service — Compliance Log\n",
	}
	for _, f := range files {
		if !strings.HasPrefix(string(f.Content), titles[f.Path]) {
			t.Errorf("%s does not start with %q", f.Path, titles[f.Path])
		}
	}
}

func TestFreshScaffoldIsCleanWithTwoOpen(t *testing.T) {
	run := rundoc.Parse(render("demo"))
	if res := lint.Check(run, lint.DefaultOptions()); len(res.Problems) != 0 {
		t.Errorf("fresh scaffold lints with problems:\n%s", res.Text())
	}
	rep := status.Compute(run, "demo")
	if diff := cmp.Diff([]string{"P0-T1", "P0-G1"}, rep.Open); diff != "" {
		t.Errorf("open (-want +got):\n%s", diff)
	}
	for _, it := range rep.Items {
		if it.State != rundoc.Pending {
			t.Errorf("%s is %s, want PENDING", it.ID, it.State)
		}
	}
}

// TestScaffoldFlagsOnceWorkIsReported is the negative control for the
// clean scaffold: report the scaffolded task and gate DONE without evidence
// and lint must catch the missing output, the placeholder gate and the
// unfilled plan.
func TestScaffoldFlagsOnceWorkIsReported(t *testing.T) {
	f := render("demo")
	f.Docs[rundoc.LogFile] = strings.ReplaceAll(f.Docs[rundoc.LogFile], "— PENDING", "— DONE")
	res := lint.Check(rundoc.Parse(f), lint.DefaultOptions())
	rules := map[string]int{}
	for _, p := range res.Problems {
		rules[p.Rule]++
	}
	want := map[string]int{"L5": 1, "L6": 2, "L10": 6}
	if diff := cmp.Diff(want, rules); diff != "" {
		t.Errorf("rules (-want +got):\n%s\n%s", diff, res.Text())
	}
}
