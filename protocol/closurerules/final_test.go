package closurerules

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestFinalOwner: craft-rules §6.1 (agents end at needs-review, never
// close; the owner closes). Under
// closure.final: owner a certified or read-back unit closed by anyone but
// the owner waits in needs-review; the owner's own closure or `/aep close`
// makes it done. closure.final: certified (or unset) keeps today's rule.
func TestFinalOwner(t *testing.T) {
	readback := Attempt{PR: 12, MergeSHA: "m1", MergePassed: true, ReadbackPassed: true}
	final := func(who Actor, risk, final string, edit func(*Facts)) Facts {
		return with(closed(who, risk), func(f *Facts) { f.Final = final; edit(f) })
	}
	certify := func(f *Facts) { f.Attempts = []Attempt{certified} }
	tests := []struct {
		name  string
		facts Facts
		want  Verdict
	}{
		{"certified, closed by a coordinator, closure.final: certified", final(coordinator, "high", "certified", certify),
			Verdict{Number: 7, State: Done, Closer: "carl", Evidence: "certificate c0ffee of #12 at m1", Command: "/aep close <reason>"}},
		{"certified, closed by a coordinator, closure.final unset", final(coordinator, "high", "", certify),
			Verdict{Number: 7, State: Done, Closer: "carl", Evidence: "certificate c0ffee of #12 at m1", Command: "/aep close <reason>"}},
		{"certified, closed by a coordinator, closure.final: owner", final(coordinator, "high", FinalOwner, certify),
			Verdict{Number: 7, State: NeedsReview, Closer: "carl", Evidence: "certificate c0ffee of #12 at m1", Missing: WaitingForOwner, Command: "/aep close <reason>"}},
		{"low risk read back, closed by a coordinator, closure.final: owner", final(coordinator, "low", FinalOwner, func(f *Facts) { f.Attempts = []Attempt{readback} }),
			Verdict{Number: 7, State: NeedsReview, Closer: "carl", Evidence: "low risk: #12 passed aepgate/merge and aepgate/readback at m1", Missing: WaitingForOwner, Command: "/aep close <reason>"}},
		{"certified, closed by the owner, closure.final: owner", final(owner, "high", FinalOwner, certify),
			Verdict{Number: 7, State: Done, Closer: "olivia", Evidence: "certificate c0ffee of #12 at m1; final closure: closed by the owner olivia", Command: "/aep close <reason>"}},
		{"certified, a coordinator closed, the owner said /aep close", final(coordinator, "high", FinalOwner, func(f *Facts) {
			f.Attempts, f.Commands = []Attempt{certified}, []Command{closeCmd(owner)}
		}), Verdict{Number: 7, State: Done, Closer: "carl", Evidence: "certificate c0ffee of #12 at m1; final closure: /aep close by the owner olivia (comment 99): shipped out of band", Command: "/aep close <reason>"}},
		{"certified, a coordinator said /aep close, closure.final: owner", final(coordinator, "high", FinalOwner, func(f *Facts) {
			f.Attempts, f.Commands = []Attempt{certified}, []Command{closeCmd(coordinator)}
		}), Verdict{Number: 7, State: NeedsReview, Closer: "carl", Evidence: "certificate c0ffee of #12 at m1", Missing: WaitingForOwner, Command: "/aep close <reason>"}},
		{"certified, a bot with the owner's login closed, closure.final: owner", final(Actor{Login: "olivia", Type: "Bot", Permission: "write"}, "high", FinalOwner, certify),
			Verdict{Number: 7, State: NeedsReview, Closer: "olivia", Evidence: "certificate c0ffee of #12 at m1", Missing: WaitingForOwner, Command: "/aep close <reason>"}},
		{"the owner closed without a certificate, closure.final: owner", final(owner, "high", FinalOwner, func(*Facts) {}),
			Verdict{Number: 7, State: Done, Closer: "olivia", Evidence: "closed by the owner olivia", Command: "/aep close <reason>"}},
		{"no evidence, closure.final: owner", final(coordinator, "high", FinalOwner, func(*Facts) {}),
			Verdict{Number: 7, State: WithoutEvidence, Closer: "carl", Missing: "no merged attempt carries an aepgate/certificate; the closer is not the owner (carl is not listed in owners (olivia))", Command: "/aep close <reason>"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Judge(tt.facts, DefaultRules())
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Judge (-want +got):\n%s", diff)
			}
			if tt.want.State == NeedsReview && got.Counts() {
				t.Errorf("a needs-review unit counts as done")
			}
		})
	}
}

// TestFinalOwnerBlocking: a needs-review dependency blocks with what the
// owner does.
func TestFinalOwnerBlocking(t *testing.T) {
	v := Judge(with(closed(coordinator, "high"), func(f *Facts) { f.Attempts, f.Final = []Attempt{certified}, FinalOwner }), DefaultRules())
	want := "dependency #7 is needs-review: waiting for the owner's closure (closed by carl; closure.final: owner); an owner closes #7 or says `/aep close <reason>` on it to count it done"
	if got := v.Blocking(); got != want {
		t.Errorf("Blocking() = %q, want %q", got, want)
	}
}
