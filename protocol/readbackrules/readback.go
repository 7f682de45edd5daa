package readbackrules

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"sync"

	"github.com/aepgate/aepgate/protocol/refusal"
)

// Run is one observation of a workflow run, as GitHub reports it. The same
// run may be observed several times (polling) and re-run (same ID, higher
// Attempt); only its latest observation counts.
type Run struct {
	ID         int64  `json:"id"`
	Workflow   string `json:"workflow"`
	HeadSHA    string `json:"headSha"`
	Branch     string `json:"branch,omitempty"`
	Event      string `json:"event,omitempty"`
	Status     string `json:"status"`
	Conclusion string `json:"conclusion"`
	Attempt    int    `json:"attempt,omitempty"`
}

// Merge describes how the audited head reached the default branch.
type Merge struct {
	// Method is merge, squash or rebase; empty infers it from the parents
	// (two parents: merge; one: squash or rebase).
	Method string `json:"method"`
	// AuditedSha is the head the audit passed; PRHeadSha the PR's final head
	// when it merged (empty if unknown).
	AuditedSha string `json:"auditedSha"`
	PRHeadSha  string `json:"prHeadSha,omitempty"`
	MergeSha   string `json:"mergeSha"`
	// Parents are the merge commit's parents, first parent first.
	Parents     []string `json:"parents"`
	MergeTree   string   `json:"mergeTree"`
	AuditedTree string   `json:"auditedTree"`
	// AuditedContainsBase is true when the commit the merge was applied onto
	// (the merge commit's first parent) is the audited head or one of its
	// ancestors.
	AuditedContainsBase bool `json:"auditedContainsBase"`
	// Coverage is the readback's comparison of the shipped tree with
	// git's replay of the audited change onto the commit it landed on
	// (protocol/coverage); nil when none was made.
	Coverage *Coverage `json:"coverage,omitempty"`
}

// Coverage is what a merge's readback learnt by replaying the audited
// change: its class (identity, replay, residual, unverifiable), whether
// that counts as the audited change merged unchanged, and otherwise the
// refusal that says what no audit covers.
type Coverage struct {
	Class   string           `json:"class"`
	Covered bool             `json:"covered"`
	Refusal *refusal.Refusal `json:"-"`
}

// The rules a squash or rebase is read back under (config
// readback.coverage). A merge commit is read back the same way under both:
// its second parent is the audited head and its tree is git's merge of it.
const (
	// RuleReplay: the shipped tree is the audited head's, or the audited
	// change replayed onto the commit it landed on (Merge.Coverage).
	RuleReplay = "replay"
	// RuleStrict: the shipped tree is the audited head's and the audited
	// head contained the commit it landed on.
	RuleStrict = "strict"
)

// Input is everything Decide needs.
type Input struct {
	RequiredWorkflows []string `json:"requiredWorkflows"`
	DefaultBranch     string   `json:"defaultBranch"`
	PRRuns            []Run    `json:"prRuns"`
	Merge             Merge    `json:"merge"`
	MainRuns          []Run    `json:"mainRuns"`
	// Rule is RuleReplay or RuleStrict ("" is RuleStrict).
	Rule string `json:"rule,omitempty"`
}

// Result is the readback decision. Reasons are tokens, sorted and unique;
// Refusals explain them. The run lists name, per required workflow, the
// runs that prove it (for the certificate).
type Result struct {
	Verified             bool              `json:"verified"`
	Reasons              []string          `json:"reasons"`
	Refusals             []refusal.Refusal `json:"-"`
	RequiredCiRuns       []Run             `json:"requiredCiRuns"`
	RequiredCiAllSuccess bool              `json:"requiredCiAllSuccess"`
	MergedMainRuns       []Run             `json:"mergedMainRuns"`
	MergedMainAllSuccess bool              `json:"mergedMainAllSuccess"`
	HeadUnchanged        bool              `json:"headUnchanged"`
}

