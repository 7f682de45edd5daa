package review

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// staleA is how the fixtures' review 1 at shaA is ignored.
const staleA = "r1 c0 ann: for another commit (aaaaaaaaaaaa), so its verdict does not apply to the head; its findings stay in the ledger"

func TestEvaluateLedger(t *testing.T) {
	med := fixture(RiskMedium)
	f1 := finding("F1", "tokens are checked")
	refute := Evidence{"src/auth.go", "return token != \"\""}
	failA := rev(1, "ann", shaA, failing(f1), 1)
	tests := []struct {
		name string
		in   Input
		want brief
	}{
		{"fixed, then the auditor agrees", with(med, []Review{failA, rev(2, "ann", head, pass(judge("F1@r1", Agree)), 10)}, dispose(100, "exec", "F1@r1", "fixed", 5)),
			brief{Outcome: OutcomePassed, Reason: "Independent PASS by ann at cccccccccccc.", Fails: 1, Findings: []string{"F1@r1 closed fixed by ann"}, Ignored: []string{staleA}}},
		{"another auditor may agree", with(med, []Review{failA, rev(2, "bob", head, pass(judge("F1@r1", Agree)), 10)}, dispose(100, "exec", "F1@r1", "outside_scope", 5)),
			brief{Outcome: OutcomePassed, Reason: "Independent PASS by bob at cccccccccccc.", Fails: 1, Findings: []string{"F1@r1 closed outside_scope by bob"}, Ignored: []string{staleA}}},
		{"a disposition alone closes nothing", with(med, []Review{failA}, dispose(100, "exec", "F1@r1", "fixed", 5)),
			brief{Outcome: OutcomeStale, Reason: "audit is for " + shaA + ", head is " + head, Fails: 1, Findings: []string{"F1@r1 proposed fixed by exec"},
				Ignored: []string{staleA}}},
		{"a PASS that ignores an open finding is invalid", with(med, []Review{failA, rev(2, "ann", head, pass(), 10)}, dispose(100, "exec", "F1@r1", "fixed", 5)),
			brief{Outcome: OutcomeInvalid, Fails: 1, Findings: []string{"F1@r1 proposed fixed by exec"},
				Reason: "Review 2 by ann breaks the audit contract (1 problem, first $.verdict: a PASS leaves F1@r1 (high) open; judge it in verdicts: AGREE with its disposition, or DISAGREE_EVIDENCE with evidence that refutes it); the auditor submits a new review that fixes it.", Ignored: []string{staleA}}},
		{"AGREE before any disposition confirms the finding", with(med, []Review{failA, rev(2, "ann", head, pass(judge("F1@r1", Agree)), 10)}, dispose(100, "exec", "F1@r1", "fixed", 11)),
			brief{Outcome: OutcomeInvalid, Fails: 1, Findings: []string{"F1@r1 proposed fixed by exec"},
				Reason: "Review 2 by ann breaks the audit contract (1 problem, first $.verdict: a PASS leaves F1@r1 (high) open; judge it in verdicts: AGREE with its disposition, or DISAGREE_EVIDENCE with evidence that refutes it); the auditor submits a new review that fixes it.", Ignored: []string{staleA}}},
		{"DISAGREE_EVIDENCE refutes a finding", with(med, []Review{failA, rev(2, "bob", head, pass(judge("F1@r1", DisagreeEvidence, refute)), 10)}),
			brief{Outcome: OutcomePassed, Reason: "Independent PASS by bob at cccccccccccc.", Fails: 1, Findings: []string{"F1@r1 closed refuted by bob"}, Ignored: []string{staleA}}},
		{"a concern never refutes an evidenced finding", with(med, []Review{failA, rev(2, "bob", head, pass(judge("F1@r1", DisagreeConcern)), 10)}),
			brief{Outcome: OutcomeInvalid, Fails: 1, Findings: []string{"F1@r1 open"},
				Reason: "Review 2 by bob breaks the audit contract (1 problem, first $.verdict: a PASS leaves F1@r1 (high) open; judge it in verdicts: AGREE with its disposition, or DISAGREE_EVIDENCE with evidence that refutes it); the auditor submits a new review that fixes it.", Ignored: []string{staleA}}},
		{"an edited dispose comment counts for nothing", with(med, []Review{failA, rev(2, "ann", head, pass(judge("F1@r1", Agree)), 10)},
			func() Disposition { d := dispose(100, "exec", "F1@r1", "fixed", 5); d.Edited = true; return d }()),
			brief{Outcome: OutcomeInvalid, Fails: 1, Findings: []string{"F1@r1 open"},
				Reason:  "Review 2 by ann breaks the audit contract (1 problem, first $.verdict: a PASS leaves F1@r1 (high) open; judge it in verdicts: AGREE with its disposition, or DISAGREE_EVIDENCE with evidence that refutes it); the auditor submits a new review that fixes it.",
				Ignored: []string{staleA, "r0 c100 exec: the dispose comment was edited, so it counts for nothing; post it again in a new comment"}}},
		{"the executor's own AGREE does not close its finding", with(med, []Review{failA, rev(2, "exec", head, pass(judge("F1@r1", Agree)), 10)}, dispose(100, "exec", "F1@r1", "fixed", 5)),
			brief{Outcome: OutcomeStale, Reason: "audit is for " + shaA + ", head is " + head, Fails: 1, Findings: []string{"F1@r1 proposed fixed by exec"}, Ignored: []string{
				staleA,
				"r2 c0 exec: exec opened this pull request; the author cannot audit their own change"}}},
		{"dispositions of unknown or future findings are ignored", with(med, []Review{rev(3, "ann", head, failing(f1), 10)},
			dispose(100, "exec", "F9@r3", "fixed", 11), dispose(101, "exec", "F1@r3", "refuted", 9), dispose(102, "exec", "F1", "fixed", 12), dispose(103, "exec", "F1@r3", "wontfix", 12)),
			brief{Outcome: OutcomeFailed, Fails: 1, Findings: []string{"F1@r3 open"},
				Reason: "The audit by ann at cccccccccccc is a FAIL with 1 finding; fix them, or propose a disposition of each with the dispose command, and ask for a re-audit.",
				Ignored: []string{`r0 c100 exec: F9@r3 is not a finding of a counting audit of this pull request`, "r0 c101 exec: made before F1@r3 was found",
					`r0 c102 exec: "F1" is not a finding's ledger ID`, `r0 c103 exec: "wontfix" is not a disposition`}}},
		{"an ignored review's findings are not in the ledger", with(med, []Review{rev(1, "carl", shaA, failing(f1), 1), rev(2, "ann", head, pass(judge("F1@r1", Agree)), 10)}),
			brief{Outcome: OutcomeInvalid,
				Reason:  "Review 2 by ann breaks the audit contract (1 problem, first $.verdicts[0].finding_id: F1@r1 is not a finding of an earlier counting audit of this pull request); the auditor submits a new review that fixes it.",
				Ignored: []string{"r1 c0 carl: carl is the committer of commit aaaaaaaaaaaa in this pull request; whoever wrote the change cannot audit it"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, briefOf(Evaluate(tt.in)), cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestEvaluateBounds(t *testing.T) {
	med := fixture(RiskMedium)
	f1, f2 := finding("F1", "tokens are checked"), finding("F2", "sessions expire")
	f2.Evidence = []Evidence{{"src/store.go", "package store"}}
	loose := func(in Input, corrections int) Input { in.Corrections = corrections; return in }
	badQuote := failing(Finding{ID: "F1", Severity: "high", Requirement: "r", Remedy: "x", Evidence: []Evidence{{"src/auth.go", "not there"}}})
	tests := []struct {
		name string
		in   Input
		want brief
	}{
		{"second FAIL goes to the owner", with(med, []Review{rev(1, "ann", shaA, failing(f1), 1), rev(2, "ann", head, failing(f2), 10)}),
			brief{Outcome: OutcomeOwner, Gate: "audit-pr21-bounds-cccccccccccc", Fails: 2, Findings: []string{"F1@r1 open", "F2@r2 open"},
				Reason:  "The owner decides: the audit failed at 2 commits (aaaaaaaaaaaa, cccccccccccc), and limits.corrections allows 1 correction, each with one re-audit; the owner answers gate audit-pr21-bounds-cccccccccccc.",
				Ignored: []string{staleA}}},
		{"the owner's answer binds to the head", with(func() Input {
			in := med
			in.Answers = map[string]string{"audit-pr21-bounds-cccccccccccc": "approve"}
			return in
		}(), []Review{rev(1, "ann", shaA, failing(f1), 1), rev(2, "ann", head, failing(f2), 10)}),
			brief{Outcome: OutcomePassed, Fails: 2, Findings: []string{"F1@r1 open", "F2@r2 open"},
				Reason:  "The owner approved the change at cccccccccccc (gate audit-pr21-bounds-cccccccccccc): the audit failed at 2 commits (aaaaaaaaaaaa, cccccccccccc), and limits.corrections allows 1 correction, each with one re-audit.",
				Ignored: []string{staleA}}},
		{"two FAILs at one commit are one attempt", with(med, []Review{rev(1, "ann", head, failing(f1), 1), rev(2, "bob", head, failing(f2), 10)}),
			brief{Outcome: OutcomeFailed, Fails: 1, Findings: []string{"F1@r1 open", "F2@r2 open"},
				Reason: "The audit by bob at cccccccccccc is a FAIL with 1 finding; fix them, or propose a disposition of each with the dispose command, and ask for a re-audit."}},
		{"no correction allowed", with(loose(med, 0), []Review{rev(1, "ann", head, failing(f1), 1)}),
			brief{Outcome: OutcomeOwner, Gate: "audit-pr21-bounds-cccccccccccc", Fails: 1, Findings: []string{"F1@r1 open"},
				Reason: "The owner decides: the audit failed at 1 commit (cccccccccccc), and limits.corrections allows 0 corrections, each with one re-audit; the owner answers gate audit-pr21-bounds-cccccccccccc."}},
		{"more corrections allowed", with(loose(med, 2), []Review{rev(1, "ann", shaA, failing(f1), 1), rev(2, "ann", head, failing(f2), 10)}),
			brief{Outcome: OutcomeFailed, Fails: 2, Findings: []string{"F1@r1 open", "F2@r2 open"},
				Reason:  "The audit by ann at cccccccccccc is a FAIL with 1 finding; fix them, or propose a disposition of each with the dispose command, and ask for a re-audit.",
				Ignored: []string{staleA}}},
		{"same requirement again", with(loose(med, 2), []Review{rev(1, "ann", shaA, failing(f1), 1), rev(2, "bob", head, failing(func() Finding {
			f := f2
			f.Requirement = "  Tokens  ARE checked "
			return f
		}()), 10)}),
			brief{Outcome: OutcomeOwner, Gate: "audit-pr21-bounds-cccccccccccc", Fails: 2, Findings: []string{"F1@r1 open", "F2@r2 open"},
				Reason:  "The owner decides: a new finding repeats the root cause of an earlier one: F2@r2 repeats F1@r1 (the same requirement); the owner answers gate audit-pr21-bounds-cccccccccccc.",
				Ignored: []string{staleA}}},
		{"same quote again", with(loose(med, 2), []Review{rev(1, "ann", shaA, failing(f1), 1), rev(2, "bob", head, failing(Finding{ID: "X", Severity: "critical", Requirement: "other",
			Remedy: "r", Evidence: f1.Evidence}), 10)}),
			brief{Outcome: OutcomeOwner, Gate: "audit-pr21-bounds-cccccccccccc", Fails: 2, Findings: []string{"F1@r1 open", "X@r2 open"},
				Reason:  "The owner decides: a new finding repeats the root cause of an earlier one: X@r2 repeats F1@r1 (the same quote of src/auth.go); the owner answers gate audit-pr21-bounds-cccccccccccc.",
				Ignored: []string{staleA}}},
		{"a dismissed FAIL still counts", with(med, []Review{func() Review { r := rev(1, "ann", shaA, failing(f1), 1); r.State = StateDismissed; return r }(), rev(2, "ann", head, failing(f2), 10)}),
			brief{Outcome: OutcomeOwner, Gate: "audit-pr21-bounds-cccccccccccc", Fails: 2, Findings: []string{"F2@r2 open"},
				Reason:  "The owner decides: the audit failed at 2 commits (aaaaaaaaaaaa, cccccccccccc), and limits.corrections allows 1 correction, each with one re-audit; the owner answers gate audit-pr21-bounds-cccccccccccc.",
				Ignored: []string{"r1 c0 ann: dismissed, so it no longer counts"}}},
		{"a dismissed FAIL by the author does not count", with(med, []Review{func() Review { r := rev(1, "exec", shaA, failing(f1), 1); r.State = StateDismissed; return r }(), rev(2, "ann", head, failing(f2), 10)}),
			brief{Outcome: OutcomeFailed, Fails: 1, Findings: []string{"F2@r2 open"},
				Reason:  "The audit by ann at cccccccccccc is a FAIL with 1 finding; fix them, or propose a disposition of each with the dispose command, and ask for a re-audit.",
				Ignored: []string{"r1 c0 exec: dismissed, so it no longer counts"}}},
		{"an invalid FAIL still counts", with(med, []Review{rev(1, "ann", shaA, badQuote, 1), rev(2, "ann", head, failing(f2), 10)}),
			brief{Outcome: OutcomeOwner, Gate: "audit-pr21-bounds-cccccccccccc", Fails: 2, Findings: []string{"F2@r2 open"},
				Reason:  "The owner decides: the audit failed at 2 commits (aaaaaaaaaaaa, cccccccccccc), and limits.corrections allows 1 correction, each with one re-audit; the owner answers gate audit-pr21-bounds-cccccccccccc.",
				Ignored: []string{staleA}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, briefOf(Evaluate(tt.in)), cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestEvaluateDisputes(t *testing.T) {
	in := fixture(RiskMedium)
	in.Corrections = 5
	f1, f2 := finding("F1", "tokens are checked"), finding("F2", "sessions expire")
	f2.Evidence = []Evidence{{"src/store.go", "package store"}}
	refute := Evidence{"src/auth.go", "return token != \"\""}
	tests := []struct {
		name      string
		in        Input
		want      brief
		exchanges int
	}{
		{"rejected with no new commit: UNRESOLVED", with(in, []Review{rev(1, "ann", head, failing(f1), 1), rev(2, "ann", head, &Audit{SchemaVersion: 1, WorkUnit: "#42",
			Verdict: VerdictFail, Summary: "still", Findings: []Finding{f2}, Verdicts: []Judgement{judge("F1@r1", DisagreeConcern)}}, 10)}, dispose(100, "exec", "F1@r1", "refuted", 5)),
			brief{Outcome: OutcomeOwner, Gate: "audit-pr21-dispute-cccccccccccc", Fails: 1, Findings: []string{"F1@r1 rejected refuted by exec", "F2@r2 open"},
				Reason: "The owner decides: the dispute over F1@r1 is UNRESOLVED: its disposition was rejected with no new commit since; the owner answers gate audit-pr21-dispute-cccccccccccc."}, 3},
		{"rejected after a new commit: the dispute goes on", with(in, []Review{rev(1, "ann", shaA, failing(f1), 1), rev(2, "ann", head, &Audit{SchemaVersion: 1, WorkUnit: "#42",
			Verdict: VerdictFail, Summary: "still", Findings: []Finding{f2}, Verdicts: []Judgement{judge("F1@r1", DisagreeEvidence, refute)}}, 10)}, dispose(100, "exec", "F1@r1", "fixed", 5)),
			brief{Outcome: OutcomeFailed, Fails: 2, Findings: []string{"F1@r1 rejected fixed by exec", "F2@r2 open"},
				Reason:  "The audit by ann at cccccccccccc is a FAIL with 1 finding; fix them, or propose a disposition of each with the dispose command, and ask for a re-audit.",
				Ignored: []string{staleA}}, 3},
		{"a fourth exchange goes to the owner", with(in, []Review{rev(1, "ann", shaA, failing(f1), 1), rev(2, "ann", head, &Audit{SchemaVersion: 1, WorkUnit: "#42",
			Verdict: VerdictFail, Summary: "still", Findings: []Finding{f2}, Verdicts: []Judgement{judge("F1@r1", DisagreeEvidence, refute)}}, 10)},
			dispose(100, "exec", "F1@r1", "fixed", 5), dispose(101, "exec", "F1@r1", "refuted", 15)),
			brief{Outcome: OutcomeOwner, Gate: "audit-pr21-dispute-cccccccccccc", Fails: 2, Findings: []string{"F1@r1 proposed refuted by exec", "F2@r2 open"},
				Reason:  "The owner decides: the dispute over F1@r1 has had 4 exchanges; at most 3 are allowed; the owner answers gate audit-pr21-dispute-cccccccccccc.",
				Ignored: []string{staleA}}, 4},
		{"a dispute over a finding that does not block stays with the auditor", with(in, []Review{rev(1, "ann", head, &Audit{SchemaVersion: 1, WorkUnit: "#42", Verdict: VerdictFail, Summary: "ok",
			Findings: []Finding{{ID: "N1", Severity: "low", Requirement: "r", Remedy: "x", Evidence: f1.Evidence}}, Verification: pass().Verification}, 1),
			rev(2, "ann", head, pass(judge("N1@r1", DisagreeConcern)), 10)}, dispose(100, "exec", "N1@r1", "refuted", 5)),
			brief{Outcome: OutcomePassed, Fails: 1, Findings: []string{"N1@r1 rejected refuted by exec"}, Reason: "Independent PASS by ann at cccccccccccc."}, 3},
		{"a closed dispute is over", with(in, []Review{rev(1, "ann", head, failing(f1), 1), rev(2, "ann", head, pass(judge("F1@r1", Agree)), 10)},
			dispose(100, "exec", "F1@r1", "refuted", 5)),
			brief{Outcome: OutcomePassed, Fails: 1, Findings: []string{"F1@r1 closed refuted by ann"}, Reason: "Independent PASS by ann at cccccccccccc."}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := Evaluate(tt.in)
			if diff := cmp.Diff(tt.want, briefOf(d), cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			if d.Exchanges != tt.exchanges {
				t.Errorf("Exchanges = %d, want %d", d.Exchanges, tt.exchanges)
			}
		})
	}
}

func TestOwnerGate(t *testing.T) {
	in := fixture(RiskHigh)
	d := Evaluate(with(in, []Review{rev(1, "ann", head, pass(), 1)}))
	want := &OwnerGate{ID: "audit-pr21-pass-cccccccccccc", Cause: CausePass,
		Question: "The audit of pull request #21 (work unit #42) passed at cccccccccccc, and work unit risk is high and ann's independent PASS at cccccccccccc needs the owner's approval. Approve merging this head?",
		Reason:   "work unit risk is high and ann's independent PASS at cccccccccccc needs the owner's approval",
		Choices:  []string{"approve", "reject"}, Category: "human-product-judgment-action", Effect: "merge-protected-branch", Scope: "merge", SafeDefault: "reject"}
	if diff := cmp.Diff(want, d.OwnerGate); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	in.PR, in.Unit = 0, 0
	if d := Evaluate(with(in, []Review{rev(1, "ann", head, pass(), 1)})); d.OwnerGate == nil || d.OwnerGate.ID != "audit-pass-cccccccccccc" {
		t.Errorf("without a pull request number: %+v", d.OwnerGate)
	}
}
