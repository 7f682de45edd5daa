package rundoc

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// guidePhaseCases are guides whose phase titles a fenced block, a section
// heading or an unclosed fence could confuse.
var guidePhaseCases = map[string]string{
	"plain":             "# Phase 0 — Set-up\n### P0-T1 — Do\n# Phase 1 — Build\n",
	"fenced heading":    "# Phase 1 — Real\n```\n# Phase 2 — In code\n```\n# Phase 3 — After\n",
	"unclosed fence":    "# Phase 1 — Before\n~~~~\n# Phase 2 — Code to the end\n",
	"section not phase": "### Phase 4 — Not a phase heading\n## Phase 5 — Nor this\n#Phase 6 — No space\n",
	"crlf and bom":      "\ufeff# Phase 01 — Numbered\r\n# phase 7:  lower case \r\n",
	"indented fence":    "   ```\n# Phase 8 — Inside\n   ```\n# Phase 9 — Outside\n",
}

// TestParseGuidePhasesAgrees: the phases-only pass finds exactly the
// phases and unclosed fence ParseGuide finds, on the cases above and on the
// shipped example's guide.
func TestParseGuidePhasesAgrees(t *testing.T) {
	cases := map[string]string{}
	for k, v := range guidePhaseCases {
		cases[k] = v
	}
	b, err := os.ReadFile(filepath.Join("..", "..", "examples", "ledger-service", GuideFile))
	if err != nil {
		t.Fatal(err)
	}
	cases["example"] = string(b)
	for name, src := range cases {
		t.Run(name, func(t *testing.T) { checkGuidePhases(t, src) })
	}
}

func checkGuidePhases(t *testing.T, src string) {
	t.Helper()
	if d := guidePhasesDiff(src, ParseGuidePhases); d != "" {
		t.Error(d)
	}
}

// guidePhasesDiff compares phases, a phases-only parse, with ParseGuide on
// src and says how they differ ("" when they agree).
func guidePhasesDiff(src string, phases func(file, src string) *Guide) string {
	got, want := phases(GuideFile, src), ParseGuide(GuideFile, src)
	if diff := cmp.Diff(want.Phases, got.Phases); diff != "" {
		return "Phases differ from ParseGuide's (-ParseGuide +phases-only):\n" + diff
	}
	if diff := cmp.Diff(want.Unclosed, got.Unclosed); diff != "" {
		return "Unclosed differs from ParseGuide's (-ParseGuide +phases-only):\n" + diff
	}
	if got.Sections != nil || got.Reports != nil {
		return "the phases-only pass kept sections or reports"
	}
	return ""
}

// TestParseGuidePhasesCanFail is the agreement check's negative control: a
// phases-only pass that reads fenced blocks as text takes the phase heading
// inside the fence of "fenced heading" (and misses the unclosed fence), and
// the comparison says so.
func TestParseGuidePhasesCanFail(t *testing.T) {
	noFences := func(file, src string) *Guide { return guidePhases(file, src, false) }
	for _, name := range []string{"fenced heading", "unclosed fence", "indented fence"} {
		if d := guidePhasesDiff(guidePhaseCases[name], noFences); d == "" {
			t.Errorf("%s: the comparison found no difference with fences read as text", name)
		}
	}
}

func FuzzGuidePhases(f *testing.F) {
	for _, src := range guidePhaseCases {
		f.Add(src)
	}
	f.Fuzz(func(t *testing.T, src string) { checkGuidePhases(t, src) })
}