var sha40 = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[0-9a-f]{40}$`) })

// Decide applies the readback rules to in.
func Decide(in Input) Result { return decide(in, allProtections()) }

// decide is Decide under p.
func decide(in Input, p protections) Result {
	var rs []refusal.Refusal
	required := uniqueSorted(in.RequiredWorkflows)
	if len(required) == 0 {
		rs = append(rs, refusal.Refusal{Token: "required-workflows-missing", Expected: "at least one required workflow", Seen: "none configured"})
	}
	if in.DefaultBranch == "" {
		rs = append(rs, refusal.Refusal{Token: "default-branch-unknown", Expected: "the default branch readback runs must be on", Seen: "none given"})
	}
	pr, bad := fold(in.PRRuns)
	rs = append(rs, bad...)
	main, bad := fold(in.MainRuns)
	rs = append(rs, bad...)
	ciRuns, ciRefusals := judge("ci", required, atSha(pr, in.Merge.AuditedSha, ""))
	rs = append(rs, ciRefusals...)
	var reused []int64
	if p.distinctFromCI {
		reused = reusedIDs(pr, main)
	}
	for _, id := range reused {
		rs = append(rs, refusal.Refusal{Token: "reused-ci-as-readback", Expected: "readback run IDs distinct from PR CI run IDs", Seen: "run " + strconv.FormatInt(id, 10) + " in both"})
	}
	candidates := without(atSha(main, in.Merge.MergeSha, knownBranch(in.DefaultBranch)), reused)
	mainRuns, mainRefusals := judge("readback", required, candidates)
	rs = append(rs, mainRefusals...)
	var headRefusals []refusal.Refusal
	if p.headUnchanged {
		headRefusals = headUnchanged(in.Merge, in.Rule, p.treeCompared)
	}
	rs = append(rs, headRefusals...)
	return Result{
		Verified: len(rs) == 0, Reasons: refusal.Tokens(rs), Refusals: rs,
		RequiredCiRuns: ciRuns, RequiredCiAllSuccess: len(required) > 0 && len(ciRefusals) == 0,
		MergedMainRuns: mainRuns, MergedMainAllSuccess: len(required) > 0 && len(mainRefusals) == 0 && len(reused) == 0,
		HeadUnchanged: len(headRefusals) == 0,
	}
}

// fold keeps the latest observation of each run ID: the highest attempt,
// completed over not yet completed, later over earlier. Observations of one
// ID that disagree on workflow or head SHA are refused.
func fold(obs []Run) (map[int64]Run, []refusal.Refusal) {
	out := map[int64]Run{}
	var rs []refusal.Refusal
	for _, r := range obs {
		old, seen := out[r.ID]
		if !seen {
			out[r.ID] = r
			continue
		}
		if old.Workflow != r.Workflow || old.HeadSHA != r.HeadSHA {
			rs = append(rs, refusal.Refusal{Token: "run-observation-inconsistent:" + strconv.FormatInt(r.ID, 10),
				Expected: "every observation of a run to name the same workflow and head",
				Seen:     fmt.Sprintf("%s@%s and %s@%s", old.Workflow, old.HeadSHA, r.Workflow, r.HeadSHA)})
			continue
		}
		if r.Attempt > old.Attempt || r.Attempt == old.Attempt && (r.Status == "completed" || old.Status != "completed") {
			out[r.ID] = r
		}
	}
	return out, rs
}

func atSha(runs map[int64]Run, sha, branch string) []Run {
	var out []Run
	for _, r := range runs {
		if r.HeadSHA == sha && (branch == "" || r.Branch == branch) {
			out = append(out, r)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

func reusedIDs(pr, main map[int64]Run) []int64 {
	var out []int64
	for id := range main {
		if _, ok := pr[id]; ok {
			out = append(out, id)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

func without(runs []Run, ids []int64) []Run {
	drop := map[int64]bool{}
	for _, id := range ids {
		drop[id] = true
	}
	var out []Run
	for _, r := range runs {
		if !drop[r.ID] {
			out = append(out, r)
		}
	}
	return out
}

// judge requires, for each workflow, at least one run, every run of it
// completed with conclusion success. It returns the runs that prove it.
func judge(kind string, required []string, runs []Run) ([]Run, []refusal.Refusal) {
	var proof []Run
	var rs []refusal.Refusal
	for _, wf := range required {
		var mine []Run
		for _, r := range runs {
			if r.Workflow == wf {
				mine = append(mine, r)
			}
		}
		if len(mine) == 0 {
			rs = append(rs, refusal.Refusal{Token: kind + "-missing:" + wf, Expected: "a run of workflow " + wf, Seen: "none at the SHA"})
			continue
		}
		for _, r := range mine {
			switch {
			case r.Status != "completed":
				rs = append(rs, refusal.Refusal{Token: kind + "-not-complete:" + wf, Expected: "run " + idText(r) + " completed", Seen: "status " + r.Status})
			case r.Conclusion != "success":
				rs = append(rs, refusal.Refusal{Token: kind + "-failed:" + wf, Expected: "run " + idText(r) + " concluded success", Seen: "conclusion " + r.Conclusion})
			default:
				proof = append(proof, r)
			}
		}
	}
	return proof, rs
}

func idText(r Run) string { return strconv.FormatInt(r.ID, 10) }

func uniqueSorted(in []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range in {
		if s != "" && !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	sort.Strings(out)
	return out
}

// knownBranch turns an unknown branch into one no run is on, so that readback
// without a default branch finds nothing (fail closed).
func knownBranch(branch string) string {
	if branch == "" {
		return "\x00unknown"
	}
	return branch
}
