package review

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	"github.com/aepgate/aepgate/protocol/command"
	"github.com/aepgate/aepgate/protocol/gitsha"
)

// ClosingCase is what a closing rule judges: an auditor's AGREE, in
// review Judge, with the pending disposition of a finding found in review
// Found.
type ClosingCase struct {
	LedgerID    string
	Finding     Finding
	Found       *Review
	Judge       *Review
	Disposition Disposition
}

// ClosingRule is one rule an AGREE must pass to close a finding: Check
// says why it may not (naming what would let it), or "" when it may.
type ClosingRule struct {
	Name  string
	Check func(ClosingCase) string
}

// DefaultClosingRules are the closing rules of the review contract.
func DefaultClosingRules() []ClosingRule {
	return []ClosingRule{{"fixed-needs-change", FixedNeedsChange}}
}

// WithoutClosingRule returns rules minus the one called name (for a
// negative control).
func WithoutClosingRule(rules []ClosingRule, name string) []ClosingRule {
	return slices.DeleteFunc(slices.Clone(rules), func(r ClosingRule) bool { return r.Name == name })
}

// FixedNeedsChange: a "fixed" disposition is agreed only when a commit
// after the finding's audited commit changed a file the finding quotes.
// The frozen bundles show it: the file as the finding's review read it at
// its commit, and as the agreeing review read it at its own, differ. So the
// agreeing review cites the changed file in its evidence (in the AGREE's
// evidence or a verification); a file changed and changed back is not a
// change.
func FixedNeedsChange(c ClosingCase) string {
	if c.Disposition.Kind != command.DisposeFixed {
		return ""
	}
	paths := quotedPaths(c.Finding)
	at, now := gitsha.Short(orNoCommit(c.Found.CommitSHA)), gitsha.Short(orNoCommit(c.Judge.CommitSHA))
	prefix := fmt.Sprintf("the AGREE with %s's fixed disposition is refused: ", c.LedgerID)
	if strings.EqualFold(c.Found.CommitSHA, c.Judge.CommitSHA) {
		return prefix + fmt.Sprintf("this review is of %s, the commit the finding was made at, so no later commit changed %s", at, strings.Join(paths, ", "))
	}
	cited := false
	for _, p := range paths {
		before, after := c.Found.Bundle.file(p), c.Judge.Bundle.file(p)
		if after == nil {
			continue
		}
		cited = true
		if before != nil && !before.Missing && !after.Missing && !bytes.Equal(before.Content, after.Content) {
			return ""
		}
	}
	if !cited {
		return prefix + fmt.Sprintf("this review cites none of the files the finding quotes (%s), so it cannot show that a commit after %s changed one; quote the changed file in the AGREE's evidence", strings.Join(paths, ", "), at)
	}
	return prefix + fmt.Sprintf("%s is unchanged from %s to %s: no commit after the audited commit changed the file the finding quotes", strings.Join(paths, ", "), at, now)
}

// quotedPaths are the distinct paths f's evidence quotes, in order.
func quotedPaths(f Finding) []string {
	var out []string
	for _, e := range f.Evidence {
		if !slices.Contains(out, e.Path) {
			out = append(out, e.Path)
		}
	}
	return out
}

// file returns the bundle's file at path, or nil.
func (b Bundle) file(path string) *File {
	for i := range b {
		if b[i].Path == path {
			return &b[i]
		}
	}
	return nil
}

// closingRefusal is the first reason rules give for not letting the AGREE
// of review r close e with disposition d, or "".
func closingRefusal(rules []ClosingRule, e *entry, d Disposition, r *Review) string {
	c := ClosingCase{LedgerID: e.LedgerID, Finding: e.finding, Found: e.review, Judge: r, Disposition: d}
	for _, rule := range rules {
		if why := rule.Check(c); why != "" {
			return why
		}
	}
	return ""
}
