package incrementrules

import (
	"fmt"
	"slices"
)

// WithdrawRule says why a certificate this milestone's increment was
// given at sha no longer holds ("" when it still does), given the verdict
// just reached.
type WithdrawRule struct {
	Name  string
	Check func(f Facts, v Verdict, sha string) string
}

// CandidateMoved: a certificate holds only at the integrated candidate;
// once the candidate moves (a story merged again, a later commit named by
// an owner, a story added) the one at the old candidate stops approving.
func CandidateMoved(f Facts, v Verdict, sha string) string {
	if sha == v.Candidate {
		return ""
	}
	if v.Candidate == "" {
		return fmt.Sprintf("milestone %d has no integrated candidate now (stage %s)", f.Milestone, v.Stage)
	}
	return fmt.Sprintf("milestone %d's integrated candidate is now %s (stage %s)", f.Milestone, v.Candidate, v.Stage)
}

// Previous are the commits that may carry an earlier certificate of f's
// milestone: every story merge commit and every commit an owner named in
// an acceptance, each once, oldest named last.
func Previous(f Facts, r Rules) []string {
	out := Merges(f.Stories)
	for _, n := range Named(f, r) {
		if !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out
}

// Withdrawn says why the certificate at sha no longer holds under rules
// ("" when it holds).
func Withdrawn(f Facts, v Verdict, rules Rules, sha string) string {
	for _, w := range rules.Withdraw {
		if why := w.Check(f, v, sha); why != "" {
			return why
		}
	}
	return ""
}
