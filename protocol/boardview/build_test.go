package boardview

import (
	"fmt"
	"testing"
	"time"

	"github.com/aepgate/aepgate/protocol/workunit"
	"github.com/google/go-cmp/cmp"
)

var t0 = time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)

func contract(deps ...int) string {
	d := ""
	if len(deps) > 0 {
		d = fmt.Sprintf("depends_on: %v\n", deps)
	}
	return "```yaml\ngoal: g\nacceptance: [a]\nnon_goals: []\nrisk: medium\nclass: product\n" + d + "```\n"
}

func pull(n int, state string) Pull {
	return Pull{Number: n, Title: fmt.Sprintf("Attempt %d", n), URL: fmt.Sprintf("https://github.test/acme/app/pull/%d", n), State: state, Head: fmt.Sprintf("%040d", n)}
}

func issue(n int, pulls ...Pull) Issue {
	return Issue{Number: n, Title: fmt.Sprintf("Story %d", n), URL: fmt.Sprintf("https://github.test/acme/app/issues/%d", n), Open: true, Body: contract(), Pulls: pulls}
}

func input(facts map[int]Fact, issues ...Issue) Input {
	return Input{Repo: "acme/app", URL: "https://github.test/acme/app", AttemptsPerUnit: 1, LanesPerIncrement: 2,
		Stall: StallRule{SuspectAfter: 15 * time.Minute, StalledAfter: 30 * time.Minute}, Now: t0, Facts: facts,
		Milestones: []Milestone{{Number: 1, Title: "M1", Open: true, Issues: issues}}}
}

func TestBuildStates(t *testing.T) {
	merged := pull(30, "MERGED")
	merged.MergeSHA, merged.MergedAt = "abc", t0
	tests := []struct {
		name       string
		is         Issue
		facts      map[int]Fact
		want       State
		wantReason string
	}{
		{"no attempt", issue(1), nil, StateOpen, ""},
		{"closed attempt only", issue(1, pull(10, "CLOSED")), nil, StateOpen, ""},
		{"open attempt, not yet evaluated", issue(1, pull(10, "OPEN")), nil, StateInProgress, ""},
		{"in review", issue(1, pull(10, "OPEN")), map[int]Fact{10: {State: StateInReview}}, StateInReview, ""},
		{"blocked", issue(1, pull(10, "OPEN")), map[int]Fact{10: {State: StateBlocked, Reason: "dependency #2 is still open"}}, StateBlocked, "dependency #2 is still open"},
		{"held beats blocked", issue(1, pull(10, "OPEN"), pull(11, "OPEN")), map[int]Fact{10: {State: StateHeld, Reason: "HOLD"}, 11: {State: StateBlocked}}, StateHeld, "HOLD"},
		{"over the attempts limit", issue(1, pull(10, "OPEN"), pull(11, "OPEN")), nil, StateBlocked, "#11 is over limits.attempts_per_unit"},
		{"merged", issue(1, pull(10, "CLOSED"), merged), nil, StateMerged, ""},
		{"certified", func() Issue { i := issue(1, merged); i.Certified = true; return i }(), nil, StateCertified, ""},
		{"closed unmerged", func() Issue { i := issue(1); i.Open = false; return i }(), nil, StateBlocked, "closed, but aepgate holds no judgement of its closure (it was closed while the App did not see it); reopen and close it, or the owner's close command on it, has it judged"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := Build(input(tt.facts, tt.is))
			s := b.Increments[0].Stories[0]
			if s.State != tt.want || s.Reason != tt.wantReason {
				t.Errorf("state = %q (%q), want %q (%q)", s.State, s.Reason, tt.want, tt.wantReason)
			}
		})
	}
}

func TestBuildWIPAndHealth(t *testing.T) {
	facts := map[int]Fact{
		10: {LastEvidence: t0.Add(-5 * time.Minute)},
		11: {LastEvidence: t0.Add(-20 * time.Minute)},
		12: {LastEvidence: t0.Add(-time.Hour)},
	}
	b := Build(input(facts, issue(1, pull(10, "OPEN")), issue(2, pull(11, "OPEN")), issue(3, pull(12, "OPEN"))))
	inc := b.Increments[0]
	var got []string
	for _, s := range inc.Stories {
		a := s.Attempts[0]
		got = append(got, fmt.Sprintf("#%d %s %s %q", a.PR, s.State, a.Health, a.OverLimit))
	}
	want := []string{`#10 in progress healthy ""`, `#11 in progress suspect ""`, `#12 blocked stalled "limits.lanes_per_increment"`}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("attempts (-want +got):\n%s", diff)
	}
	if len(inc.Problems) != 1 {
		t.Errorf("problems = %q, want one", inc.Problems)
	}
	wantInbox := []InboxItem{{Kind: "stall", Subject: "#12 Attempt 12", URL: "https://github.test/acme/app/pull/12", Since: t0.Add(-time.Hour),
		Question: "No new evidence (push, workflow run or report) on the attempt at work unit #3 since 2026-12-01T11:00:00Z."}}
	if diff := cmp.Diff(wantInbox, b.Inbox); diff != "" {
		t.Errorf("inbox (-want +got):\n%s", diff)
	}
}

