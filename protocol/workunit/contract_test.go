package workunit

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const validBody = "Some prose.\n\n```yaml\ngoal: Users can export reports\nacceptance:\n  - CSV export works\nnon_goals:\n  - PDF export\nrisk: medium\nclass: product\ndepends_on: [3, \"#4\"]\n```\n"

func TestParseContract(t *testing.T) {
	got, probs := ParseContract(validBody)
	if len(probs) != 0 {
		t.Fatalf("problems: %v", probs)
	}
	want := Contract{Goal: "Users can export reports", Acceptance: []string{"CSV export works"}, NonGoals: []string{"PDF export"}, Risk: RiskMedium, Class: ClassProduct, DependsOn: []int{3, 4}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("contract (-want +got):\n%s", diff)
	}
}

func TestParseContractProblems(t *testing.T) {
	tests := []struct {
		name string
		body string
		want []string
	}{
		{"no block", "just prose", []string{"the issue body has no fenced yaml block (```yaml … ```) with the contract: goal, acceptance, non_goals, risk, class"}},
		{"bad yaml", "x\n```yaml\ngoal: [unclosed\n```", []string{"line 3: not valid YAML: did not find expected ',' or ']'"}},
		{"not a mapping", "```yaml\n- a\n```", []string{"line 2: the yaml block must be a mapping of fields"}},
		{"empty", "```yaml\n```", []string{"line 2: the yaml block is empty"}},
		{"wrong values", "```yaml\ngoal: \"\"\nacceptance: []\nnon_goals: text\nrisk: extreme\nclass: feature\ndepends_on: [0, x, 2, 2]\nowner: me\n```",
			[]string{
				"line 2: goal: must not be empty",
				"line 3: acceptance: must list at least one entry",
				"line 4: non_goals: must be a list of texts",
				`line 5: risk: must be one of low, medium, high (got "extreme")`,
				`line 6: class: must be one of product, contract, acceptance, housekeeping (got "feature")`,
				`line 7: depends_on[0]: must be an issue number such as 12 or "#12" (got "0")`,
				`line 7: depends_on[1]: must be an issue number such as 12 or "#12" (got "x")`,
				"line 7: depends_on[3]: #2 is listed twice",
				"line 8: owner: unknown field (allowed: goal, acceptance, non_goals, risk, class, depends_on)",
			}},
		{"missing", "```yml\ngoal: g\n```", []string{"line 1: acceptance: is required", "line 1: non_goals: is required", "line 1: risk: is required", "line 1: class: is required"}},
		{"long text", "```yaml\ngoal: " + strings.Repeat("x", 801) + "\nacceptance: [a]\nnon_goals: [b]\nrisk: low\nclass: product\n```", []string{"line 2: goal: is 801 characters long; at most 800 allowed"}},
		{"control char", "```yaml\ngoal: \"a\\u0007b\"\nacceptance: [a]\nnon_goals: [b]\nrisk: low\nclass: product\n```", []string{"line 2: goal: contains a control character (only tab and newline are allowed)"}},
		{"number goal", "```yaml\ngoal: 0\nacceptance: [{}]\nnon_goals: [b]\nrisk: low\nclass: product\n```", []string{"line 2: goal: must be text", "line 3: acceptance[0]: must be text"}},
		{"duplicate key", "```yaml\ngoal: a\ngoal: b\n```", []string{"line 3: goal: appears twice", "line 1: acceptance: is required", "line 1: non_goals: is required", "line 1: risk: is required", "line 1: class: is required"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, probs := ParseContract(tt.body)
			var got []string
			for _, p := range probs {
				got = append(got, p.String())
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
		})
	}
}

func TestParseIncrement(t *testing.T) {
	got, probs := ParseIncrement("Ship export.\n~~~yaml\ndemonstration: export a report\nrisk: high\nnon_goals: [pdf]\n~~~")
	if len(probs) != 0 {
		t.Fatalf("problems: %v", probs)
	}
	want := IncrementSpec{Demonstration: "export a report", Risk: RiskHigh, NonGoals: []string{"pdf"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("spec (-want +got):\n%s", diff)
	}
	if got, probs := ParseIncrement("no yaml"); len(probs) != 0 || !cmp.Equal(got, IncrementSpec{}) {
		t.Errorf("no block: got %v %v", got, probs)
	}
	_, probs = ParseIncrement("```yaml\nrisk: huge\nextra: 1\n```")
	if len(probs) != 2 {
		t.Errorf("want 2 problems, got %v", probs)
	}
}

func TestParseRefs(t *testing.T) {
	tests := []struct {
		name string
		body string
		want []Ref
	}{
		{"work-unit line", "Work-unit: #12", []Ref{{Number: 12}}},
		{"report field", "STATUS: done\nWORK-UNIT: #7\n", []Ref{{Number: 7}}},
		{"bold list item", "- **Work-unit:** #9", []Ref{{Number: 9}}},
		{"closing keywords", "Fixes #3 and closes #4. Resolved: #3", []Ref{{Number: 3}, {Number: 4}}},
		{"own repo full name", "fixes acme/app#5", []Ref{{Number: 5}}},
		{"other repo", "Closes other/repo#5", []Ref{{Repo: "other/repo", Number: 5}}},
		{"in code block", "```\nFixes #1\n```\nWork-unit: #2", []Ref{{Number: 2}}},
		{"quoted", "> Fixes #1\nnothing", nil},
		{"not a keyword", "prefixes #4 suffix#5 see #6", nil},
		{"zero", "Fixes #0", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ParseRefs(tt.body, "acme/app")
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("refs (-want +got):\n%s", diff)
			}
		})
	}
}

func FuzzParseContract(f *testing.F) {
	f.Add(validBody)
	f.Add("```yaml\ngoal: [\n```")
	f.Add("~~~yml\n&a [*a]\n~~~")
	f.Fuzz(func(t *testing.T, body string) {
		c, probs := ParseContract(body)
		if len(probs) == 0 && (c.Goal == "" || c.Risk.rank() < 0 || len(c.Acceptance) == 0) {
			t.Fatalf("valid contract with missing fields: %+v", c)
		}
		ParseIncrement(body)
	})
}

func FuzzParseRefs(f *testing.F) {
	f.Add("Work-unit: #12\nFixes #3")
	f.Add("```\nFixes #1")
	f.Fuzz(func(t *testing.T, body string) {
		for _, r := range ParseRefs(body, "acme/app") {
			if r.Number <= 0 {
				t.Fatalf("non-positive ref %v", r)
			}
		}
	})
}
