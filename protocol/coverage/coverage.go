// Package coverage decides how much of a shipped commit an audit covers,
// in the classes of the proposed in-toto source-review-coverage predicate:
// identity (the shipped tree is the audited tree), replay (the audited
// change, replayed by git's own merge onto the commit it landed on, gives
// exactly the shipped tree), residual (content no review covers, listed by
// path with bounded hunks) and unverifiable (the replay could not be made
// or trusted). It is pure: internal/replay observes the trees and diffs in
// a git repository and Classify turns that Observation into a Result.
package coverage

import (
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/aepgate/aepgate/protocol/readbackrules"
)

// Class is one coverage class of the source-review-coverage predicate.
type Class string

// The four classes.
const (
	Identity     Class = "identity"
	Replay       Class = "replay"
	Residual     Class = "residual"
	Unverifiable Class = "unverifiable"
)

// Covered reports whether c counts as the audited change merged unchanged:
// identity or replay.
func (c Class) Covered() bool { return c == Identity || c == Replay }

// Limits of what a residual carries: hunks of at most MaxHunkBytes per
// path, for at most MaxHunkPaths paths (the rest are listed by path only).
const (
	MaxHunkBytes = 4096
	MaxHunkPaths = 50
)

// Conflict is one conflict git's merge reported while replaying: its type
// as git names it ("CONFLICT (contents)", "CONFLICT (modify/delete)", …),
// the paths involved and git's message.
type Conflict struct {
	Type    string   `json:"type"`
	Paths   []string `json:"paths"`
	Message string   `json:"message"`
}

// Content reports whether git could write the conflicted file with its
// conflict markers (a content or add/add conflict): the shipped file's
// difference from it is a conflict resolution, diffable like any edit.
// Every other conflict (modify/delete, rename/rename, binary,
// file/directory, …) leaves nothing to compare a resolution with.
func (c Conflict) Content() bool {
	return c.Type == "CONFLICT (contents)" || c.Type == "CONFLICT (add/add)"
}

// PathDiff is one path whose shipped content differs from the replay's:
// its status (A added, D deleted, M modified, T type changed) and its
// hunks as git's unified diff shows them, cut at MaxHunkBytes.
type PathDiff struct {
	Path      string `json:"path"`
	Status    string `json:"status"`
	Hunks     string `json:"hunks,omitempty"`
	Truncated bool   `json:"truncated,omitempty"`
}

// Observation is what internal/replay saw in the repository.
type Observation struct {
	// AuditedHead is the commit the audit passed; AuditBase its merge base
	// with the base branch when it was audited: the audited change is the
	// diff AuditBase..AuditedHead.
	AuditedHead string `json:"auditedHead"`
	AuditBase   string `json:"auditBase"`
	// Shipped is the commit on the base branch; ShippedParents its parents,
	// first parent first; Onto the commit the change landed on (the first
	// parent, or for a rebase of several commits the branch's commit
	// before them).
	Shipped        string   `json:"shipped"`
	ShippedParents []string `json:"shippedParents"`
	Onto           string   `json:"onto"`
	AuditedTree    string   `json:"auditedTree"`
	ShippedTree    string   `json:"shippedTree"`
	// ReplayBases are the merge bases git found between Onto and
	// AuditedHead: the replay replays the audited change only when they
	// are exactly AuditBase.
	ReplayBases []string `json:"replayBases"`
	// ReplayTree is the tree git's merge of AuditedHead into Onto wrote
	// (with conflict markers where it conflicted); Conflicts what it
	// reported; Differences the paths where ShippedTree differs from
	// ReplayTree.
	ReplayTree  string     `json:"replayTree"`
	Conflicts   []Conflict `json:"conflicts,omitempty"`
	Differences []PathDiff `json:"differences,omitempty"`
	// AuditedContainsOnto: Onto is AuditedHead or one of its ancestors
	// (what today's strict rule asks of a squash or rebase).
	AuditedContainsOnto bool `json:"auditedContainsOnto"`
	// Problem is why the engine could not observe the rest (a missing
	// object, git's failure); non-empty makes the result unverifiable.
	Problem string `json:"problem,omitempty"`
}

// Result is the coverage of one shipped commit: its class, the residual
// paths (residual only) and, for residual or unverifiable, why.
type Result struct {
	Class    Class      `json:"class"`
	Residual []PathDiff `json:"residual,omitempty"`
	Reason   string     `json:"reason,omitempty"`
}

// ResidualPaths are the residual's paths, in order.
func (r Result) ResidualPaths() []string {
	out := make([]string, 0, len(r.Residual))
	for _, d := range r.Residual {
		out = append(out, d.Path)
	}
	return out
}

