package boardview

import (
	"testing"

	"github.com/aepgate/aepgate/protocol/closurerules"
	"github.com/google/go-cmp/cmp"
)

// carlCloses is story #1 closed by the coordinator carl with no evidence,
// judged by rules.
func carlCloses(rules closurerules.Rules) Closure {
	v := closurerules.Judge(closurerules.Facts{Number: 1, StateReason: closurerules.ReasonCompleted, Owners: []string{"olivia"}, Risk: "medium",
		ClosedBy: closurerules.Actor{Login: "carl", Type: "User", Permission: "write"}}, rules)
	return Closure{Verdict: v, ClosedAt: t0}
}

// anyClosureCounts is the old rule injected: every closure counts as done.
func anyClosureCounts() closurerules.Rules {
	r := closurerules.DefaultRules()
	r.Evidence = append(r.Evidence, closurerules.EvidenceRule{Name: "closed-counts", Find: func(closurerules.Facts, closurerules.Rules) string { return "closed" }})
	return r
}

func closedIssue(n int, pulls ...Pull) Issue {
	is := issue(n, pulls...)
	is.Open = false
	return is
}

func TestBuildClosedStates(t *testing.T) {
	merged := pull(30, "MERGED")
	done := Closure{Verdict: closurerules.Verdict{Number: 1, State: closurerules.Done, Closer: "olivia", Evidence: "closed by the owner olivia"}}
	cancelled := Closure{Verdict: closurerules.Verdict{Number: 1, State: closurerules.Cancelled, Closer: "olivia", Missing: "the owner closed it as not_planned"}}
	tests := []struct {
		name       string
		is         Issue
		c          *Closure
		want       State
		wantReason string
	}{
		{"closed without evidence", closedIssue(1), ptr(carlCloses(closurerules.DefaultRules())), StateBlocked,
			"closed without evidence by carl: no merged attempt carries an aepgate/certificate; the closer is not the owner (carl is not listed in owners (olivia)); an owner says `/aep close <reason>` on #1 to count it done"},
		{"a merged attempt does not make it done", closedIssue(1, merged), ptr(carlCloses(closurerules.DefaultRules())), StateBlocked,
			"closed without evidence by carl: no merged attempt carries an aepgate/certificate; the closer is not the owner (carl is not listed in owners (olivia)); an owner says `/aep close <reason>` on #1 to count it done"},
		{"merged, evidence on the way", closedIssue(1, merged), &Closure{Verdict: carlCloses(closurerules.DefaultRules()).Verdict, AwaitsEvidence: true}, StateMerged, ""},
		{"a certified label alone is no evidence", func() Issue { i := closedIssue(1, merged); i.Certified = true; return i }(), ptr(carlCloses(closurerules.DefaultRules())), StateBlocked,
			"closed without evidence by carl: no merged attempt carries an aepgate/certificate; the closer is not the owner (carl is not listed in owners (olivia)); an owner says `/aep close <reason>` on #1 to count it done"},
		{"done by the owner", closedIssue(1), &done, StateDone, "closed by the owner olivia"},
		{"done and certified", func() Issue { i := closedIssue(1, merged); i.Certified = true; return i }(), &done, StateCertified, ""},
		{"cancelled", closedIssue(1), &cancelled, StateCancelled, "the owner closed it as not_planned"},
		{"negative control: any closure counts", closedIssue(1), ptr(carlCloses(anyClosureCounts())), StateDone, "closed"},
		{"merged under an override, owing its retro-audit", closedIssue(1, merged), &Closure{Verdict: closurerules.Verdict{Number: 1, State: closurerules.RetroOwed, Closer: "olivia",
			Missing: "#30 was merged at b under an override (aepgate/merge) and owes a retro-audit", Command: "/aep waive <reason>"}}, StateBlocked,
			"merged under an override, not done: #30 was merged at b under an override (aepgate/merge) and owes a retro-audit"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := input(nil, tt.is)
			if tt.c != nil {
				in.Closures = map[int]Closure{1: *tt.c}
			}
			s := Build(in).Increments[0].Stories[0]
			if diff := cmp.Diff([2]string{string(tt.want), tt.wantReason}, [2]string{string(s.State), s.Reason}); diff != "" {
				t.Errorf("state (-want +got):\n%s", diff)
			}
		})
	}
}

