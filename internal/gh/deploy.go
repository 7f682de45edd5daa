package gh

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
)

// deploymentReview is the body of a custom deployment protection rule's
// review.
type deploymentReview struct {
	EnvironmentName string `json:"environment_name"`
	State           string `json:"state"`
	Comment         string `json:"comment"`
}

// ReviewDeployment answers the App's deployment protection rule for the
// deployment of workflow run runID to environment: state "approved" or
// "rejected", with comment saying why. GitHub answers 204.
//
// https://docs.github.com/rest/actions/workflow-runs#review-custom-deployment-protection-rules-for-a-workflow-run
func (in *Installation) ReviewDeployment(ctx context.Context, owner, repo string, runID int64, environment, state, comment string) error {
	what := fmt.Sprintf("review deployment of run %d to %s on %s/%s", runID, environment, owner, repo)
	req, err := in.rest.NewRequest(http.MethodPost, fmt.Sprintf("repos/%s/%s/actions/runs/%d/deployment_protection_rule",
		url.PathEscape(owner), url.PathEscape(repo), runID), deploymentReview{EnvironmentName: environment, State: state, Comment: comment})
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	if _, err := in.rest.Do(ctx, req, nil); err != nil {
		return classify(what, err)
	}
	return nil
}

// pendingDeployment is one entry of a run's pending deployments.
type pendingDeployment struct {
	Environment struct {
		Name string `json:"name"`
	} `json:"environment"`
}

// PendingDeployments names the environments workflow run runID waits to
// deploy to; a run GitHub no longer knows (404) waits for none.
//
// https://docs.github.com/rest/actions/workflow-runs#get-pending-deployments-for-a-workflow-run
func (in *Installation) PendingDeployments(ctx context.Context, owner, repo string, runID int64) ([]string, error) {
	what := fmt.Sprintf("pending deployments of run %d on %s/%s", runID, owner, repo)
	req, err := in.rest.NewRequest(http.MethodGet, fmt.Sprintf("repos/%s/%s/actions/runs/%d/pending_deployments",
		url.PathEscape(owner), url.PathEscape(repo), runID), nil)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	var ps []pendingDeployment
	resp, err := in.rest.Do(ctx, req, &ps)
	if resp != nil && resp.StatusCode == http.StatusNotFound {
		return nil, nil
	}
	if err != nil {
		return nil, classify(what, err)
	}
	out := make([]string, 0, len(ps))
	for _, p := range ps {
		out = append(out, p.Environment.Name)
	}
	return out, nil
}
