package app

import (
	"context"
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"github.com/aepgate/aepgate/app/deploy"
	"github.com/aepgate/aepgate/app/increment"
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
func deployFamily() family {
	return family{
		name:   "deployments",
		events: map[string][]string{"deployment_protection_rule": {"requested"}},
		view:   func() any { return new(deployView) },
		work: func(_ string, _ envelope, raw []byte, _ int64) ([]work, error) {
			v, err := decode[deployView](raw)
			if err != nil {
				return nil, err
			}
			run, err := callbackRun(v.Callback)
			if err != nil || v.Environment == "" || v.Deployment == nil || v.Deployment.SHA == "" {
				return nil, fmt.Errorf("deployment_protection_rule: environment, deployment.sha and a callback URL are required (%v)", err)
			}
			return []work{judgeDeploy{Environment: v.Environment, SHA: v.Deployment.SHA, RunID: run}}, nil
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

// judgeDeploy keeps and judges one deployment protection request.
type judgeDeploy deploy.Request

func (j judgeDeploy) run(ctx context.Context, a *App, ev *evaluator, w where) error {
	d, err := a.deployJudge(ctx, w, ev)
	if err != nil {
		return err
	}
	return d.Request(ctx, deployInput(w), deploy.Request(j))
}

// judgeDeploys judges the repository's pending deployment requests again:
// after a comment on the control issue (the owner's answer, a HOLD), and
// in the sweep, which first asks GitHub whether each still waits.
type judgeDeploys struct{}

func (judgeDeploys) run(ctx context.Context, a *App, ev *evaluator, w where) error {
	if pending, err := a.db.PendingDeploys(ctx, w.owner+"/"+w.repo); err != nil || len(pending) == 0 {
		return err // nothing waits: no call to GitHub
	}
	d, err := a.deployJudge(ctx, w, ev)
	if err != nil {
		return err
	}
	return d.Pending(ctx, deployInput(w), w.event == reconcileEvent)
}

func deployInput(w where) deploy.Input {
	return deploy.Input{Delivery: w.delivery, Event: w.event, Installation: w.installation, Owner: w.owner, Repo: w.repo}
}

// deployJudge is the installation's deployment judge.
func (a *App) deployJudge(ctx context.Context, w where, ev *evaluator) (*deploy.Judge, error) {
	in, err := a.clients.Installation(w.installation)
	if err != nil {
		return nil, err
	}
	login, err := a.clients.AppLogin(ctx)
	if err != nil {
		return nil, err
	}
	return &deploy.Judge{Src: in, Store: a.db, W: a.writer(in.CheckPublisher()), Increments: increment.Deployable{Checks: in},
		AppLogin: login, Rules: a.opts.deployRules, Log: ev.log}, nil
}
