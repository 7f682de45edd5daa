package workunit

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/aepgate/aepgate/protocol/closurerules"
)

func contractBody(risk, class string, deps ...int) string {
	d := ""
	if len(deps) > 0 {
		d = "depends_on: ["
		for i, n := range deps {
			if i > 0 {
				d += ", "
			}
			d += fmt.Sprint(n)
		}
		d += "]\n"
	}
	return "```yaml\ngoal: g\nacceptance: [a]\nnon_goals: [n]\nrisk: " + risk + "\nclass: " + class + "\n" + d + "```\n"
}

// fixture is a milestone with stories #1 (product, depends on #2) and #2
// (contract, closed and judged done); the unit is #1.
func fixture() *Issue {
	m := &Milestone{Number: 1, Title: "M1", Open: true, Description: "```yaml\nrisk: medium\n```", Stories: []Story{
		{Number: 1, Open: true, Body: contractBody("medium", "product", 2)},
		{Number: 2, Open: false, Body: contractBody("low", "contract"), Closure: &closurerules.Verdict{Number: 2, State: closurerules.Done}},
	}}
	return &Issue{Number: 1, Title: "export", Open: true, Body: m.Stories[0].Body, Milestone: m}
}

func TestEvaluate(t *testing.T) {
	one := []Ref{{Number: 1}}
	tests := []struct {
		name   string
		refs   []Ref
		mutate func(u *Issue) *Issue
		want   []string
	}{
		{"valid", one, nil, nil},
		{"no refs", nil, nil, []string{"the pull request names no work unit: add a line `Work-unit: #N` (or a closing keyword such as `Fixes #N`) to its description"}},
		{"two refs", []Ref{{Number: 1}, {Number: 2}}, nil, []string{"the pull request names 2 work units (#1, #2); an attempt works on exactly one"}},
		{"other repo", []Ref{{Repo: "o/r", Number: 1}}, nil, []string{"o/r#1 is in another repository; the work unit must be an issue of this repository"}},
		{"missing", one, func(*Issue) *Issue { return nil }, []string{"#1 does not exist or the App cannot read it"}},
		{"unreadable", one, func(u *Issue) *Issue { return &Issue{Number: 1, Unreadable: "Resource not accessible by integration"} }, []string{`#1 cannot be read by the App (Resource not accessible by integration); grant the App "Issues: read" on this repository`}},
		{"pull request", one, func(u *Issue) *Issue { u.IsPullRequest = true; return u }, []string{"#1 is a pull request, not an issue; name the work unit's issue"}},
		{"closed unit", one, func(u *Issue) *Issue { u.Open = false; return u }, []string{"#1 is closed; an attempt needs an open work unit"}},
		{"no milestone", one, func(u *Issue) *Issue { u.Milestone = nil; return u }, []string{"#1 is in no milestone; a work unit is a story of a milestone (its product increment)"}},
		{"open dependency", one, func(u *Issue) *Issue { u.Milestone.Stories[1].Open = true; return u }, []string{"dependency #2 is still open; finish it before this unit"}},
		{"native blocker", one, func(u *Issue) *Issue {
			u.BlockedBy = []Dep{{Number: 9, Open: true}, {Number: 8, Closure: done8}, {Repo: "o/r", Number: 3}}
			return u
		}, []string{"#1 is blocked by #9, which is still open"}},
		{"blockers cut short", one, func(u *Issue) *Issue {
			u.BlockedBy = []Dep{{Number: 8, Closure: done8}}
			u.BlockersUnlisted = 3
			return u
		}, []string{"#1 is blocked by 3 more issues than the App reads (1); it cannot tell whether they are closed"}},
		{"unknown dependency", one, func(u *Issue) *Issue {
			u.Body = contractBody("medium", "product", 5)
			u.Milestone.Stories[0].Body = u.Body
			return u
		}, []string{`#1 depends_on #5, which is not a story of milestone "M1"`}},
		{"bad contract", one, func(u *Issue) *Issue { u.Body = "no yaml"; return u }, []string{"#1 contract: the issue body has no fenced yaml block (```yaml … ```) with the contract: goal, acceptance, non_goals, risk, class"}},
		{"understated tier", one, func(u *Issue) *Issue { u.Milestone.Description = "```yaml\nrisk: low\n```"; return u }, []string{`milestone "M1" declares risk low, which understates story #1 (risk medium)`}},
		{"no product", one, func(u *Issue) *Issue {
			u.Body = contractBody("medium", "housekeeping", 2)
			u.Milestone.Stories[0].Body = u.Body
			return u
		}, []string{`milestone "M1" has no product story; an increment needs at least one story of class product`}},
		{"cycle", one, func(u *Issue) *Issue {
			u.Milestone.Stories[1].BlockedBy = []Dep{{Number: 1, Open: true}}
			return u
		}, []string{`milestone "M1": dependency cycle #1 → #2 → #1`}},
		{"nine stories", one, func(u *Issue) *Issue {
			for i := 3; i <= 9; i++ {
				u.Milestone.Stories = append(u.Milestone.Stories, Story{Number: i, Body: contractBody("low", "product")})
			}
			return u
		}, []string{`milestone "M1" has 9 stories; an increment holds 1–8`}},
		{"truncated", one, func(u *Issue) *Issue { u.Milestone.Truncated = true; return u }, []string{`milestone "M1" has more than 2 stories; an increment holds 1–8`}},
		{"invalid sibling", one, func(u *Issue) *Issue { u.Milestone.Stories[1].Body = "none"; return u }, []string{`milestone "M1": the contracts of #2 are invalid; the increment cannot be checked until they are fixed`}},
		{"closed milestone and bad description", one, func(u *Issue) *Issue {
			u.Milestone.Open = false
			u.Milestone.Description = "```yaml\nrisk: [\n```"
			return u
		}, []string{`milestone "M1" is closed`, `milestone "M1" description: line 2: not valid YAML: did not find expected node content`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			u := fixture()
			if tt.mutate != nil {
				u = tt.mutate(u)
			}
			got := Evaluate(Input{Refs: tt.refs, Unit: u})
			if diff := cmp.Diff(tt.want, got.Reasons); diff != "" {
				t.Errorf("reasons (-want +got):\n%s", diff)
			}
			if got.OK != (len(tt.want) == 0) {
				t.Errorf("OK = %v with reasons %v", got.OK, got.Reasons)
			}
		})
	}
}

