package position

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestProblemError(t *testing.T) {
	for _, tc := range []struct {
		name string
		p    Problem
		want string
	}{
		{"file line column field", Problem{File: ".github/aepgate.yml", Line: 3, Column: 5, Field: "owners[0]", Message: "must be a login"},
			".github/aepgate.yml:3:5: owners[0]: must be a login"},
		{"file line", Problem{File: "progress.json", Line: 7, Field: "phases", Message: "m"}, "progress.json:7: phases: m"},
		{"file only", Problem{File: "f.yml", Message: "too large"}, "f.yml: too large"},
		{"column without line is left out", Problem{File: "f.yml", Column: 4, Message: "m"}, "f.yml: m"},
		{"in a body", Problem{Line: 4, Field: "risk", Message: "must be one of low"}, "line 4: risk: must be one of low"},
		{"in a block", Problem{Block: 2, Line: 5, Field: `"x"`, Message: "appears twice"}, `line 5: "x": appears twice`},
		{"no line", Problem{Field: "goal", Message: "is required"}, "goal: is required"},
		{"message only", Problem{Message: "no block"}, "no block"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, tc.p.Error()); diff != "" {
				t.Errorf("Error() (-want +got):\n%s", diff)
			}
			if got := tc.p.String(); got != tc.want {
				t.Errorf("String() = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestProblemsError(t *testing.T) {
	ps := Problems{{File: "a", Line: 1, Message: "x"}, {File: "a", Line: 2, Field: "f", Message: "y"}}
	if got, want := ps.Error(), "a:1: x\na:2: f: y"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
}
