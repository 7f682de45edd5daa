package gh

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/aepgate/aepgate/protocol/workunit"
)

// ConfigPath is the repository config file, read from the default branch.
const ConfigPath = ".github/aepgate.yml"

// milestoneIssuesPage is how many issues of a milestone are fetched: more
// than an increment may hold (8), so an over-full milestone is seen as such.
const milestoneIssuesPage = 20

// PullRequest is a pull request as the work-unit check needs it.
type PullRequest struct {
	Number  int
	Body    string
	State   string // OPEN, CLOSED or MERGED
	HeadSHA string
	// Runs are this App's check runs on the head commit (only filled by
	// WorkUnitSnapshot), so unchanged runs need no write.
	Runs []ExistingRun
	// RunsKnown is false when GitHub did not list the head commit, so Runs
	// says nothing (not "no runs").
	RunsKnown bool
}

// ExistingRun is a check run already on a commit, as GraphQL reports it
// (status and conclusion in lower case, as REST writes them).
type ExistingRun struct {
	// ID is the run's database ID; the highest of a name is the one GitHub shows.
	ID                                                         int64
	Name, Status, Conclusion, Title, Summary, Text, ExternalID string
}

// ConfigFile is the repository config as held on the default branch.
type ConfigFile struct {
	Found     bool
	Text      string
	Truncated bool
	// CommitSHA is the default-branch commit it was read at.
	CommitSHA string
	// Unreadable is GitHub's refusal when the App may not read the file
	// (it lacks Contents: read); empty otherwise.
	Unreadable string
}

// WorkUnitSnapshot is what one GraphQL query tells about a pull request, its
// repository's config and the issues guessed to be its unit.
type WorkUnitSnapshot struct {
	DefaultBranch string
	Config        ConfigFile
	PR            *PullRequest // nil when the number is not a pull request
	// Units holds the guessed issues; nil values for numbers that do not exist.
	Units map[int]*workunit.Issue
	// NativeBlockers is false when the server has no issue dependencies, so
	// only contract depends_on could be checked.
	NativeBlockers bool
}

// WorkUnitSnapshot reads, in one GraphQL query, pull request pr (0 for
// none), the repository config on the default branch and each issue in
// guesses with its milestone, the milestone's stories and their blockers.
// Servers without issue dependencies (older GHES) are detected once and
// queried without them.
func (in *Installation) WorkUnitSnapshot(ctx context.Context, owner, repo string, pr int, guesses []int) (*WorkUnitSnapshot, error) {
	blockers := !in.noBlockedBy.Load()
	appID := in.appID
	var raw map[string]jsonRepo
	vars := map[string]any{"owner": owner, "name": repo}
	denied, err := graphQLPartial(ctx, in.hc, in.graphqlURL, snapshotQuery(pr, appID, guesses, blockers), vars, &raw)
	if ge, ok := err.(*GraphQLError); ok && blockers && ge.mentions("blockedBy") {
		in.noBlockedBy.Store(true)
		blockers = false
		denied, err = graphQLPartial(ctx, in.hc, in.graphqlURL, snapshotQuery(pr, appID, guesses, blockers), vars, &raw)
	}
	if err != nil {
		return nil, fmt.Errorf("work-unit snapshot of %s/%s#%d: %w", owner, repo, pr, err)
	}
	r, ok := raw["repository"]
	if !ok || r.NameWithOwner == "" {
		return nil, fmt.Errorf("work-unit snapshot of %s/%s: repository not visible", owner, repo)
	}
	s := r.snapshot(guesses, blockers)
	if err := s.markDenied(denied); err != nil {
		return nil, fmt.Errorf("work-unit snapshot of %s/%s#%d: %w", owner, repo, pr, err)
	}
	return s, nil
}

// markDenied records what the installation may not read: a unit (the App
// lacks Issues: read, or the issue is elsewhere) or the config file
// (Contents: read). Anything else denied fails the snapshot.
func (s *WorkUnitSnapshot) markDenied(denied []gqlErr) error {
	for _, e := range denied {
		a := e.alias()
		switch {
		case a == "defaultBranchRef":
			s.Config = ConfigFile{Unreadable: e.Message}
		case strings.HasPrefix(a, "u"):
			n, err := strconv.Atoi(a[1:])
			if err != nil {
				return graphQLError(denied)
			}
			s.Units[n] = &workunit.Issue{Number: n, Unreadable: e.Message}
		default:
			return graphQLError(denied)
		}
	}
	return nil
}

func snapshotQuery(pr int, appID int64, guesses []int, blockers bool) string {
	var b strings.Builder
	b.WriteString(`query($owner: String!, $name: String!) { repository(owner: $owner, name: $name) {
  nameWithOwner
  defaultBranchRef { name target { ... on Commit { oid file(path: "` + ConfigPath + `") { object { ... on Blob { text isTruncated } } } } } }
`)
	if pr > 0 {
		filter := ""
		if appID > 0 {
			filter = fmt.Sprintf(", filterBy: {appId: %d}", appID)
		}
		fmt.Fprintf(&b, `  pullRequest(number: %d) { number body state headRefOid
    commits(last: 1) { nodes { commit { oid checkSuites(first: 20%s) { nodes { checkRuns(first: 50) { nodes { databaseId name status conclusion title summary text externalId } } } } } } } }
`, pr, filter)
	}
	deps := ""
	if blockers {
		deps = " blockedBy(first: 50) { totalCount nodes { number state repository { nameWithOwner } } }"
	}
	for _, n := range guesses {
		fmt.Fprintf(&b, `  u%d: issueOrPullRequest(number: %d) { __typename ... on Issue { number title body state%s
    milestone { number title state description issues(first: %d) { totalCount nodes { number state body%s } } } } }
`, n, n, deps, milestoneIssuesPage, deps)
	}
	b.WriteString("} }")
	return b.String()
}

const openPullRequestsQuery = `query($owner: String!, $name: String!, $after: String) { repository(owner: $owner, name: $name) {
  pullRequests(states: OPEN, first: 100, after: $after) { nodes { number body state headRefOid } pageInfo { hasNextPage endCursor } } } }`

// OpenPullRequests lists the open pull requests of owner/repo with their
// bodies (GraphQL, 100 a page), for re-evaluating the pull requests that
// name an issue after it changed.
func (in *Installation) OpenPullRequests(ctx context.Context, owner, repo string) ([]PullRequest, error) {
	q := openPullRequestsQuery
	var out []PullRequest
	var after any
	for {
		var data struct {
			Repository *struct {
				PullRequests struct {
					Nodes []struct {
						Number     int
						Body       string
						State      string
						HeadRefOid string
					}
					PageInfo struct {
						HasNextPage bool
						EndCursor   string
					}
				}
			}
		}
		if err := graphQL(ctx, in.hc, in.graphqlURL, q, map[string]any{"owner": owner, "name": repo, "after": after}, &data); err != nil {
			return nil, fmt.Errorf("open pull requests of %s/%s: %w", owner, repo, err)
		}
		if data.Repository == nil {
			return nil, fmt.Errorf("open pull requests of %s/%s: repository not visible", owner, repo)
		}
		prs := data.Repository.PullRequests
		for _, p := range prs.Nodes {
			out = append(out, PullRequest{Number: p.Number, Body: p.Body, State: p.State, HeadSHA: p.HeadRefOid})
		}
		if !prs.PageInfo.HasNextPage || prs.PageInfo.EndCursor == "" || prs.PageInfo.EndCursor == after {
			return out, nil
		}
		after = prs.PageInfo.EndCursor
	}
}