var sha40 = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[0-9a-f]{40}$`) })

// ValidSHA reports whether s is a full SHA-1 object name: 40 lowercase hex
// digits (nothing git could read as an option or a revision expression).
func ValidSHA(s string) bool { return sha40().MatchString(s) }

// Classify turns an observation into its coverage class. Anything it
// cannot trust (a problem, a malformed name, merge bases other than the
// audit's, a conflict git could not write) is unverifiable; it never
// reports identity or replay unless the trees prove it.
func Classify(o Observation) Result {
	if r, bad := untrusted(o); bad {
		return r
	}
	if o.ShippedTree == o.AuditedTree {
		return Result{Class: Identity}
	}
	var paths []string
	for _, c := range o.Conflicts {
		if !c.Content() {
			return Result{Class: Unverifiable, Reason: "git could not replay " + strings.Join(c.Paths, ", ") + ": " + c.Message}
		}
		paths = append(paths, c.Paths...)
	}
	if len(o.Conflicts) == 0 && o.ReplayTree == o.ShippedTree {
		return Result{Class: Replay}
	}
	residual := withConflicts(o.Differences, paths)
	if len(residual) == 0 {
		return Result{Class: Unverifiable, Reason: "the shipped tree " + o.ShippedTree + " differs from the replay " + o.ReplayTree + " but no path was listed"}
	}
	reason := "content no audit covers"
	if len(paths) > 0 {
		reason = "conflict resolution in " + strings.Join(uniqueSorted(paths), ", ") + " and content no audit covers"
	}
	return Result{Class: Residual, Residual: residual, Reason: reason}
}

// untrusted is the unverifiable result of an observation Classify cannot
// judge, and whether there is one.
func untrusted(o Observation) (Result, bool) {
	if o.Problem != "" {
		return Result{Class: Unverifiable, Reason: o.Problem}, true
	}
	for _, s := range []string{o.AuditedHead, o.AuditBase, o.Shipped, o.Onto, o.AuditedTree, o.ShippedTree} {
		if !ValidSHA(s) {
			return Result{Class: Unverifiable, Reason: "an object name that is not 40 hex digits: " + quote(s)}, true
		}
	}
	if o.ShippedTree == o.AuditedTree {
		return Result{}, false
	}
	if len(o.ReplayBases) != 1 || o.ReplayBases[0] != o.AuditBase {
		return Result{Class: Unverifiable, Reason: "git's merge base of " + o.Onto + " and the audited head is " + quote(strings.Join(o.ReplayBases, ", ")) + ", not the audit's base " + o.AuditBase + ": the replay would not replay the audited change"}, true
	}
	if !ValidSHA(o.ReplayTree) {
		return Result{Class: Unverifiable, Reason: "no replay tree: " + quote(o.ReplayTree)}, true
	}
	return Result{}, false
}

// withConflicts is diffs plus, for a conflicted path the diffs do not
// list (the shipped file kept git's conflict markers), an entry of its
// own: nobody audited the markers either. Sorted by path.
func withConflicts(diffs []PathDiff, conflicted []string) []PathDiff {
	out := append([]PathDiff(nil), diffs...)
	seen := map[string]bool{}
	for _, d := range diffs {
		seen[d.Path] = true
	}
	for _, p := range uniqueSorted(conflicted) {
		if !seen[p] {
			out = append(out, PathDiff{Path: p, Status: "C"})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}

// StrictMerge is the observation and its result r as the readback rules
// read them (readbackrules.Merge): the method inferred from the parents,
// the trees, whether the audited head contained the base, and the
// coverage (which a merge commit's readback needs under either rule).
// Comparing its readbackrules.Decide under RuleStrict with Classify is the
// negative control of the replay rule.
func StrictMerge(o Observation, r Result) readbackrules.Merge {
	return readbackrules.Merge{
		Coverage:            ForReadback(r),
		AuditedSha:          o.AuditedHead,
		MergeSha:            o.Shipped,
		Parents:             append([]string(nil), o.ShippedParents...),
		MergeTree:           o.ShippedTree,
		AuditedTree:         o.AuditedTree,
		AuditedContainsBase: o.AuditedContainsOnto,
	}
}

// ForReadback is r as the readback rules read it: its class, whether it
// counts as the audited change merged unchanged, and its Refusal.
func ForReadback(r Result) *readbackrules.Coverage {
	return &readbackrules.Coverage{Class: string(r.Class), Covered: r.Class.Covered(), Refusal: Refusal(r)}
}

func uniqueSorted(in []string) []string {
	out := append([]string(nil), in...)
	sort.Strings(out)
	n := 0
	for i, s := range out {
		if i == 0 || s != out[n-1] {
			out[n] = s
			n++
		}
	}
	return out[:n]
}

func quote(s string) string {
	if s == "" {
		return "(empty)"
	}
	return s
}
