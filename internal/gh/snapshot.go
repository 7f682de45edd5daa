package gh

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/aepgate/aepgate/protocol/config"
	"github.com/aepgate/aepgate/protocol/snapshot"
	"github.com/aepgate/aepgate/protocol/workunit"
)

// ConfigPath is the repository config file, read from the default branch.
const ConfigPath = config.DefaultPath

// ControlLabel marks a repository's control issue, where project-wide HOLDs
// and project gates are made (docs/app.md).
const ControlLabel = "aepgate:control"

// SnapshotRequest says what to read: pull request PR (0 for none), the
// issues guessed to be its work unit, and the optional parts Needs names.
type SnapshotRequest struct {
	Owner, Repo string
	PR          int
	// Guesses are the issue numbers the caller expects the body to name
	// (from the webhook payload); the body is re-read from GitHub, and a
	// single unit it names that is not among the guesses is read with a
	// second query.
	Guesses []int
	Needs   snapshot.Needs
	// Marks says how far the App read each long thread before (nil: no
	// marks; every long thread is read whole, up to maxCommentPages).
	Marks ThreadMarker
	// Attempts is the App's index of the units' open pull requests (nil:
	// none): a unit mentioned more often than one query reads has its
	// attempts read from it when it is complete (indexedAttempts).
	Attempts AttemptIndex
}

// Snapshot reads, in one GraphQL query, the pull request, the repository
// config on the default branch, each guessed unit with its milestone, the
// milestone's stories and their blockers, and whatever req.Needs adds
// (conversation, files, commits, every check at the head). Servers without
// issue dependencies (older GHES) are detected once and queried without
// them. When the body names one unit that was not guessed, a second query
// reads it.
func (in *Installation) Snapshot(ctx context.Context, req SnapshotRequest) (*snapshot.PR, error) {
	return in.snapshot(ctx, req, in.completeLanes)
}

// snapshot is Snapshot with the stories' lanes the query's window cut
// short completed by lanes.
func (in *Installation) snapshot(ctx context.Context, req SnapshotRequest, lanes lanesCompleter) (*snapshot.PR, error) {
	s, err := in.snapshotOnce(ctx, req, lanes)
	if err != nil || s.Pull == nil {
		return s, err
	}
	n, ok := workunit.SoleUnit(s.Pull.Body, req.Owner+"/"+req.Repo)
	if !ok {
		return s, nil
	}
	if _, ok := s.Units[n]; ok {
		return s, nil
	}
	again, err := in.snapshotOnce(ctx, SnapshotRequest{Owner: req.Owner, Repo: req.Repo, Guesses: []int{n}, Needs: snapshot.Needs{Conversation: req.Needs.Conversation}, Marks: req.Marks, Attempts: req.Attempts}, lanes)
	if err != nil {
		return nil, err
	}
	s.Units[n] = again.Units[n]
	if t, ok := again.UnitComments[n]; ok {
		s.UnitComments[n] = t
	}
	if a, ok := again.UnitAttempts[n]; ok {
		s.UnitAttempts[n] = a
	}
	return s, nil
}

