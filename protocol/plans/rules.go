package plans

import (
	"slices"
	"sort"
)

// Commit is one commit of a pull request and the paths it changes.
type Commit struct {
	SHA   string
	Files []string
}

// PR is what the rules know about the pull request (or local branch).
type PR struct {
	// Author is the login that opened the pull request.
	Author string
	// Phase is the phase the change belongs to, from its branch
	// plan/<slug>/phase-<N> (PhaseFromBranch) or given explicitly; 0 when
	// unknown, which lets it touch no state file.
	Phase int
	// Base is the base commit; PrevHead the head before this push, empty
	// when unknown.
	Base, PrevHead string
	// Commits are the pull request's own commits (base excluded).
	Commits []Commit
	// Changed are the repository-relative paths changed from base to head.
	Changed []string
	// ContractApproved is true when an owner approved changing
	// progress.json at this head (the App's contract-change gate).
	ContractApproved bool
}

// Input is everything the rules judge: one plan folder at base and head.
type Input struct {
	Base, Head Plan
	PR         PR
}

// Finding is one broken rule, at a line of a repository-relative file.
type Finding struct {
	Rule    string
	File    string
	Line    int
	Message string
}

// Rule is one named check. Rules returns them all; a caller (a negative
// control) may pass a list with one left out.
type Rule struct {
	Name  string
	Check func(Input) []Finding
}

// Rules returns every rule, in the order their findings are reported.
func Rules() []Rule {
	return []Rule{
		{"contract", checkContract},
		{"task-ids", checkTaskIDs},
		{"state-scope", checkScope},
		{"phase-done", checkPhaseDone},
		{"task-commits", checkTaskCommits},
		{"attempts", checkAttempts},
		{"blocks", checkBlocks},
		{"worktree", checkWorktree},
		{"self-review", checkSelfReview},
		{"handoff", checkHandoff},
		{"dependencies", checkDependencies},
		{"parallel", checkParallel},
		{"conflict-zones", checkConflictZones},
		{"task-files", checkTaskFiles},
		{"task-preconditions", checkPreconditions},
		{"verify-commands", checkVerifyCommands},
	}
}

// Without returns rules minus the one called name.
func Without(rules []Rule, name string) []Rule {
	return slices.DeleteFunc(slices.Clone(rules), func(r Rule) bool { return r.Name == name })
}

// Check runs rules on in and returns their findings sorted by file and
// line. The head plan must have a progress.json; its absence is a finding.
func Check(in Input, rules []Rule) []Finding {
	if in.Head.Progress == nil {
		return []Finding{{Rule: "contract", File: in.Head.ProgressPath(), Line: 1,
			Message: "the plan folder has no progress.json at head"}}
	}
	var out []Finding
	for _, r := range rules {
		out = append(out, r.Check(in)...)
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].File != out[j].File {
			return out[i].File < out[j].File
		}
		return out[i].Line < out[j].Line
	})
	return out
}

func changed(in Input, file string) bool { return slices.Contains(in.PR.Changed, file) }
