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
	// treeCompared: a merge commit's tree is git's merge of the audited
	// head (Merge.Coverage), not only its second parent.
	treeCompared bool
}

// allProtections is every rule on: what Decide applies.
func allProtections() protections {
	return protections{headUnchanged: true, distinctFromCI: true, treeCompared: true}
}

// headUnchanged proves the audited head reached the default branch
// unchanged: for a merge commit its second parent is the audited head and
// (treeCompared) its tree is git's merge of it, no edit of its own; for
// squash or rebase under RuleStrict the merge commit's tree equals the
// audited head's tree and the audited head already contained the base it
// was merged onto, under RuleReplay the coverage is identity or replay.
func headUnchanged(m Merge, rule string, treeCompared bool) []refusal.Refusal {
	if !sha40().MatchString(m.AuditedSha) || !sha40().MatchString(m.MergeSha) {
		return headRefusal("40-hex audited and merge SHAs", "audited "+show(m.AuditedSha)+", merge "+show(m.MergeSha))
	}
	if m.PRHeadSha != "" && m.PRHeadSha != m.AuditedSha {
		return headRefusal("the PR merged at the audited head "+m.AuditedSha, "final head "+m.PRHeadSha)
	}
	method := mergeMethod(m)
	switch method {
	case "merge":
		if len(m.Parents) != 2 || m.Parents[1] != m.AuditedSha {
			return headRefusal("a merge commit whose second parent is "+m.AuditedSha, "parents "+show(strings.Join(m.Parents, ",")))
		}
		if treeCompared {
			return covered(m)
		}
		return nil
	case "squash", "rebase":
		switch rule {
		case RuleStrict, "":
			return linearUnchanged(m, method)
		case RuleReplay:
			if len(m.Parents) != 1 {
				return headRefusal("a "+method+" commit with one parent", "parents "+show(strings.Join(m.Parents, ",")))
			}
			return covered(m)
		}
		return headRefusal("readback.coverage replay or strict", show(rule))
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

// covered is the refusal of a merge whose coverage is not identity or
// replay, or was never observed.
func covered(m Merge) []refusal.Refusal {
	switch {
	case m.Coverage == nil:
		return headRefusal("the shipped tree compared with git's replay of the audited change", "no comparison")
	case m.Coverage.Covered:
		return nil
	case m.Coverage.Refusal != nil:
		return []refusal.Refusal{*m.Coverage.Refusal}
	}
	return headRefusal("coverage identity or replay", show(m.Coverage.Class))
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