func TestBuildInboxOrderAndDedup(t *testing.T) {
	hold := InboxItem{Kind: "hold", Subject: "project", Question: "HOLD: wait", Reply: "/aep resume", URL: "https://github.test/acme/app/issues/99#c1", Since: t0.Add(-2 * time.Hour)}
	gate := InboxItem{Kind: "gate", Subject: "#1 Story 1", Question: "Ship?", Choices: []string{"yes", "no"}, Reply: "/aep resolve g1 <choice>", URL: "https://github.test/acme/app/pull/10#c2", Since: t0.Add(-3 * time.Hour)}
	facts := map[int]Fact{10: {Inbox: []InboxItem{hold, gate}}, 11: {Inbox: []InboxItem{hold}}}
	b := Build(input(facts, issue(1, pull(10, "OPEN")), issue(2, pull(11, "OPEN"))))
	if diff := cmp.Diff([]InboxItem{gate, hold}, b.Inbox); diff != "" {
		t.Errorf("inbox (-want +got):\n%s", diff)
	}
}

func TestBuildOrderAndCertificates(t *testing.T) {
	cert := func(unit, pr int, at time.Time) Issue {
		p := pull(pr, "MERGED")
		p.MergeSHA, p.MergedAt = fmt.Sprintf("sha%d", pr), at
		i := issue(unit, p)
		i.Certified = true
		return i
	}
	in := input(nil, cert(1, 10, t0.Add(-time.Hour)), cert(2, 11, t0))
	in.Milestones = append(in.Milestones, Milestone{Number: 2, Title: "M2", Open: false, Issues: []Issue{cert(3, 12, t0.Add(-2*time.Hour))}},
		Milestone{Number: 3, Title: "M3", Open: true})
	b := Build(in)
	var order []int
	for _, inc := range b.Increments {
		order = append(order, inc.Number)
	}
	if diff := cmp.Diff([]int{3, 1, 2}, order); diff != "" {
		t.Errorf("increment order (-want +got):\n%s", diff)
	}
	want := []Certificate{
		{Unit: 2, PR: 11, SHA: "sha11", URL: "https://github.test/acme/app/commit/sha11", At: t0},
		{Unit: 1, PR: 10, SHA: "sha10", URL: "https://github.test/acme/app/commit/sha10", At: t0.Add(-time.Hour)},
		{Unit: 3, PR: 12, SHA: "sha12", URL: "https://github.test/acme/app/commit/sha12", At: t0.Add(-2 * time.Hour)},
	}
	if diff := cmp.Diff(want, b.Certificates); diff != "" {
		t.Errorf("certificates (-want +got):\n%s", diff)
	}
}

func TestBuildDependsOn(t *testing.T) {
	i2 := issue(2)
	i2.Body = contract(1)
	b := Build(input(nil, issue(1), i2))
	if got := b.Increments[0].Stories[1].DependsOn; !cmp.Equal(got, []int{1}) {
		t.Errorf("DependsOn = %v, want [1]", got)
	}
}

// TestBuildKeptContract: a story whose kept contract differs from its body
// shows the kept risk and the tampering; without one, the body's.
func TestBuildKeptContract(t *testing.T) {
	kept := issue(2)
	kept.Body = "```yaml\ngoal: g\nacceptance: [a]\nnon_goals: []\nrisk: low\nclass: product\n```\n"
	kept.Kept = &workunit.Kept{Contract: workunit.Contract{Goal: "g", Acceptance: []string{"a"}, NonGoals: []string{}, Risk: workunit.RiskHigh, Class: workunit.ClassProduct},
		Ignored: []string{"risk lowered from high to low"}, EditedBy: "mallory"}
	b := Build(input(nil, issue(1), kept))
	type shown struct{ Risk, Tamper string }
	var got []shown
	for _, s := range b.Increments[0].Stories {
		got = append(got, shown{s.Risk, s.Tamper})
	}
	want := []shown{{"medium", ""}, {"high", kept.Kept.Tamper()}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("stories (-want +got):\n%s", diff)
	}
}
