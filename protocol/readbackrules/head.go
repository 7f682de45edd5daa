package readbackrules

import (
	"strings"

	"github.com/aepgate/aepgate/protocol/refusal"
)

// protections are the readback rules decide applies. Decide applies both
// (allProtections); the negative-control tests turn one off to show that
// it is what stops its attack.
type protections struct {
	// headUnchanged: the audited head reached the default branch unchanged.
	headUnchanged bool
	// distinctFromCI: readback runs are not the PR's own CI runs.
	distinctFromCI bool
}

// allProtections is every rule on: what Decide applies.
func allProtections() protections {
	return protections{headUnchanged: true, distinctFromCI: true}
}

// headUnchanged proves the audited head reached the default branch
// unchanged: for a merge commit its second parent is the audited head; for
// squash or rebase the merge commit's tree equals the audited head's tree
// and the audited head already contained the base it was merged onto.
func headUnchanged(m Merge) []refusal.Refusal {
	if !sha40().MatchString(m.AuditedSha) || !sha40().MatchString(m.MergeSha) {
		return headRefusal("40-hex audited and merge SHAs", "audited "+show(m.AuditedSha)+", merge "+show(m.MergeSha))
	}
	if m.PRHeadSha != "" && m.PRHeadSha != m.AuditedSha {
		return headRefusal("the PR merged at the audited head "+m.AuditedSha, "final head "+m.PRHeadSha)
	}
	method := mergeMethod(m)
	switch method {
	case "merge":
		if len(m.Parents) == 2 && m.Parents[1] == m.AuditedSha {
			return nil
		}
		return headRefusal("a merge commit whose second parent is "+m.AuditedSha, "parents "+show(strings.Join(m.Parents, ",")))
	case "squash", "rebase":
		return linearUnchanged(m, method)
	}
	return headRefusal("merge method merge, squash or rebase", show(method)+" with "+show(strings.Join(m.Parents, ",")))
}

// mergeMethod is m's merge method, or when unknown the one its parents
// show: merge for two, squash for one ("" otherwise).
func mergeMethod(m Merge) string {
	if m.Method != "" {
		return m.Method
	}
	switch len(m.Parents) {
	case 2:
		return "merge"
	case 1:
		return "squash"
	}
	return ""
}

// linearUnchanged proves a squash or rebase (method) kept the audited
// head: one parent, the audited head's tree, and the base already in the
// audited head.
func linearUnchanged(m Merge, method string) []refusal.Refusal {
	if len(m.Parents) != 1 {
		return headRefusal("a "+method+" commit with one parent", "parents "+show(strings.Join(m.Parents, ",")))
	}
	if m.MergeTree == "" || m.MergeTree != m.AuditedTree {
		return headRefusal("merge tree equal to the audited head's tree "+show(m.AuditedTree), "tree "+show(m.MergeTree))
	}
	if !m.AuditedContainsBase {
		return headRefusal("the audited head to contain the base it was merged onto ("+m.Parents[0]+")", "a base the audited head did not contain")
	}
	return nil
}

// headRefusal is the refusal of a head not proven unchanged.
func headRefusal(expected, seen string) []refusal.Refusal {
	return []refusal.Refusal{{Token: "head-not-proven-unchanged", Expected: expected, Seen: seen}}
}

// show is s, or "(empty)" when s is empty.
func show(s string) string {
	if s == "" {
		return "(empty)"
	}
	return s
}
