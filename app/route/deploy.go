package route

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"github.com/aepgate/aepgate/app/webhook"
)

// deployView is what the deployment family reads of a
// deployment_protection_rule payload.
type deployView struct {
	Environment string `json:"environment"`
	Callback    string `json:"deployment_callback_url"`
	Deployment  *struct {
		SHA string `json:"sha"`
	} `json:"deployment"`
}

// deployFamily: a deployment waiting on the App's custom deployment
// protection rule is kept and judged (app/deploy).
func deployFamily() Family {
	return Family{
		Name:   "deployments",
		Events: map[string][]string{"deployment_protection_rule": {"requested"}},
		View:   func() any { return new(deployView) },
		Derive: func(_ string, _ webhook.Envelope, raw []byte, _ int64) ([]Work, error) {
			v, err := decode[deployView](raw)
			if err != nil {
				return nil, err
			}
			run, err := callbackRun(v.Callback)
			if err != nil || v.Environment == "" || v.Deployment == nil || v.Deployment.SHA == "" {
				return nil, fmt.Errorf("deployment_protection_rule: environment, deployment.sha and a callback URL are required (%v)", err)
			}
			return []Work{JudgeDeploy{Environment: v.Environment, SHA: v.Deployment.SHA, RunID: run}}, nil
		},
	}
}

// callbackRun is the workflow run ID in a deployment_callback_url
// (…/actions/runs/{run_id}/deployment_protection_rule).
func callbackRun(callback string) (int64, error) {
	u, err := url.Parse(callback)
	if err != nil {
		return 0, err
	}
	rest, ok := strings.CutSuffix(u.Path, "/deployment_protection_rule")
	_, id, found := strings.Cut(rest, "/actions/runs/")
	if !ok || !found {
		return 0, fmt.Errorf("callback URL %q names no workflow run", callback)
	}
	return strconv.ParseInt(id, 10, 64)
}