func (in *Installation) snapshotOnce(ctx context.Context, req SnapshotRequest, lanes lanesCompleter) (*snapshot.PR, error) {
	plan := queryPlan{pr: req.PR, appID: in.appID, guesses: req.Guesses, blockers: !in.noBlockedBy.Load(), needs: req.Needs}
	var raw map[string]jsonRepo
	vars := map[string]any{"owner": req.Owner, "name": req.Repo}
	denied, err := graphQLPartial(ctx, in.hc, in.graphqlURL, plan.query(), vars, &raw)
	if ge, ok := err.(*GraphQLError); ok && plan.blockers && ge.mentions("blockedBy") {
		in.noBlockedBy.Store(true)
		plan.blockers = false
		raw = nil
		denied, err = graphQLPartial(ctx, in.hc, in.graphqlURL, plan.query(), vars, &raw)
	}
	if err != nil {
		return nil, fmt.Errorf("snapshot of %s/%s#%d: %w", req.Owner, req.Repo, req.PR, err)
	}
	r, ok := raw["repository"]
	if !ok || r.NameWithOwner == "" {
		return nil, fmt.Errorf("snapshot of %s/%s: repository not visible", req.Owner, req.Repo)
	}
	s := r.snapshot(plan)
	if err := markDenied(s, denied); err != nil {
		return nil, fmt.Errorf("snapshot of %s/%s#%d: %w", req.Owner, req.Repo, req.PR, err)
	}
	if err := in.completeThreads(ctx, req.Owner, req.Repo, s, req.Marks, req.Attempts); err != nil {
		return nil, fmt.Errorf("snapshot of %s/%s#%d: %w", req.Owner, req.Repo, req.PR, err)
	}
	if err := lanes(ctx, req.Owner, req.Repo, r.URL, s, req.Attempts); err != nil {
		return nil, fmt.Errorf("snapshot of %s/%s#%d: %w", req.Owner, req.Repo, req.PR, err)
	}
	if err := in.AttachBase(ctx, &s.Config); err != nil {
		return nil, fmt.Errorf("snapshot of %s/%s#%d: %w", req.Owner, req.Repo, req.PR, err)
	}
	return s, nil
}

// markDenied records what the installation may not read: a unit (the App
// lacks Issues: read, or the issue is elsewhere) or the config file
// (Contents: read). Anything else denied fails the snapshot.
func markDenied(s *snapshot.PR, denied []gqlErr) error {
	for _, e := range denied {
		a := e.alias()
		switch {
		case e.at("workflowRun") && s.Pull != nil:
			s.Pull.WorkflowsUnreadable = e.Message
		case a == "defaultBranchRef":
			s.Config = snapshot.ConfigFile{Unreadable: e.Message}
		case a == "control":
			s.IssuesUnreadable = e.Message
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

// OpenPull is an open pull request as a sweep needs it: enough to tell
// which unit it names.
type OpenPull struct {
	Number  int
	Body    string
	HeadSHA string
}

const openPullRequestsQuery = `query($owner: String!, $name: String!, $after: String) { repository(owner: $owner, name: $name) {
  pullRequests(states: OPEN, first: 100, after: $after) { nodes { number body headRefOid } pageInfo { hasNextPage endCursor } } } }`

// OpenPullRequests lists the open pull requests of owner/repo with their
// bodies (GraphQL, 100 a page), for re-evaluating the pull requests that
// name an issue after it changed.
func (in *Installation) OpenPullRequests(ctx context.Context, owner, repo string) ([]OpenPull, error) {
	var out []OpenPull
	var after any
	for {
		var data struct {
			Repository *struct {
				PullRequests struct {
					Nodes []struct {
						Number     int
						Body       string
						HeadRefOid string
					}
					PageInfo struct {
						HasNextPage bool
						EndCursor   string
					}
				}
			}
		}
		if err := graphQL(ctx, in.hc, in.graphqlURL, openPullRequestsQuery, map[string]any{"owner": owner, "name": repo, "after": after}, &data); err != nil {
			return nil, fmt.Errorf("open pull requests of %s/%s: %w", owner, repo, err)
		}
		if data.Repository == nil {
			return nil, fmt.Errorf("open pull requests of %s/%s: repository not visible", owner, repo)
		}
		prs := data.Repository.PullRequests
		for _, p := range prs.Nodes {
			out = append(out, OpenPull{Number: p.Number, Body: p.Body, HeadSHA: p.HeadRefOid})
		}
		if !prs.PageInfo.HasNextPage || prs.PageInfo.EndCursor == "" || prs.PageInfo.EndCursor == after {
			return out, nil
		}
		after = prs.PageInfo.EndCursor
	}
}

// sortedGuesses is guesses without repeats, in order, so the same request
// always builds the same query.
func sortedGuesses(g []int) []int {
	g = slices.Clone(g)
	slices.Sort(g)
	return slices.Compact(g)
}
