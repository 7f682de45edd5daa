package incrementrules

import (
	"strings"
	"testing"

	"github.com/aepgate/aepgate/protocol/workunit"
	"github.com/google/go-cmp/cmp"
)

func TestParseDemos(t *testing.T) {
	block := func(lines ...string) string { return "```aep-demo\n" + strings.Join(lines, "\n") + "\n```\n" }
	tests := []struct {
		name    string
		body    string
		want    []Demo
		wantBad bool
	}{
		{"run", block("milestone: 4", "criterion: it works", "evidence: run 77"), []Demo{{Line: 1, Milestone: 4, Criterion: "it works", Evidence: Evidence{Kind: "run", ID: 77}}}, false},
		{"release, any order, #", "see:\n" + block("evidence: release v1.0.0", "criterion:  spaced  out ", "milestone: #2"),
			[]Demo{{Line: 2, Milestone: 2, Criterion: "spaced  out", Evidence: Evidence{Kind: "release", Tag: "v1.0.0"}}}, false},
		{"deployment", block("milestone: 1", "criterion: x", "evidence: deployment 5"), []Demo{{Line: 1, Milestone: 1, Criterion: "x", Evidence: Evidence{Kind: "deployment", ID: 5}}}, false},
		{"in a quote is not a block", "> ```aep-demo\n> milestone: 1\n> ```", nil, false},
		{"missing evidence", block("milestone: 1", "criterion: x"), nil, true},
		{"twice", block("milestone: 1", "milestone: 2", "criterion: x", "evidence: run 1"), nil, true},
		{"unknown field", block("milestone: 1", "criterion: x", "evidence: run 1", "by: me"), nil, true},
		{"bad evidence kind", block("milestone: 1", "criterion: x", "evidence: green"), nil, true},
		{"negative run", block("milestone: 1", "criterion: x", "evidence: run -1"), nil, true},
		{"not key value", block("milestone 1"), nil, true},
		{"empty criterion", block("milestone: 1", "criterion:", "evidence: run 1"), nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ParseDemos(tt.body)
			if tt.wantBad {
				if len(got) != 1 || got[0].Err == nil {
					t.Fatalf("ParseDemos = %+v, want one malformed block", got)
				}
				return
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("ParseDemos (-want +got):\n%s", diff)
			}
		})
	}
}

// FuzzParseDemos: any comment body parses without panicking, and a
// well-formed block's fields are within bounds and its evidence key reads
// back the same evidence.
func FuzzParseDemos(f *testing.F) {
	f.Add("```aep-demo\nmilestone: 4\ncriterion: it works\nevidence: run 77\n```")
	f.Add("```aep-demo\nevidence: release v1\n```")
	f.Add("~~~aep-demo\nmilestone: #1\ncriterion: é\nevidence: deployment 9\n")
	f.Fuzz(func(t *testing.T, body string) {
		for _, d := range ParseDemos(body) {
			if d.Err != nil {
				continue
			}
			if d.Milestone <= 0 || d.Criterion == "" || len(d.Criterion) > maxDemoText {
				t.Fatalf("well-formed block out of bounds: %+v", d)
			}
			again, err := parseEvidence(d.Evidence.Key())
			if err != nil || again != d.Evidence {
				t.Fatalf("evidence %+v reads back as %+v (%v)", d.Evidence, again, err)
			}
		}
	})
}

// FuzzDemonstration: a milestone description's `demonstration:` parses
// without panicking, and a criterion a demo block repeats exactly counts
// as exact.
func FuzzDemonstration(f *testing.F) {
	f.Add("```yaml\nrisk: medium\ndemonstration: a report is exported\n```")
	f.Add("```yaml\ndemonstration: [1, 2]\n```")
	f.Add("no block")
	f.Fuzz(func(t *testing.T, description string) {
		spec, problems := workunit.ParseIncrement(description)
		if len(problems) > 0 || spec.Demonstration == "" || strings.ContainsAny(spec.Demonstration, "\r\n") {
			return
		}
		f := Facts{Milestone: 1, Criterion: spec.Demonstration}
		if why := ExactCriterion(f, Demo{Milestone: 1, Criterion: spec.Demonstration}); why != "" {
			t.Fatalf("the criterion itself was refused: %s", why)
		}
	})
}

func TestChoose(t *testing.T) {
	order := []string{sha("9"), sha("3"), sha("2"), sha("1")}
	tests := []struct {
		name          string
		merges, named []string
		want          string
	}{
		{"none", nil, nil, ""},
		{"newest merge", []string{sha("1"), sha("3"), sha("2")}, nil, sha("3")},
		{"owner names a later commit", []string{sha("1"), sha("2")}, []string{sha("9")}, sha("9")},
		{"owner names an older commit", []string{sha("3")}, []string{sha("1")}, sha("3")},
		{"a commit not on the branch is not preferred", []string{sha("a"), sha("2")}, []string{sha("b")}, sha("2")},
		{"none on the branch", []string{sha("a"), sha("b")}, nil, sha("a")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Choose(tt.merges, order, tt.named); got != tt.want {
				t.Errorf("Choose = %s, want %s", got, tt.want)
			}
		})
	}
}