// TestClosedWithoutEvidenceOnBoard: story #1 closed by carl without
// evidence is listed in the inbox (once) and holds its lane, so the
// attempts of #2 and #3 exceed lanes_per_increment 2 by one. The negative
// control judges it with the old rule (any closure counts as done): no
// inbox item, and the lane is free.
func TestClosedWithoutEvidenceOnBoard(t *testing.T) {
	tests := []struct {
		name      string
		rules     closurerules.Rules
		wantInbox []string
		wantProbs []string
	}{
		{"closure rule", closurerules.DefaultRules(), []string{"closure work unit #1 /aep close <reason>"},
			[]string{"#12 exceeds limits.lanes_per_increment; open within it: work unit #1 (closed without evidence by carl), #10 (work unit #2)"}},
		{"negative control: any closure counts", anyClosureCounts(), nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := input(nil, closedIssue(1), issue(2, pull(10, "OPEN")), issue(3, pull(12, "OPEN")))
			in.Closures = map[int]Closure{1: carlCloses(tt.rules)}
			b := Build(in)
			var inbox []string
			for _, it := range b.Inbox {
				inbox = append(inbox, it.Kind+" "+it.Subject+" "+it.Reply)
			}
			if diff := cmp.Diff(tt.wantInbox, inbox); diff != "" {
				t.Errorf("inbox (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.wantProbs, b.Increments[0].Problems); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
		})
	}
}

func ptr[T any](v T) *T { return &v }

// TestNeedsReviewOnBoard: under closure.final: owner, story #1 certified
// and closed by the coordinator carl is blocked as needs-review, waiting
// for the owner's closure, with an inbox item naming the owner's command;
// the negative control (the owner-final rule removed) shows it done.
func TestNeedsReviewOnBoard(t *testing.T) {
	facts := closurerules.Facts{Number: 1, StateReason: closurerules.ReasonCompleted, Owners: []string{"olivia"}, Risk: "high", Final: closurerules.FinalOwner,
		ClosedBy: closurerules.Actor{Login: "carl", Type: "User", Permission: "write"},
		Attempts: []closurerules.Attempt{{PR: 30, MergeSHA: "m1", CertificateSHA256: "c0ffee"}}}
	noFinal := closurerules.DefaultRules()
	noFinal.OwnerFinal = false
	tests := []struct {
		name       string
		rules      closurerules.Rules
		want       State
		wantReason string
		wantInbox  []string
	}{
		{"closure.final: owner", closurerules.DefaultRules(), StateBlocked,
			"needs-review: waiting for the owner's closure (certificate c0ffee of #30 at m1; closed by carl); the owner closes #1 or says `/aep close <reason>` on it",
			[]string{"needs-review work unit #1 /aep close <reason>"}},
		{"negative control: owner-final removed", noFinal, StateDone, "certificate c0ffee of #30 at m1", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := input(nil, closedIssue(1, pull(30, "MERGED")))
			in.Closures = map[int]Closure{1: {Verdict: closurerules.Judge(facts, tt.rules), ClosedAt: t0}}
			b := Build(in)
			s := b.Increments[0].Stories[0]
			if diff := cmp.Diff([2]string{string(tt.want), tt.wantReason}, [2]string{string(s.State), s.Reason}); diff != "" {
				t.Errorf("state (-want +got):\n%s", diff)
			}
			var inbox []string
			for _, it := range b.Inbox {
				inbox = append(inbox, it.Kind+" "+it.Subject+" "+it.Reply)
			}
			if diff := cmp.Diff(tt.wantInbox, inbox); diff != "" {
				t.Errorf("inbox (-want +got):\n%s", diff)
			}
		})
	}
}
