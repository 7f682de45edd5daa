package incrementrules

import (
	"github.com/aepgate/aepgate/protocol/approval"
	"github.com/aepgate/aepgate/protocol/closurerules"
	"github.com/aepgate/aepgate/protocol/command"
)

// Rule finds what one part of completion lacks. Its Stage is the stage an
// increment stays in while it finds something.
type Rule struct {
	Name  string
	Stage Stage
	Check func(f Facts, r Rules, tier string) []Missing
}

// CommentRule says why a control-thread comment does not count ("" when
// it does), before its author's authority is asked.
type CommentRule struct {
	Name  string
	Check func(c Comment) string
}

// AcceptRule says why a well-formed `/aep accept` does not accept this
// candidate ("" when it does).
type AcceptRule struct {
	Name  string
	Check func(f Facts, c command.Command) string
}

// DemoRule says why a well-formed aep-demo block does not demonstrate the
// increment ("" when it does).
type DemoRule struct {
	Name  string
	Check func(f Facts, d Demo) string
}

// Rules are the rules Decide applies. Tests pass them with one rule
// removed to show what it stops.
type Rules struct {
	Checks []Rule
	// Owner decides whose act is the owner's (protocol/closurerules's authority
	// rules: listed, a User, live write); a demonstration is asked the same
	// with the coordinators listed too.
	Owner   []closurerules.AuthorityRule
	Comment []CommentRule
	Accept  []AcceptRule
	Demo    []DemoRule
	// Withdraw decides when a certificate issued earlier stops approving
	// (the App then withdraws it).
	Withdraw []WithdrawRule
	// Distinct join accepts into people when more than one owner must
	// accept (Facts.Approvals; the zero value applies every rule of
	// protocol/approval).
	Distinct approval.Rules
}

// DefaultRules are every rule.
func DefaultRules() Rules {
	owner := closurerules.DefaultRules().Authority
	return Rules{
		Checks: []Rule{
			{"stories-listed", Building, storiesListed},
			{"every-story-done", Building, everyStoryDone},
			{"candidate-contains-every-merge", Integrating, candidateContains},
			{"readback-at-candidate", Integrating, readbackAtCandidate},
			{"stories-certified", Integrating, storiesCertified},
			{"owner-acceptance", Accepting, ownerAcceptance},
			{"demonstration", Accepting, demonstration},
		},
		Owner:   owner,
		Comment: []CommentRule{{"not-edited", NotEdited}, {"not-under-hold", NotUnderHold}},
		Accept:  []AcceptRule{{"accept-same-milestone", AcceptSameMilestone}, {"bound-to-candidate", BoundToCandidate}},
		Demo: []DemoRule{{"demo-same-milestone", DemoSameMilestone}, {"exact-criterion", ExactCriterion},
			{"evidence-read-back", EvidenceReadBack}},
		Withdraw: []WithdrawRule{{"candidate-moved", CandidateMoved}},
	}
}
