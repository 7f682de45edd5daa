// Package deploy makes the App a custom deployment protection rule: each
// deployment_protection_rule.requested is kept in the store, judged by
// protocol/deployrules against the environment's rule in the repository config,
// and answered once — at once when the rule allows it, or when the owner
// answers the deploy gate it opened on the control issue. Every decision
// is a ledger row written through the App's writer.Writer.
package deploy

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"time"

	"github.com/aepgate/aepgate/app/owners"
	"github.com/aepgate/aepgate/app/writer"
	"github.com/aepgate/aepgate/internal/store"
	"github.com/aepgate/aepgate/protocol/approval"
	"github.com/aepgate/aepgate/protocol/deployrules"
)

// Judge answers one installation's deployment protection requests.
type Judge struct {
	Src   Source
	Store Store
	W     writer.Writer
	// Increments judges require: increment; nil: it cannot be met.
	Increments Increments
	// AppLogin is the App's bot login: its comments are not commands.
	AppLogin string
	// Rules decide; nil: protocol/deployrules's DefaultRules.
	Rules []deployrules.Rule
	// Distinct join owners' answers into people when the deploy gate's
	// category needs more than one (the zero value: every rule).
	Distinct approval.Rules
	Log      *slog.Logger
	// Now is the clock (nil: time.Now).
	Now func() time.Time
	// People resolves the config's owners and coordinators (app/owners,
	// the one resolver).
	People owners.Reader
}

// Input is what asked for a judgement.
type Input struct {
	Delivery, Event string
	Installation    int64
	Owner, Repo     string
}

// Request is one deployment_protection_rule.requested delivery.
type Request struct {
	Environment, SHA string
	RunID            int64
}

// Request keeps the request (a redelivery keeps the first time it was
// seen) and judges it, unless it was answered already.
func (j *Judge) Request(ctx context.Context, in Input, r Request) error {
	d, err := j.Store.RecordDeploy(ctx, store.Deploy{Repo: in.Owner + "/" + in.Repo, RunID: r.RunID, Environment: r.Environment,
		Installation: in.Installation, SHA: r.SHA, Requested: j.now()})
	if err != nil {
		return err
	}
	if d.State != store.DeployPending {
		return j.W.Record(ctx, entry(in, d, "answered-already", d.State, d.Reason, false))
	}
	return j.judge(ctx, in, d)
}

// Pending judges the repository's pending requests again (the owner
// answered on the control issue, or the sweep): a request GitHub no longer
// waits on is closed without an answer.
func (j *Judge) Pending(ctx context.Context, in Input, sweep bool) error {
	ds, err := j.Store.PendingDeploys(ctx, in.Owner+"/"+in.Repo)
	if err != nil {
		return err
	}
	for _, d := range ds {
		if sweep {
			waits, err := j.stillWaiting(ctx, in, d)
			if err != nil {
				return err
			}
			if !waits {
				continue
			}
		}
		if err := j.judge(ctx, in, d); err != nil {
			return err
		}
	}
	return nil
}

// stillWaiting asks GitHub whether d's run still waits on d's environment;
// when it does not, the request is closed as gone, with its ledger row.
func (j *Judge) stillWaiting(ctx context.Context, in Input, d store.Deploy) (bool, error) {
	envs, err := j.Src.PendingDeployments(ctx, in.Owner, in.Repo, d.RunID)
	if err != nil {
		return false, err
	}
	for _, e := range envs {
		if e == d.Environment {
			return true, nil
		}
	}
	const why = "GitHub no longer lists the deployment as pending (answered elsewhere, cancelled or expired)"
	if _, err := j.Store.AnswerDeploy(ctx, d, "gone", why, j.now()); err != nil {
		return false, err
	}
	return false, j.W.Record(ctx, entry(in, d, "gone", "gone", why, false))
}

// judge decides d under its lock and acts: wait (opening the gate), or
// answer once.
func (j *Judge) judge(ctx context.Context, in Input, d store.Deploy) error {
	unlock, err := j.Store.Lock(ctx, fmt.Sprintf("%s deploy run %d %s", d.Repo, d.RunID, d.Environment))
	if err != nil {
		return err
	}
	defer unlock()
	f, err := j.facts(ctx, in, d)
	if err != nil {
		return err
	}
	if err := j.answerGate(ctx, in, d, f); err != nil {
		return err
	}
	a := deployrules.DecideWith(request(d), f.Facts, j.rules())
	if a.Waiting() {
		if err := j.openGate(ctx, in, d, f); err != nil {
			return err
		}
		j.Log.Info("deployment waits for the owner", "run", d.RunID, "environment", d.Environment, "sha", d.SHA)
		return j.W.Record(ctx, entry(in, d, a.Rule, "waiting", a.Reason, false))
	}
	return j.answer(ctx, in, d, a)
}

// answer claims d in the store (so it is answered once, whoever gets there
// first), records the decision and sends it. A failed send returns d to
// pending for the next try, unless GitHub no longer waits on it (the
// answer landed and its response was lost, or the run ended).
func (j *Judge) answer(ctx context.Context, in Input, d store.Deploy, a deployrules.Answer) error {
	claimed, err := j.Store.AnswerDeploy(ctx, d, a.State, a.Reason, j.now())
	if err != nil || !claimed {
		return err
	}
	if err := j.W.Record(ctx, entry(in, d, a.Rule, a.State, a.Reason, true)); err != nil {
		return j.unclaim(ctx, d, err)
	}
	if err := j.Src.ReviewDeployment(ctx, in.Owner, in.Repo, d.RunID, d.Environment, a.State, a.Reason); err != nil {
		if envs, perr := j.Src.PendingDeployments(ctx, in.Owner, in.Repo, d.RunID); perr == nil && !slices.Contains(envs, d.Environment) {
			j.Log.Warn("the answer failed but GitHub no longer waits on the deployment; kept as answered", "run", d.RunID, "environment", d.Environment, "err", err)
			return nil
		}
		return j.unclaim(ctx, d, err)
	}
	j.Log.Info("deployment answered", "run", d.RunID, "environment", d.Environment, "sha", d.SHA, "state", a.State, "rule", a.Rule)
	return nil
}

func (j *Judge) unclaim(ctx context.Context, d store.Deploy, cause error) error {
	if err := j.Store.Unanswer(ctx, d); err != nil {
		return fmt.Errorf("%w (and: %v)", cause, err)
	}
	return cause
}

func (j *Judge) rules() []deployrules.Rule {
	if j.Rules != nil {
		return j.Rules
	}
	return deployrules.DefaultRules()
}

func (j *Judge) now() time.Time {
	if j.Now != nil {
		return j.Now()
	}
	return time.Now()
}

// request is the pure rule's view of d.
func request(d store.Deploy) deployrules.Request {
	return deployrules.Request{Repo: d.Repo, Environment: d.Environment, SHA: d.SHA, RunID: d.RunID, Requested: d.Requested}
}
