package readbackrules

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/aepgate/aepgate/protocol/refusal"
)

const (
	audited = "0123456789abcdef0123456789abcdef01234567"
	base    = "1111111111111111111111111111111111111111"
	merged  = "fedcba9876543210fedcba9876543210fedcba98"
	tree    = "2222222222222222222222222222222222222222"
)

func ok(id int64, wf, sha string) Run {
	return Run{ID: id, Workflow: wf, HeadSHA: sha, Branch: "main", Status: "completed", Conclusion: "success", Attempt: 1}
}

func good() Input {
	return Input{
		RequiredWorkflows: []string{"ci", "lint"},
		DefaultBranch:     "main",
		PRRuns:            []Run{ok(11, "ci", audited), ok(12, "lint", audited)},
		Merge:             Merge{Method: "merge", AuditedSha: audited, MergeSha: merged, Parents: []string{base, audited}, Coverage: &Coverage{Class: "replay", Covered: true}},
		MainRuns:          []Run{ok(21, "ci", merged), ok(22, "lint", merged)},
	}
}

func TestDecide(t *testing.T) {
	tests := []struct {
		name   string
		change func(in *Input)
		want   []string
	}{
		{"merge commit verified", func(*Input) {}, []string{}},
		{"merge commit, second parent not audited", func(in *Input) { in.Merge.Parents = []string{audited, base} }, []string{"head-not-proven-unchanged"}},
		{"PR head moved after audit", func(in *Input) { in.Merge.PRHeadSha = base }, []string{"head-not-proven-unchanged"}},
		{"squash with equal trees over a contained base", func(in *Input) {
			in.Merge = Merge{Method: "squash", AuditedSha: audited, MergeSha: merged, Parents: []string{base}, MergeTree: tree, AuditedTree: tree, AuditedContainsBase: true}
		}, []string{}},
		{"rebase inferred from one parent", func(in *Input) {
			in.Merge = Merge{AuditedSha: audited, MergeSha: merged, Parents: []string{base}, MergeTree: tree, AuditedTree: tree, AuditedContainsBase: true}
		}, []string{}},
		{"squash with other tree", func(in *Input) {
			in.Merge = Merge{Method: "squash", AuditedSha: audited, MergeSha: merged, Parents: []string{base}, MergeTree: tree, AuditedTree: base, AuditedContainsBase: true}
		}, []string{"head-not-proven-unchanged"}},
		{"squash onto a base the head lacked", func(in *Input) {
			in.Merge = Merge{Method: "squash", AuditedSha: audited, MergeSha: merged, Parents: []string{base}, MergeTree: tree, AuditedTree: tree}
		}, []string{"head-not-proven-unchanged"}},
		{"unknown method", func(in *Input) { in.Merge.Method = "octopus" }, []string{"head-not-proven-unchanged"}},
		{"merge commit, tree not compared", func(in *Input) { in.Merge.Coverage = nil }, []string{"head-not-proven-unchanged"}},
		{"merge commit with a residual", func(in *Input) { in.Merge.Coverage = residual() }, []string{"coverage-residual"}},
		{"merge commit with a residual, strict", func(in *Input) { in.Merge.Coverage, in.Rule = residual(), RuleStrict }, []string{"coverage-residual"}},
		{"replay: squash onto a moved base replayed", func(in *Input) {
			in.Rule, in.Merge = RuleReplay, Merge{Method: "squash", AuditedSha: audited, MergeSha: merged, Parents: []string{base}, MergeTree: tree, AuditedTree: base, Coverage: &Coverage{Class: "replay", Covered: true}}
		}, []string{}},
		{"strict: the same squash", func(in *Input) {
			in.Rule, in.Merge = RuleStrict, Merge{Method: "squash", AuditedSha: audited, MergeSha: merged, Parents: []string{base}, MergeTree: tree, AuditedTree: base, Coverage: &Coverage{Class: "replay", Covered: true}}
		}, []string{"head-not-proven-unchanged"}},
		{"replay: squash with a residual", func(in *Input) {
			in.Rule, in.Merge = RuleReplay, Merge{Method: "squash", AuditedSha: audited, MergeSha: merged, Parents: []string{base}, MergeTree: tree, AuditedTree: tree, AuditedContainsBase: true, Coverage: residual()}
		}, []string{"coverage-residual"}},
		{"replay: squash never compared", func(in *Input) {
			in.Rule, in.Merge = RuleReplay, Merge{Method: "squash", AuditedSha: audited, MergeSha: merged, Parents: []string{base}, MergeTree: tree, AuditedTree: tree, AuditedContainsBase: true}
		}, []string{"head-not-proven-unchanged"}},
		{"replay: covered but the PR head moved", func(in *Input) { in.Rule, in.Merge.PRHeadSha = RuleReplay, base }, []string{"head-not-proven-unchanged"}},
		{"unknown rule", func(in *Input) {
			in.Rule, in.Merge = "lenient", Merge{Method: "squash", AuditedSha: audited, MergeSha: merged, Parents: []string{base}, MergeTree: tree, AuditedTree: tree, AuditedContainsBase: true}
		}, []string{"head-not-proven-unchanged"}},
		{"short audited sha", func(in *Input) { in.Merge.AuditedSha = audited[:7] }, []string{"ci-missing:ci", "ci-missing:lint", "head-not-proven-unchanged"}},
		{"readback missing a workflow", func(in *Input) { in.MainRuns = in.MainRuns[:1] }, []string{"readback-missing:lint"}},
		{"readback run at another sha ignored", func(in *Input) { in.MainRuns[1].HeadSHA = base }, []string{"readback-missing:lint"}},
		{"readback run on another branch ignored", func(in *Input) { in.MainRuns[1].Branch = "dev" }, []string{"readback-missing:lint"}},
		{"readback failed", func(in *Input) { in.MainRuns[0].Conclusion = "failure" }, []string{"readback-failed:ci"}},
		{"readback skipped is not success", func(in *Input) { in.MainRuns[0].Conclusion = "skipped" }, []string{"readback-failed:ci"}},
		{"readback still running", func(in *Input) { in.MainRuns[0].Status, in.MainRuns[0].Conclusion = "in_progress", "" }, []string{"readback-not-complete:ci"}},
		{"readback reuses a PR run id", func(in *Input) { in.MainRuns[0].ID = 11; in.PRRuns[0].HeadSHA = merged }, []string{"ci-missing:ci", "readback-missing:ci", "reused-ci-as-readback"}},
		{"failed run re-run green keeps its id and counts once", func(in *Input) {
			red := in.MainRuns[0]
			red.Conclusion = "failure"
			green := in.MainRuns[0]
			green.Attempt = 2
			in.MainRuns = []Run{red, in.MainRuns[1], green}
		}, []string{}},
		{"green run re-run red", func(in *Input) {
			red := in.MainRuns[0]
			red.Attempt, red.Conclusion = 2, "failure"
			in.MainRuns = append(in.MainRuns, red)
		}, []string{"readback-failed:ci"}},
		{"polling duplicates folded", func(in *Input) {
			running := in.MainRuns[0]
			running.Status, running.Conclusion = "in_progress", ""
			in.MainRuns = []Run{running, in.MainRuns[0], running, in.MainRuns[1], in.MainRuns[1]}
		}, []string{}},
		{"inconsistent observations", func(in *Input) {
			odd := in.MainRuns[0]
			odd.Workflow = "lint"
			in.MainRuns = append(in.MainRuns, odd)
		}, []string{"run-observation-inconsistent:21"}},
		{"a second run of a workflow failed", func(in *Input) {
			r := ok(23, "ci", merged)
			r.Conclusion = "cancelled"
			in.MainRuns = append(in.MainRuns, r)
		}, []string{"readback-failed:ci"}},
		{"PR CI red", func(in *Input) { in.PRRuns[1].Conclusion = "failure" }, []string{"ci-failed:lint"}},
		{"no required workflows", func(in *Input) { in.RequiredWorkflows = nil }, []string{"required-workflows-missing"}},
		{"unknown default branch", func(in *Input) { in.DefaultBranch = "" }, []string{"default-branch-unknown", "readback-missing:ci", "readback-missing:lint"}},
		{"readback run without a branch ignored", func(in *Input) { in.MainRuns[0].Branch = "" }, []string{"readback-missing:ci"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := good()
			tt.change(&in)
			got := Decide(in)
			if diff := cmp.Diff(tt.want, got.Reasons); diff != "" {
				t.Errorf("reasons (-want +got):\n%s", diff)
			}
			if got.Verified != (len(tt.want) == 0) {
				t.Errorf("verified = %v", got.Verified)
			}
		})
	}
}

