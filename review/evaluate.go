package review

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// Options are the rules Evaluate applies. Tests remove one to show what
// it stops; production code uses DefaultOptions.
type Options struct {
	// Rules decide which reviews count as audits.
	Rules []Rule
	// BundleRules check a counting review's evidence.
	BundleRules []BundleRule
	// Binding says why a counting review's verdict does not apply to the
	// head, or "" when it does.
	Binding func(Review, *Input) string
	// VerdictRules say what each verdict needs (Parse).
	VerdictRules []VerdictRule
	// Closing says why a judgement may not close the disposition it
	// agrees with, or "" when it may.
	Closing []ClosingRule
}

// DefaultOptions are DefaultRules, DefaultBundleRules, Bound,
// DefaultVerdictRules and DefaultClosingRules.
func DefaultOptions() Options {
	return Options{Rules: DefaultRules(), BundleRules: DefaultBundleRules(), Binding: Bound,
		VerdictRules: DefaultVerdictRules(), Closing: DefaultClosingRules()}
}

// Bound binds a verdict to its commit: it applies only when the review's
// commit_id is the head.
func Bound(r Review, in *Input) string {
	if r.CommitSHA == "" || !strings.EqualFold(r.CommitSHA, in.Head) {
		return fmt.Sprintf("audit is for %s, head is %s", orNoCommit(r.CommitSHA), orNoCommit(in.Head))
	}
	return ""
}

// orNoCommit shows an empty SHA as "no commit".
func orNoCommit(s string) string {
	if s == "" {
		return "no commit"
	}
	return s
}

// Evaluate decides the audit of a pull request under DefaultOptions.
func Evaluate(in Input) Decision { return EvaluateOptions(in, DefaultOptions()) }

// EvaluateWith is Evaluate with rules deciding which reviews count.
func EvaluateWith(in Input, rules []Rule) Decision {
	o := DefaultOptions()
	o.Rules = rules
	return EvaluateOptions(in, o)
}

// EvaluateOptions decides the audit of a pull request (docs/audit.md):
// the reviews are walked oldest first; those the rules let through are
// counting audits, each checked against its bundle and the ledger of the
// findings before it; the newest counting audit, the bounds and the risk
// tier give the outcome.
func EvaluateOptions(in Input, o Options) Decision {
	w := newWalk(&in, o)
	reviews := slices.Clone(in.Reviews)
	slices.SortStableFunc(reviews, func(a, b Review) int {
		return cmp.Or(a.Submitted.Compare(b.Submitted), cmp.Compare(a.ID, b.ID))
	})
	for i := range reviews {
		w.review(&reviews[i])
	}
	w.ledger.settle()
	w.ignoreDispositions()
	return w.decide()
}

// why returns the first reason a rule gives, or "".
func why(rules []Rule, r Review, in *Input) string {
	for _, rule := range rules {
		if reason := rule.Check(r, in); reason != "" {
			return reason
		}
	}
	return ""
}
