package deploy

import (
	"context"
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"github.com/aepgate/aepgate/app/route"
	"github.com/aepgate/aepgate/app/webhook"
	"github.com/aepgate/aepgate/internal/store"
)

// JudgeDeploy keeps and judges one deployment protection request.
type JudgeDeploy Request

// WorkKind implements route.Work.
func (JudgeDeploy) WorkKind() string { return "JudgeDeploy" }

// JudgeDeploys judges the repository's pending deployment requests again:
// after a comment on the control issue (the owner's answer, a HOLD), and
// in the sweep (Sweep), which first asks GitHub whether each still waits.
type JudgeDeploys struct {
	Sweep bool
}

// WorkKind implements route.Work.
func (JudgeDeploys) WorkKind() string { return "JudgeDeploys" }

// deployView is what the deployment family reads of a
// deployment_protection_rule payload.
type deployView struct {
	Environment string `json:"environment"`
	Callback    string `json:"deployment_callback_url"`
	Deployment  *struct {
		SHA string `json:"sha"`
	} `json:"deployment"`
}

// Family: a deployment waiting on the App's custom deployment protection
// rule is kept and judged.
func Family() route.Family {
	return route.Family{
		Name:   "deployments",
		Events: map[string][]string{"deployment_protection_rule": {"requested"}},
		View:   func() any { return new(deployView) },
		Derive: func(_ string, _ webhook.Envelope, raw []byte, _ int64) ([]route.Work, error) {
			v, err := route.Decode[deployView](raw)
			if err != nil {
				return nil, err
			}
			run, err := callbackRun(v.Callback)
			if err != nil || v.Environment == "" || v.Deployment == nil || v.Deployment.SHA == "" {
				return nil, fmt.Errorf("deployment_protection_rule: environment, deployment.sha and a callback URL are required (%v)", err)
			}
			return []route.Work{JudgeDeploy{Environment: v.Environment, SHA: v.Deployment.SHA, RunID: run}}, nil
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

// Pending reads the requests still waiting (store.DB).
type Pending interface {
	PendingDeploys(ctx context.Context, repo string) ([]store.Deploy, error)
}

// Register makes a copy of dj, the installation's judge, with the App's
// login (appLogin) do JudgeDeploy and JudgeDeploys; JudgeDeploys asks pending first and, when nothing waits,
// builds no judge and calls no GitHub.
func Register(h *route.Handlers, pending Pending, dj Judge, appLogin func(context.Context) (string, error)) {
	judge := func(ctx context.Context, _ route.Where) (*Judge, error) {
		d := dj
		var err error
		d.AppLogin, err = appLogin(ctx)
		return &d, err
	}
	route.Handle(h, func(ctx context.Context, w route.Where, j JudgeDeploy) error {
		d, err := judge(ctx, w)
		if err != nil {
			return err
		}
		return d.Request(ctx, input(w), Request(j))
	})
	route.Handle(h, func(ctx context.Context, w route.Where, j JudgeDeploys) error {
		if ds, err := pending.PendingDeploys(ctx, w.FullName()); err != nil || len(ds) == 0 {
			return err
		}
		d, err := judge(ctx, w)
		if err != nil {
			return err
		}
		return d.Pending(ctx, input(w), j.Sweep)
	})
}

// input is what asked for work done for w.
func input(w route.Where) Input {
	return Input{Delivery: w.Delivery, Event: w.Event, Installation: w.Installation, Owner: w.Owner, Repo: w.Repo}
}