var done8 = &closurerules.Verdict{Number: 8, State: closurerules.Done}

// TestClosedDependencies: a closed dependency counts only when its closure
// counts as done; the reason names the closer and the owner's command.
func TestClosedDependencies(t *testing.T) {
	coordinator := closurerules.Facts{Number: 2, StateReason: closurerules.ReasonCompleted, Owners: []string{"olivia"},
		ClosedBy: closurerules.Actor{Login: "carl", Type: "User", Permission: "write"}, Risk: "medium"}
	judged := closurerules.Judge(coordinator, closurerules.DefaultRules())
	cancelled := &closurerules.Verdict{Number: 2, State: closurerules.Cancelled, Closer: "olivia"}
	tests := []struct {
		name    string
		story   *closurerules.Verdict
		blocker *closurerules.Verdict
		want    []string
	}{
		{"done", &closurerules.Verdict{Number: 2, State: closurerules.Done}, done8, nil},
		{"closed without evidence by a coordinator", &judged, done8, []string{judged.Blocking()}},
		{"cancelled by the owner", cancelled, done8, []string{"dependency #2 was cancelled (closed as not planned by olivia); drop the dependency or reopen it"}},
		{"no judgement on record", nil, done8, []string{"dependency #2 is closed, but aepgate holds no judgement of its closure (it was closed while the App did not see it); an owner says `/aep close <reason>` on #2, or reopens and closes it, to have it judged"}},
		{"native blocker without evidence", &closurerules.Verdict{Number: 2, State: closurerules.Done}, &closurerules.Verdict{Number: 8, State: closurerules.WithoutEvidence, Closer: "carl", Missing: "m", Command: "/aep close <reason>"},
			[]string{"dependency #8 was closed without evidence by carl: m; an owner says `/aep close <reason>` on #8 to count it done"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			u := fixture()
			u.Milestone.Stories[1].Closure = tt.story
			u.BlockedBy = []Dep{{Number: 8, Closure: tt.blocker}}
			got := Evaluate(Input{Refs: []Ref{{Number: 1}}, Unit: u})
			if diff := cmp.Diff(tt.want, got.Reasons); diff != "" {
				t.Errorf("reasons (-want +got):\n%s", diff)
			}
		})
	}
}

// TestClosedDependencyNegativeControl: the coordinator's closure judged
// with the old rule injected (any closure counts) releases the dependent,
// so the judgement is what keeps it blocked.
func TestClosedDependencyNegativeControl(t *testing.T) {
	f := closurerules.Facts{Number: 2, StateReason: closurerules.ReasonCompleted, Owners: []string{"olivia"},
		ClosedBy: closurerules.Actor{Login: "carl", Type: "User", Permission: "write"}, Risk: "medium"}
	broken := closurerules.DefaultRules()
	broken.Evidence = append(broken.Evidence, closurerules.EvidenceRule{Name: "closed-counts", Find: func(closurerules.Facts, closurerules.Rules) string { return "closed" }})
	for _, c := range []struct {
		rules  closurerules.Rules
		wantOK bool
	}{{closurerules.DefaultRules(), false}, {broken, true}} {
		v := closurerules.Judge(f, c.rules)
		u := fixture()
		u.Milestone.Stories[1].Closure = &v
		if got := Evaluate(Input{Refs: []Ref{{Number: 1}}, Unit: u}); got.OK != c.wantOK {
			t.Errorf("OK = %v, want %v (reasons %v)", got.OK, c.wantOK, got.Reasons)
		}
	}
}

func TestCheckIncrementEmpty(t *testing.T) {
	got := CheckIncrement(Milestone{Title: "E"})
	want := []string{`milestone "E" has no stories; an increment holds 1–8`}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestSelfDependencyCycle(t *testing.T) {
	m := Milestone{Title: "S", Stories: []Story{{Number: 4, Body: contractBody("low", "product", 4)}}}
	got := CheckIncrement(m)
	want := []string{`milestone "S": dependency cycle #4 → #4`}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
