package gh

import (
	"context"
	"fmt"

	"github.com/aepgate/aepgate/protocol/gitsha"
	"github.com/aepgate/aepgate/protocol/snapshot"
)

const workflowRunsAtQuery = `query($owner: String!, $name: String!, $oid: GitObjectID!) { repository(owner: $owner, name: $name) {
  object(oid: $oid) { ... on Commit { checkSuites(first: 50) { nodes { status conclusion workflowRun { databaseId url event workflow { name } } } } } } } }`

// WorkflowRunsAt lists the GitHub Actions workflow runs at commit sha (one
// per check suite Actions made there, with its newest attempt's state), in
// one GraphQL query. unreadable is GitHub's refusal when the App may not
// read workflow runs (it lacks Actions: read).
func (in *Installation) WorkflowRunsAt(ctx context.Context, owner, repo, sha string) (runs []snapshot.WorkflowRun, unreadable string, err error) {
	var data struct {
		Repository *struct {
			Object *struct {
				CheckSuites struct {
					Nodes []jsonSuite
				}
			}
		}
	}
	vars := map[string]any{"owner": owner, "name": repo, "oid": sha}
	denied, err := graphQLPartial(ctx, in.hc, in.graphqlURL, workflowRunsAtQuery, vars, &data)
	if err != nil {
		return nil, "", fmt.Errorf("workflow runs at %s: %w", gitsha.Short(sha), err)
	}
	for _, e := range denied {
		if !e.at("workflowRun") {
			return nil, "", fmt.Errorf("workflow runs at %s: %w", gitsha.Short(sha), graphQLError(denied))
		}
		unreadable = e.Message
	}
	if data.Repository == nil || data.Repository.Object == nil {
		return nil, "", fmt.Errorf("workflow runs at %s: no such commit in %s/%s", gitsha.Short(sha), owner, repo)
	}
	for _, s := range data.Repository.Object.CheckSuites.Nodes {
		if w := s.WorkflowRun; w != nil {
			runs = append(runs, snapshot.WorkflowRun{ID: w.DatabaseID, Workflow: w.Workflow.Name, Event: w.Event, URL: w.URL,
				Status: lower(s.Status), Conclusion: lower(s.Conclusion)})
		}
	}
	return runs, unreadable, nil
}
