// Package manifest is what the App asks GitHub for: each feature with the
// permissions it needs, and their union, which the App manifest
// (`aepgate app manifest`) and docs/app.md's permission table show. The
// events it subscribes to are the App's family table's (app.Events).
package manifest

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

// Permission is a repository permission (or, for Members, an
// organization permission) by its key in GitHub's App manifest
// (default_permissions, which holds both), e.g. "pull_requests".
type Permission string

// The repository permissions the App asks for.
const (
	Actions      Permission = "actions"
	Attestations Permission = "attestations"
	Checks       Permission = "checks"
	Contents     Permission = "contents"
	Deployments  Permission = "deployments"
	Issues       Permission = "issues"
	MergeQueues  Permission = "merge_queues"
	Metadata     Permission = "metadata"
	PullRequests Permission = "pull_requests"
	// Members is the organization permission that lists a team's members:
	// needed only for teams named in the config (@org/team).
	Members Permission = "members"
)

// permissionTitles are the names GitHub's App settings page shows.
var permissionTitles = map[Permission]string{
	Actions: "Actions", Attestations: "Attestations", Checks: "Checks", Contents: "Contents", Deployments: "Deployments", Issues: "Issues",
	MergeQueues: "Merge queues", Metadata: "Metadata", PullRequests: "Pull requests",
	Members: "Members (organization)",
}

// Title is the permission's name on GitHub's App settings page.
func (p Permission) Title() string { return permissionTitles[p] }

// Feature is one thing the App does, with the repository permissions it
// needs: the one list docs/app.md's permission table and `aepgate app
// manifest` agree with. The events it subscribes to are the family table's
// (app.Events).
type Feature struct {
	// Name is the check run the feature writes, or what it does.
	Name string
	// Needs are the permissions the feature uses.
	Needs map[Permission]Access
}

// Features is every feature of the App, checks first in the order of
// verdict.DefaultChecks, then what runs on merges and releases.
func Features() []Feature {
	w := []Permission{Checks} // every feature writes its check run
	return []Feature{
		// The work unit, its contract, milestone and blockers; the config.
		{Name: checks.NameWorkUnit, Needs: needs(w, Contents, Issues, PullRequests)},
		// Reviews and comments, commits, the files a review quotes.
		// Teams named as auditors: their members.
		{Name: checks.NameAudit, Needs: needs(w, Contents, Issues, Members, PullRequests)},
		// Commands and gates: reactions, replies, the status comment, the
		// control issue and its label, review requests to owners; teams
		// named as owners or coordinators: their members.
		{Name: checks.NameGates, Needs: needs([]Permission{Checks, Issues, PullRequests}, Contents, Members)},
		// Every check run and workflow run at the head; merge queue groups;
		// what the checks it sums up read (the audit's and the gates').
		{Name: checks.NameMerge, Needs: needs(w, Actions, Contents, Issues, MergeQueues, PullRequests)},
		{Name: checks.NameConfig, Needs: needs(w, Contents)},
		// Runs on the default branch at the merge SHA; the audited head,
		// judged again from its reviews.
		{Name: checks.NameReadback, Needs: needs(w, Actions, Contents, Issues, PullRequests)},
		// A signed certificate is also uploaded as an artifact attestation.
		{Name: checks.NameCertificate, Needs: needs([]Permission{Checks, Attestations}, Actions, Contents, PullRequests)},
		// The release, its tag, the files at the tag and its assets.
		{Name: checks.NameAppRelease, Needs: needs(w, Contents)},
		// The milestone and its stories with their merged attempts, the
		// default branch's commits and runs, the control issue (a comment,
		// a milestone reopened), a demonstration's run, deployment or release.
		{Name: checks.NameIncrement, Needs: needs([]Permission{Checks, Issues}, Actions, Contents, Deployments, PullRequests)},
		// Deployments behind the App's protection rule: the answer, the
		// run's pending deployments, the config, the certificate and the
		// owner gate on the control issue.
		{Name: DeployFeature, Needs: needs([]Permission{Deployments, Issues}, Actions, Checks, Contents)},
		// `/aep merge` and merge.auto (app/merge): enqueuePullRequest and
		// dequeuePullRequest take Merge queues: write;
		// enablePullRequestAutoMerge, disablePullRequestAutoMerge and a
		// direct merge take Contents: write, as any merge does; the reply
		// and the reaction on the command, Issues: write.
		{Name: MergeFeature, Needs: needs([]Permission{Contents, Issues, MergeQueues}, PullRequests)},
	}
}

// MergeFeature names `/aep merge` (and merge.auto) among the App's
// features: the App merges a pull request's judged head.
const MergeFeature = "/aep merge"

// DeployFeature names the App's custom deployment protection rule among
// its features.
const DeployFeature = "deployment protection rule"

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

// SortedPermissions is the keys of ps in order.
func SortedPermissions(ps map[Permission]Access) []Permission {
	return slices.Sorted(maps.Keys(ps))
}
