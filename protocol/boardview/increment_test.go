package boardview

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/aepgate/aepgate/protocol/closurerules"
	"github.com/aepgate/aepgate/protocol/incrementrules"
)

// stageView is what TestBuildIncrementStage compares.
type stageView struct {
	Stage         incrementrules.Stage
	Judged        bool
	Waiting       []string
	AcceptCommand string
	Certificate   *IncrementCertificate
}

func TestBuildIncrementStage(t *testing.T) {
	sum := strings.Repeat("e", 64)
	cand := strings.Repeat("c", 40)
	done := Closure{Verdict: closurerules.Verdict{Number: 1, State: closurerules.Done, Closer: "olivia", Evidence: "closed by the owner olivia"}}
	judged := func(f IncrementFact) map[int]IncrementFact { f.Milestone = 1; return map[int]IncrementFact{1: f} }
	tests := []struct {
		name       string
		is         Issue
		closures   map[int]Closure
		increments map[int]IncrementFact
		want       stageView
	}{
		{"building: not judged, a story open", issue(1), nil, nil,
			stageView{Stage: incrementrules.Building, Waiting: []string{"story #1 is not done yet (open, or its closure not judged)"}}},
		{"building: not judged, closed without evidence", closedIssue(1), map[int]Closure{1: carlCloses(closurerules.DefaultRules())}, nil,
			stageView{Stage: incrementrules.Building, Waiting: []string{"story #1 was closed without evidence by carl: no merged attempt carries an aepgate/certificate; the closer is not the owner (carl is not listed in owners (olivia)); an owner says `/aep close <reason>` on #1 to count it done"}}},
		{"integrating: not judged, every story done", closedIssue(1), map[int]Closure{1: done}, nil,
			stageView{Stage: incrementrules.Integrating, Waiting: []string{"the App has not judged the integrated candidate yet (its next judgement of the milestone does)"}}},
		{"integrating: judged, readback missing", closedIssue(1), map[int]Closure{1: done},
			judged(IncrementFact{Stage: incrementrules.Integrating, Candidate: cand, Missing: []string{"waiting for a run of ci at cccccccccccc"}, RunID: 7, AppSlug: "aepgate"}),
			stageView{Stage: incrementrules.Integrating, Judged: true, Waiting: []string{"waiting for a run of ci at cccccccccccc"}}},
		{"accepting: judged, owner's acceptance missing", closedIssue(1), map[int]Closure{1: done},
			judged(IncrementFact{Stage: incrementrules.Accepting, Candidate: cand, Missing: []string{"high risk: an owner accepts"}, AcceptCommand: "/aep accept 1 " + cand, RunID: 8, AppSlug: "aepgate"}),
			stageView{Stage: incrementrules.Accepting, Judged: true, Waiting: []string{"high risk: an owner accepts"}, AcceptCommand: "/aep accept 1 " + cand}},
		{"complete: judged, certificate linked", closedIssue(1), map[int]Closure{1: done},
			judged(IncrementFact{Stage: incrementrules.Complete, Candidate: cand, SHA256: sum, RunID: 9, AppSlug: "aepgate", AcceptCommand: "/aep accept 1 " + cand}),
			stageView{Stage: incrementrules.Complete, Judged: true, Certificate: &IncrementCertificate{SHA256: sum, Integrated: cand,
				URL: "https://github.test/acme/app/runs/9", Fetch: "aepgate certificate fetch --repo acme/app --sha " + cand + " --increment 1 --app-slug aepgate"}}},
		{"complete without a run: no link", closedIssue(1), map[int]Closure{1: done},
			judged(IncrementFact{Stage: incrementrules.Complete, Candidate: cand, SHA256: sum, AppSlug: "aepgate"}),
			stageView{Stage: incrementrules.Complete, Judged: true}},
		{"the judgement wins over the stories", issue(1), nil,
			judged(IncrementFact{Stage: incrementrules.Building, Missing: []string{"a", "b", "c", "d", "e", "f", "g"}}),
			stageView{Stage: incrementrules.Building, Judged: true, Waiting: []string{"a", "b", "c", "d", "e", "and 2 more"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := input(nil, tt.is)
			in.Closures, in.Increments = tt.closures, tt.increments
			inc := Build(in).Increments[0]
			got := stageView{inc.Stage, inc.Judged, inc.Waiting, inc.AcceptCommand, inc.Certificate}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("increment stage (-want +got):\n%s", diff)
			}
		})
	}
}

// TestBuildIncrementStageFollowsClosureRule: a coordinator's closure
// without evidence keeps a not yet judged increment building; the
// negative control injects the old rule (every closure counts) and the
// same closure moves it on to integrating, so the stage does come from
// the closure rule.
func TestBuildIncrementStageFollowsClosureRule(t *testing.T) {
	tests := []struct {
		name  string
		rules closurerules.Rules
		want  incrementrules.Stage
	}{
		{"the closure rule", closurerules.DefaultRules(), incrementrules.Building},
		{"negative control: every closure counts", anyClosureCounts(), incrementrules.Integrating},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := input(nil, closedIssue(1))
			in.Closures = map[int]Closure{1: carlCloses(tt.rules)}
			if got := Build(in).Increments[0].Stage; got != tt.want {
				t.Errorf("stage = %s, want %s", got, tt.want)
			}
		})
	}
}

// TestFactOf: the board's fact carries the verdict's stage, what it lacks
// and, only when complete, the certificate's SHA-256.
func TestFactOf(t *testing.T) {
	v := incrementrules.Verdict{Milestone: 3, Stage: incrementrules.Accepting, Tier: "high", Candidate: "abc", SHA256: "ignored",
		Missing: []incrementrules.Missing{{Rule: "owner-acceptance", What: "high risk", Action: true}}, AcceptCommand: "/aep accept 3 abc"}
	got := FactOf(v, 12, "aepgate")
	want := IncrementFact{Milestone: 3, Stage: incrementrules.Accepting, Tier: "high", Candidate: "abc", Missing: []string{"high risk"},
		AcceptCommand: "/aep accept 3 abc", RunID: 12, AppSlug: "aepgate"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("FactOf (-want +got):\n%s", diff)
	}
	v.Stage = incrementrules.Complete
	if got := FactOf(v, 12, "aepgate"); got.SHA256 != "ignored" {
		t.Errorf("complete: SHA256 = %q", got.SHA256)
	}
}