func TestDecideProofRuns(t *testing.T) {
	got := Decide(good())
	if !got.RequiredCiAllSuccess || !got.MergedMainAllSuccess || !got.HeadUnchanged {
		t.Errorf("flags %+v", got)
	}
	var ids []int64
	for _, r := range got.MergedMainRuns {
		ids = append(ids, r.ID)
	}
	if diff := cmp.Diff([]int64{21, 22}, ids); diff != "" {
		t.Errorf("readback runs (-want +got):\n%s", diff)
	}
}

func TestNegativeControlHeadUnchanged(t *testing.T) {
	in := good()
	in.Merge.Parents = []string{audited, base} // the audited head merged as the base, not the change
	if Decide(in).Verified {
		t.Fatal("changed head accepted with the rule in place")
	}
	if !decide(in, protections{headUnchanged: false, distinctFromCI: true, treeCompared: true}).Verified {
		t.Error("with the rule off the changed head should pass")
	}
}

func TestNegativeControlDistinctFromCI(t *testing.T) {
	in := good()
	in.PRRuns = append(in.PRRuns, ok(21, "ci", merged)) // PR CI's own run offered as readback
	if Decide(in).Verified {
		t.Fatal("reused run accepted with the rule in place")
	}
	if got := decide(in, protections{headUnchanged: true, distinctFromCI: false, treeCompared: true}); !got.Verified {
		t.Errorf("with the rule off the reused run should pass: %v", got.Reasons)
	}
}

func residual() *Coverage {
	return &Coverage{Class: "residual", Refusal: &refusal.Refusal{Token: "coverage-residual", Expected: "the audited change replayed", Seen: "content no audit covers: g.txt"}}
}

// TestNegativeControlTreeCompared: a merge commit whose second parent is
// the audited head but whose tree carries an edit of its own (a residual)
// is refused under both rules, and accepted once the tree is not compared
// (today's rule before the comparison).
func TestNegativeControlTreeCompared(t *testing.T) {
	for _, rule := range []string{RuleReplay, RuleStrict} {
		in := good()
		in.Rule, in.Merge.Coverage = rule, residual()
		if Decide(in).Verified {
			t.Fatalf("%s: merge commit with an extra edit accepted with the rule in place", rule)
		}
		if got := decide(in, protections{headUnchanged: true, distinctFromCI: true}); !got.Verified {
			t.Errorf("%s: with the tree not compared the extra edit should pass: %v", rule, got.Reasons)
		}
	}
}
