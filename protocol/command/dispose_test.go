package command

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseDispose(t *testing.T) {
	type got struct {
		Verb, Finding, Kind, Reason string
		Err                         string
	}
	tests := []struct {
		name, line string
		want       got
	}{
		{"refuted", "/aep dispose F1@r7 refuted -- the loop is bounded by n", got{"dispose", "F1@r7", "refuted", "the loop is bounded by n", ""}},
		{"outside scope", "/aep dispose sec.2-a@r123456 outside_scope --  not this unit  ", got{"dispose", "sec.2-a@r123456", "outside_scope", "not this unit", ""}},
		{"dashes inside the reason", "/aep dispose F1@r7 fixed -- see a--b -- and c", got{"dispose", "F1@r7", "fixed", "see a--b -- and c", ""}},
		{"dashes inside the id", "/aep dispose F--1@r7 fixed -- done", got{"dispose", "F--1@r7", "fixed", "done", ""}},
		{"no reason", "/aep dispose F1@r7 fixed --", got{"dispose", "F1@r7", "fixed", "", "dispose needs a reason after `--`"}},
		{"no dashes", "/aep dispose F1@r7 fixed because", got{"dispose", "F1@r7", "fixed", "", "dispose takes a finding and a kind before `--`"}},
		{"not a ledger id", "/aep dispose F1 fixed -- done", got{"dispose", "F1", "fixed", "done", `"F1" is not a finding's ledger ID such as F1@r7`}},
		{"review id zero", "/aep dispose F1@r0 fixed -- done", got{"dispose", "F1@r0", "fixed", "done", `"F1@r0" is not a finding's ledger ID such as F1@r7`}},
		{"unknown kind", "/aep dispose F1@r7 wontfix -- meh", got{"dispose", "F1@r7", "wontfix", "meh", `"wontfix" is not a disposition (expected fixed, refuted, duplicate, outside_scope)`}},
		{"kinds are case-sensitive", "/aep dispose F1@r7 Fixed -- ok", got{"dispose", "F1@r7", "Fixed", "ok", `"Fixed" is not a disposition (expected fixed, refuted, duplicate, outside_scope)`}},
		{"nothing", "/aep dispose", got{"dispose", "", "", "", "dispose takes a finding and a kind before `--`"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cs := Parse(tt.line, "")
			if len(cs) != 1 {
				t.Fatalf("Parse(%q) = %+v; want one command", tt.line, cs)
			}
			c := cs[0]
			g := got{c.Verb, c.FindingID, c.Kind, c.Reason, ""}
			if c.Err != nil {
				g.Err, _, _ = strings.Cut(c.Err.Error(), "; the valid forms are")
			}
			if diff := cmp.Diff(tt.want, g); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestFencedBlocks(t *testing.T) {
	body := "intro\n```AEP-Audit extra\n{\"a\": 1}\n  x\n```\n> ```aep-audit\n> {}\n> ```\n\n- ```aep-audit\n\n````md\n```aep-audit\n```\n````\n  ~~~aep-audit\n  b: 2\n   c\n  ~~~\n```aep-audit\nunclosed"
	want := []Block{
		{Line: 2, Text: "{\"a\": 1}\n  x"},
		{Line: 16, Text: "b: 2\n c"},
		{Line: 20, Text: "unclosed"},
	}
	if diff := cmp.Diff(want, FencedBlocks(body, "aep-audit")); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if got := FencedBlocks(body, "aep-gate"); len(got) != 0 {
		t.Errorf("aep-gate blocks: %+v", got)
	}
}
