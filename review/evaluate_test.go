package review

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// brief is the part of a Decision the table compares.
type brief struct {
	Outcome, Reason string
	Gate            string
	Fails           int
	Findings        []string
	Ignored         []string
}

func briefOf(d Decision) brief {
	b := brief{Outcome: d.Outcome, Reason: d.Reason, Fails: d.Fails}
	if d.OwnerGate != nil {
		b.Gate = d.OwnerGate.ID
	}
	for _, f := range d.Findings {
		s := f.LedgerID + " " + f.Status
		if f.Disposition != "" {
			s += " " + f.Disposition + " by " + f.By
		}
		b.Findings = append(b.Findings, s)
	}
	for _, ig := range d.Ignored {
		b.Ignored = append(b.Ignored, fmt.Sprintf("r%d c%d %s: %s", ig.ReviewID, ig.CommentID, ig.Author, ig.Reason))
	}
	return b
}

func with(in Input, reviews []Review, ds ...Disposition) Input {
	in.Reviews, in.Dispositions = reviews, ds
	return in
}

func TestEvaluateTiersAndBinding(t *testing.T) {
	med, high := fixture(RiskMedium), fixture(RiskHigh)
	passAtHead := []Review{rev(1, "ann", head, pass(), 1)}
	answered := func(in Input, choice string) Input {
		in.Answers = map[string]string{"audit-pr21-pass-cccccccccccc": choice}
		return in
	}
	tests := []struct {
		name string
		in   Input
		want brief
	}{
		{"low risk needs no audit", with(fixture(RiskLow), nil), brief{Outcome: OutcomeNotRequired, Reason: "Work unit risk is low, so no audit is required."}},
		{"no review", with(med, nil), brief{Outcome: OutcomeMissing,
			Reason: "No independent audit of cccccccccccc yet: a collaborator with write access who neither opened this pull request nor wrote, committed or pushed any of its commits submits a review with an aep-audit block at this head."}},
		{"medium: independent PASS at head", with(med, passAtHead), brief{Outcome: OutcomePassed, Reason: "Independent PASS by ann at cccccccccccc."}},
		{"high: PASS waits for the owner", with(high, passAtHead), brief{Outcome: OutcomeOwner, Gate: "audit-pr21-pass-cccccccccccc",
			Reason: "The owner decides: work unit risk is high and ann's independent PASS at cccccccccccc needs the owner's approval; the owner answers gate audit-pr21-pass-cccccccccccc."}},
		{"high: owner approved", with(answered(high, "approve"), passAtHead), brief{Outcome: OutcomePassed,
			Reason: "The owner approved the change at cccccccccccc (gate audit-pr21-pass-cccccccccccc): work unit risk is high and ann's independent PASS at cccccccccccc needs the owner's approval."}},
		{"high: owner rejected", with(answered(high, "reject"), passAtHead), brief{Outcome: OutcomeFailed,
			Reason: "The owner rejected the change at cccccccccccc (gate audit-pr21-pass-cccccccccccc): work unit risk is high and ann's independent PASS at cccccccccccc needs the owner's approval."}},
		{"unknown risk is high", with(fixture(""), passAtHead), brief{Outcome: OutcomeOwner, Gate: "audit-pr21-pass-cccccccccccc",
			Reason: `The owner decides: work unit risk is "", treated as high and ann's independent PASS at cccccccccccc needs the owner's approval; the owner answers gate audit-pr21-pass-cccccccccccc.`}},
		{"stale: PASS for an older head", with(med, []Review{rev(1, "ann", shaB, pass(), 1)}), brief{Outcome: OutcomeStale,
			Reason:  "audit is for " + shaB + ", head is " + head,
			Ignored: []string{"r1 c0 ann: for another commit (bbbbbbbbbbbb), so its verdict does not apply to the head; its findings stay in the ledger"}}},
		{"newest counting review decides", with(med, []Review{rev(2, "ann", head, pass(), 1), rev(3, "bob", head, &Audit{SchemaVersion: 1, WorkUnit: "#42",
			Verdict: VerdictNeedsEvidence, Summary: "s", EvidenceRequests: []string{"the CI run of go test at this head"}}, 2)}),
			brief{Outcome: OutcomeNeedsEvidence, Reason: "The auditor bob needs evidence before judging cccccccccccc: the CI run of go test at this head. Add it and ask for a re-audit."}},
		{"FAIL at head", with(med, []Review{rev(4, "ann", head, failing(finding("F1", "tokens are checked")), 1)}), brief{Outcome: OutcomeFailed, Fails: 1,
			Reason:   "The audit by ann at cccccccccccc is a FAIL with 1 finding; fix them, or propose a disposition of each with the dispose command, and ask for a re-audit.",
			Findings: []string{"F1@r4 open"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, briefOf(Evaluate(tt.in)), cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestEvaluateRecordsTheBundle(t *testing.T) {
	r := rev(1, "ann", head, pass(), 1)
	d := Evaluate(with(fixture(RiskMedium), []Review{r}))
	if d.AuditedSHA != head || d.BundleID != r.Bundle.Identity() || d.Review == nil || d.Review.ID != 1 || d.Audit == nil {
		t.Errorf("decision %+v does not record the audited commit and bundle %s", d, r.Bundle.Identity())
	}
}

func TestEvaluateWhoCounts(t *testing.T) {
	in := fixture(RiskMedium)
	p := pass()
	byActor := func(a Actor) Review { r := rev(9, a.Login, head, p, 1); r.Author = a; return r }
	tweak := func(f func(*Review)) Review { r := rev(9, "ann", head, p, 1); f(&r); return r }
	tests := []struct {
		name     string
		r        Review
		auditors []string
		reason   string
	}{
		{"pull request author", byActor(Actor{"EXEC", "User"}), nil, "EXEC opened this pull request; the author cannot audit their own change"},
		{"commit author by login", byActor(Actor{"exec", "User"}), nil, "exec opened this pull request; the author cannot audit their own change"},
		{"committer by login", byActor(Actor{"Carl", "User"}), nil, "Carl is the committer of commit aaaaaaaaaaaa in this pull request; whoever wrote the change cannot audit it"},
		{"author by no-reply e-mail", byActor(Actor{"dana", "User"}), nil, "dana is the author of commit cccccccccccc in this pull request; whoever wrote the change cannot audit it"},
		{"committer by name", byActor(Actor{"eve", "User"}), nil, "eve is the committer of commit cccccccccccc in this pull request; whoever wrote the change cannot audit it"},
		{"bot by type", byActor(Actor{"helper", "Bot"}), nil, "helper is a bot; a bot acting for the author cannot be told apart from an independent one, so bots never audit"},
		{"bot by login", byActor(Actor{"audit[bot]", "User"}), nil, "audit[bot] is a bot; a bot acting for the author cannot be told apart from an independent one, so bots never audit"},
		{"organization", byActor(Actor{"acme", "Organization"}), nil, "acme is a Organization account; only a User account audits"},
		{"deleted account", byActor(Actor{"", ""}), nil, "its author is unknown (a deleted account)"},
		{"not a listed auditor", rev(9, "ann", head, p, 1), []string{"bob", "zed"}, "ann is not listed in auditors (bob, zed)"},
		{"edited", tweak(func(r *Review) { r.Edited = true }), nil, "edited after it was submitted, so it counts for nothing; submit a new review instead"},
		{"dismissed", tweak(func(r *Review) { r.State = StateDismissed }), nil, "dismissed, so it no longer counts"},
		{"pending", tweak(func(r *Review) { r.State = "PENDING" }), nil, `its state is "PENDING"; only a submitted review counts`},
		{"no block", tweak(func(r *Review) { r.Body = "LGTM, ship it" }), nil, "no aep-audit block, so it is an ordinary review, not an audit"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := with(in, []Review{tt.r})
			in.Auditors = tt.auditors
			d := Evaluate(in)
			if d.Outcome != OutcomeMissing || len(d.Ignored) != 1 || d.Ignored[0].Reason != tt.reason || d.Ignored[0].ReviewID != 9 {
				t.Errorf("got %s, ignored %+v; want missing, ignored because %q", d.Outcome, d.Ignored, tt.reason)
			}
		})
	}
	t.Run("listed auditor, any case", func(t *testing.T) {
		in := with(in, []Review{rev(9, "Ann", head, p, 1)})
		in.Auditors = []string{"bob", "ANN"}
		if d := Evaluate(in); d.Outcome != OutcomePassed {
			t.Errorf("got %s: %s", d.Outcome, d.Reason)
		}
	})
	t.Run("approved or changes requested count alike", func(t *testing.T) {
		for _, st := range []string{StateApproved, StateChangesRequested} {
			r := rev(9, "ann", head, p, 1)
			r.State = st
			if d := Evaluate(with(in, []Review{r})); d.Outcome != OutcomePassed {
				t.Errorf("%s: got %s", st, d.Outcome)
			}
		}
	})
}

func TestEvaluateInvalid(t *testing.T) {
	in := fixture(RiskMedium)
	badQuote := pass()
	badQuote.Verification[0].Evidence = []Evidence{{"src/auth.go", "func  Check("}}
	env := pass()
	env.Verification[0].Evidence = []Evidence{{".env", "TOKEN=abc"}}
	otherUnit := pass()
	otherUnit.WorkUnit = "#41"
	unread := rev(5, "ann", head, pass(), 1)
	unread.Bundle, unread.BundleErr = nil, "GitHub answered 502"
	unknown := pass(judge("F7@r3", Agree))
	tests := []struct {
		name string
		r    Review
		want []string
	}{
		{"quote that does not occur", rev(5, "ann", head, badQuote, 1), []string{`$.verification[0].evidence[0].quote: does not occur verbatim in "src/auth.go" at the audited commit (one contiguous run; whitespace and line endings count, nothing is normalised)`}},
		{"quote from .env", func() Review {
			r := rev(5, "ann", head, env, 1)
			r.Bundle = Bundle{{Path: ".env", Content: []byte("TOKEN=abc\n")}}
			return r
		}(),
			[]string{`$.verification[0].evidence[0].path: ".env" is a private or credential path (.env*); evidence never quotes it`}},
		{"bundle unreadable", unread, []string{"$: the evidence could not be read at cccccccccccc: GitHub answered 502"}},
		{"another work unit", rev(5, "ann", head, otherUnit, 1), []string{"$.work_unit: names #41, but this pull request is an attempt at work unit #42"}},
		{"judges an unknown finding", rev(5, "ann", head, unknown, 1), []string{"$.verdicts[0].finding_id: F7@r3 is not a finding of an earlier counting audit of this pull request"}},
		{"schema", func() Review { r := rev(5, "ann", head, pass(), 1); r.Body = fenced(`{"schema_version": 1}`); return r }(),
			[]string{"$.work_unit: is required", "$.verdict: is required", "$.summary: is required"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := Evaluate(with(in, []Review{tt.r}))
			var got []string
			for _, p := range d.Problems {
				got = append(got, p.Error())
			}
			if d.Outcome != OutcomeInvalid {
				t.Errorf("outcome %s (%s); want invalid", d.Outcome, d.Reason)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
	t.Run("reason", func(t *testing.T) {
		d := Evaluate(with(in, []Review{rev(5, "ann", head, badQuote, 1)}))
		want := `Review 5 by ann breaks the audit contract (1 problem, first $.verification[0].evidence[0].quote: does not occur verbatim in "src/auth.go" at the audited commit (one contiguous run; whitespace and line endings count, nothing is normalised)); the auditor submits a new review that fixes it.`
		if d.Reason != want {
			t.Errorf("Reason = %q\nwant %q", d.Reason, want)
		}
	})
}
