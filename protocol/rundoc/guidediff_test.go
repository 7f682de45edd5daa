package rundoc

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const diffGuide = `# Demo — Execution Guide

## Rules of engagement

1. One task at a time.

# Phase 1 — Core

### P1-T1 — Parse the input

**Goal:** parse it.

**Verify:**

` + "```bash\ngo test ./parse\n```" + `

**Report:** ` + "`P1-T1`" + `

### P1-T2 — Store it

**Goal:** store it.

**Verify:**

` + "```bash\ngo test ./store\n```" + `

**Report:** ` + "`P1-T2`" + `
`

func TestCompareGuides(t *testing.T) {
	edit := func(old, new string) string { return strings.Replace(diffGuide, old, new, 1) }
	for _, tt := range []struct {
		name       string
		base, head string
		want       []string
	}{
		{"unchanged", diffGuide, diffGuide, nil},
		{"trailing spaces and CRLF are no change", diffGuide, strings.ReplaceAll(edit("store it.", "store it.   "), "\n", "\r\n"), nil},
		{"a Verify command", diffGuide, edit("go test ./store", "printf 'ok\\n'"), []string{"P1-T2's Verify command"}},
		{"a goal", diffGuide, edit("**Goal:** parse it.", "**Goal:** skip it."), []string{"P1-T1's Goal"}},
		{"a title", diffGuide, edit("Store it", "Store nothing"), []string{"P1-T2's title"}},
		{"a field removed", diffGuide, edit("**Goal:** store it.\n", ""), []string{"P1-T2's Goal"}},
		{"a label inside a fence is content", diffGuide, edit("go test ./store", "go test ./store\n**Goal:** not a field"), []string{"P1-T2's Verify command"}},
		{"a task added", diffGuide, diffGuide + "\n### P1-T3 — More\n\n**Goal:** more.\n", []string{"P1-T3 added"}},
		{"a task removed", diffGuide + "\n### P1-T3 — More\n\n**Goal:** more.\n", diffGuide, []string{"P1-T3 removed"}},
		{"the rules of engagement", diffGuide, edit("1. One task at a time.", "1. Any order."), []string{"the guide's text outside its tasks"}},
		{"a new guide", "", diffGuide, []string{"P1-T1 added", "P1-T2 added", "the guide's text outside its tasks"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, c := range CompareGuides(tt.base, tt.head) {
				got = append(got, c.String())
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("CompareGuides (-want +got):\n%s", diff)
			}
		})
	}
}

func TestTaskFields(t *testing.T) {
	body := "\n**Goal:** g.\nmore\n\n**Verify:**\n```bash\n**Goal:** in a fence\n```\n**Report:** `X1`\n"
	got := TaskFields(body)
	want := []TaskField{
		{Label: "Goal", Text: "**Goal:** g.\nmore"},
		{Label: "Verify", Text: "**Verify:**\n```bash\n**Goal:** in a fence\n```"},
		{Label: "Report", Text: "**Report:** `X1`"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("TaskFields (-want +got):\n%s", diff)
	}
}
