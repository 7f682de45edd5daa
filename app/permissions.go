package app

import (
	"maps"
	"slices"

	"github.com/aepgate/aepgate/checks"
)

// Access is a level of access to one GitHub App permission, as GitHub's App
// manifest spells it.
type Access string

// The access levels the App asks for.
const (
	Read  Access = "read"
	Write Access = "write"
)

// Permission is a repository permission by its key in GitHub's App
// manifest (default_permissions), e.g. "pull_requests".
type Permission string

// The repository permissions the App asks for.
const (
	Actions      Permission = "actions"
	Checks       Permission = "checks"
	Contents     Permission = "contents"
	Issues       Permission = "issues"
	MergeQueues  Permission = "merge_queues"
	Metadata     Permission = "metadata"
	PullRequests Permission = "pull_requests"
)

// permissionTitles are the names GitHub's App settings page shows.
var permissionTitles = map[Permission]string{
	Actions: "Actions", Checks: "Checks", Contents: "Contents", Issues: "Issues",
	MergeQueues: "Merge queues", Metadata: "Metadata", PullRequests: "Pull requests",
}

// Title is the permission's name on GitHub's App settings page.
func (p Permission) Title() string { return permissionTitles[p] }

// Feature is one thing the App does, with the repository permissions and
// webhook events it needs: the one list docs/app.md's permission table,
// `aepgate app manifest` and the App's handled events agree with.
type Feature struct {
	// Name is the check run the feature writes, or what it does.
	Name string
	// Needs are the permissions the feature uses.
	Needs map[Permission]Access
	// Events are the webhook events that start it.
	Events []string
}

// Features is every feature of the App, checks first in the order of
// defaultChecks, then what runs on merges and releases.
func Features() []Feature {
	w := []Permission{Checks} // every feature writes its check run
	return []Feature{
		// The work unit, its contract, milestone and blockers; the config.
		{Name: checks.NameWorkUnit, Needs: needs(w, Contents, Issues, PullRequests),
			Events: []string{"pull_request", "issues", "milestone", "push", "check_run", "check_suite"}},
		// Reviews and comments, commits, the files a review quotes.
		{Name: checks.NameAudit, Needs: needs(w, Contents, Issues, PullRequests),
			Events: []string{"pull_request_review", "issue_comment"}},
		// Commands and gates: reactions, replies, the status comment, the
		// control issue and its label, review requests to owners.
		{Name: checks.NameGates, Needs: needs([]Permission{Checks, Issues, PullRequests}, Contents),
			Events: []string{"issue_comment", "pull_request_review", "issues", "milestone"}},
		// Every check run and workflow run at the head; merge queue groups.
		{Name: checks.NameMerge, Needs: needs(w, Actions, Contents, MergeQueues, PullRequests),
			Events: []string{"pull_request", "check_run", "check_suite", "workflow_run", "merge_group"}},
		{Name: checks.NameConfig, Needs: needs(w, Contents), Events: []string{"push"}},
		// Runs on the default branch at the merge SHA; the audited head,
		// judged again from its reviews.
		{Name: checks.NameReadback, Needs: needs(w, Actions, Contents, Issues, PullRequests),
			Events: []string{"pull_request", "workflow_run"}},
		{Name: checks.NameCertificate, Needs: needs(w, Actions, Contents, PullRequests),
			Events: []string{"pull_request", "workflow_run"}},
		// The release, its tag, the files at the tag and its assets.
		{Name: checks.NameAppRelease, Needs: needs(w, Contents), Events: []string{"release"}},
	}
}

// needs grants write access to write and read access to read.
func needs(write []Permission, read ...Permission) map[Permission]Access {
	m := map[Permission]Access{}
	for _, p := range read {
		m[p] = Read
	}
	for _, p := range write {
		m[p] = Write
	}
	return m
}

// Permissions is what every feature needs together, plus Metadata: read,
// which GitHub gives every App.
func Permissions() map[Permission]Access {
	all := map[Permission]Access{Metadata: Read}
	for _, f := range Features() {
		for p, a := range f.Needs {
			if all[p] != Write {
				all[p] = a
			}
		}
	}
	return all
}

// Events is every event a feature needs, sorted.
func Events() []string {
	var all []string
	for _, f := range Features() {
		all = append(all, f.Events...)
	}
	slices.Sort(all)
	return slices.Compact(all)
}

// SortedPermissions is the keys of ps in order.
func SortedPermissions(ps map[Permission]Access) []Permission {
	return slices.Sorted(maps.Keys(ps))
}
