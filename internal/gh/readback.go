package gh

import (
	"context"
	"fmt"
	"time"

	"github.com/aepgate/aepgate/protocol/readbackrules"
	"github.com/aepgate/aepgate/protocol/snapshot"
)

// MergedPull is what merged-main readback observes of one pull request in
// one GraphQL query: the pull request, its final head, its merge commit,
// the workflow runs at the head and the App's own check runs at the head
// and at the merge commit, and the repository config on the default
// branch.
type MergedPull struct {
	Number   int
	URL      string
	Body     string
	State    string
	Merged   bool
	MergedAt time.Time
	// HeadSHA is the final head and HeadTree its tree.
	HeadSHA, HeadTree string
	BaseRef           string
	DefaultBranch     string
	Config            snapshot.ConfigFile
	// MergeSHA is the merge commit (empty until merged), MergeTree its tree
	// and MergeParents its parents, first parent first.
	MergeSHA, MergeTree string
	MergeParents        []string
	// HeadKnown is false when GitHub listed no commit for the head, and
	// then nothing at the head is known.
	HeadKnown bool
	// PRRuns are the workflow runs at the head: one per check suite GitHub
	// Actions made there, with the suite's status and conclusion (those of
	// the run's newest attempt).
	PRRuns []readbackrules.Run
	// RunsUnreadable is GitHub's refusal when the App may not read workflow
	// runs (it lacks Actions: read).
	RunsUnreadable string
	// HeadRuns and MergeRuns are the App's own check runs at the head and
	// at the merge commit.
	HeadRuns, MergeRuns []snapshot.ExistingRun
	// MergedBy is who merged (GitHub's mergedBy; REST's login form, a Bot
	// with "[bot]"); empty for a deleted account.
	MergedBy snapshot.Actor
	// Comments are the newest mergedPullComments comments of the pull
	// request (where an owner accepts a merge made without authority).
	Comments snapshot.Thread
}

// mergedPullComments bounds the comments readback reads of a merged pull
// request: the newest ones, where an acceptance of its merge is.
const mergedPullComments = 100

// Latest returns the newest of runs called name, or nil.
func Latest(runs []snapshot.ExistingRun, name string) *snapshot.ExistingRun {
	var last *snapshot.ExistingRun
	for i := range runs {
		if runs[i].Name == name && (last == nil || runs[i].ID > last.ID) {
			last = &runs[i]
		}
	}
	return last
}

// ownRunsPage bounds the App's own check runs read on one commit.
const ownRunsPage = 50

// ownSuites reads the App's own check runs on a commit.
func ownSuites(appID int64) string {
	return fmt.Sprintf(`own: checkSuites(first: 5, filterBy: {appId: %d}) { nodes { checkRuns(first: %d) { nodes { databaseId name status conclusion title summary text externalId detailsUrl } } } }`, appID, ownRunsPage)
}

// mergedPullQuery is the readback query of pull request $number.
func mergedPullQuery(appID int64) string {
	return fmt.Sprintf(`query($owner: String!, $name: String!, $number: Int!) { repository(owner: $owner, name: $name) {
  defaultBranchRef { name target { ... on Commit { oid file(path: %q) { object { ... on Blob { text isTruncated } } } } } }
  pullRequest(number: $number) { number url body state merged mergedAt headRefOid baseRefName mergedBy { __typename login }
    comments(last: %d) { %s }
    mergeCommit { oid tree { oid } parents(first: 3) { nodes { oid } } %s }
    head: commits(last: 1) { nodes { commit { oid tree { oid }
      ci: checkSuites(first: %d) { nodes { status conclusion workflowRun { databaseId event workflow { name } } } }
      %s } } }
  }
} }`, ConfigPath, mergedPullComments, commentFields, ownSuites(appID), allSuitesPage, ownSuites(appID))
}

// MergedPull reads pull request number of owner/repo for readback in one
// GraphQL query. A pull request that does not exist is nil. Workflow runs
// the App may not read (no Actions: read) leave RunsUnreadable set; any
// other refusal fails the read.
//
// https://docs.github.com/graphql/reference/objects#pullrequest
func (in *Installation) MergedPull(ctx context.Context, owner, repo string, number int) (*MergedPull, error) {
	var raw struct{ Repository *jsonMergedRepo }
	vars := map[string]any{"owner": owner, "name": repo, "number": number}
	denied, err := graphQLPartial(ctx, in.hc, in.graphqlURL, mergedPullQuery(in.appID), vars, &raw)
	if err != nil {
		return nil, fmt.Errorf("readback of %s/%s#%d: %w", owner, repo, number, err)
	}
	if raw.Repository == nil {
		return nil, fmt.Errorf("readback of %s/%s: repository not visible", owner, repo)
	}
	m := raw.Repository.merged()
	for _, e := range denied {
		switch {
		case e.at("workflowRun") && m != nil:
			m.RunsUnreadable = e.Message
		case e.alias() == "defaultBranchRef" && m != nil:
			m.Config = snapshot.ConfigFile{Unreadable: e.Message}
		default:
			return nil, fmt.Errorf("readback of %s/%s#%d: %w", owner, repo, number, graphQLError(denied))
		}
	}
	if m != nil {
		if err := in.AttachBase(ctx, &m.Config); err != nil {
			return nil, fmt.Errorf("readback of %s/%s#%d: %w", owner, repo, number, err)
		}
	}
	return m, nil
}
