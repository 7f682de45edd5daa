package ghfake

import (
	"net/http"
	"strconv"
	"strings"
)

// deployWait is one deployment of a workflow run waiting on a custom
// deployment protection rule: the job's environment, the deployment made
// for it, and the answer once an App gave one.
type deployWait struct {
	id          int64
	environment string
	state       string // "" while waiting, then approved or rejected
	comment     string
	app         *App // the App that answered
}

// DeploymentReview is an answer an App gave to a deployment protection
// rule, as the scenario reads it back.
type DeploymentReview struct {
	Environment, State, Comment string
	// AppID is the App whose token answered.
	AppID int64
}

// RequestDeployment makes run wait to deploy to environment behind the
// installed App's custom deployment protection rule, as a job naming an
// environment does, and sends deployment_protection_rule.requested. It
// returns the deployment's ID.
func (w *WorkflowRun) RequestDeployment(environment string) int64 {
	f := w.r.f
	defer f.flush()
	f.mu.Lock()
	defer f.mu.Unlock()
	s := w.r.s
	run := s.run(w.id)
	d := &deployWait{id: f.nextID(), environment: environment}
	run.deploys = append(run.deploys, d)
	run.status = "waiting"
	f.emitDeployRule(s, run, d)
	return d.id
}

// Redeliver sends the run's deployment_protection_rule.requested for
// environment again, as GitHub's redelivery does.
func (w *WorkflowRun) Redeliver(environment string) {
	f := w.r.f
	defer f.flush()
	f.mu.Lock()
	defer f.mu.Unlock()
	run := w.r.s.run(w.id)
	for _, d := range run.deploys {
		if d.environment == environment {
			f.emitDeployRule(w.r.s, run, d)
		}
	}
}

// DeploymentReviews are the answers Apps gave to run's deployments, in
// the order of its deployments; one still waiting has no entry.
func (w *WorkflowRun) DeploymentReviews() []DeploymentReview {
	f := w.r.f
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []DeploymentReview
	for _, d := range w.r.s.run(w.id).deploys {
		if d.state != "" {
			out = append(out, DeploymentReview{Environment: d.environment, State: d.state, Comment: d.comment, AppID: d.app.ID})
		}
	}
	return out
}

// emitDeployRule sends deployment_protection_rule.requested for d; the
// callback URL is the review endpoint of d's run.
func (f *Fake) emitDeployRule(s *repoState, run *workflowRun, d *deployWait) {
	api := f.api(s)
	f.emit(s, "deployment_protection_rule", "requested", run.actor, obj{
		"environment": d.environment, "event": run.event,
		"deployment_callback_url": api + "/actions/runs/" + itoa(run.id) + "/deployment_protection_rule",
		"deployment":              f.deploymentJSON(s, run, d),
		"pull_requests":           []any{},
	})
}

// deploymentJSON is GitHub's deployment object for d.
func (f *Fake) deploymentJSON(s *repoState, run *workflowRun, d *deployWait) obj {
	url := f.api(s) + "/deployments/" + itoa(d.id)
	return obj{"url": url, "id": d.id, "node_id": nodeID("Deployment", d.id), "sha": run.headSHA, "ref": run.headBranch,
		"task": "deploy", "payload": obj{}, "original_environment": d.environment, "environment": d.environment,
		"description": nil, "creator": f.userJSON(run.actor), "created_at": ts(run.updated), "updated_at": ts(run.updated),
		"statuses_url": url + "/statuses", "repository_url": f.api(s), "transient_environment": false, "production_environment": false}
}

// environmentJSON is the environment object of a pending deployment.
func (f *Fake) environmentJSON(s *repoState, name string) obj {
	return obj{"id": int64(len(name)) + 1000, "node_id": nodeID("Environment", int64(len(name))+1000), "name": name,
		"url": f.api(s) + "/environments/" + name, "html_url": "https://github.com/" + s.fullName + "/deployments/activity_log?environments_filter=" + name}
}

func (f *Fake) deployRoutes() {
	f.handle("GET /repos/{owner}/{repo}/actions/runs/{run_id}/pending_deployments", read("actions"), pendingDeployments)
	f.handle("POST /repos/{owner}/{repo}/actions/runs/{run_id}/deployment_protection_rule", write("deployments"), reviewDeployment)
}

// pendingDeployments lists the environments a run still waits for.
func pendingDeployments(c *call) (int, any) {
	id, _ := strconv.ParseInt(c.r.PathValue("run_id"), 10, 64)
	run := c.repo.run(id)
	if run == nil {
		return notFound()
	}
	out := []any{}
	for _, d := range run.deploys {
		if d.state == "" {
			out = append(out, obj{"environment": c.f.environmentJSON(c.repo, d.environment), "wait_timer": 0,
				"wait_timer_started_at": nil, "current_user_can_approve": false, "reviewers": []any{}})
		}
	}
	return http.StatusOK, out
}

// reviewDeployment is an App's answer to its deployment protection rule:
// only an App's token, only a deployment still waiting, once.
func reviewDeployment(c *call) (int, any) {
	var body struct {
		EnvironmentName string `json:"environment_name"`
		State           string `json:"state"`
		Comment         string `json:"comment"`
	}
	if err := c.decode(&body); err != nil {
		return badJSON(err)
	}
	if body.State != "approved" && body.State != "rejected" {
		return invalid("DeploymentProtectionRule", "state", "invalid", "state must be approved or rejected")
	}
	if c.tok == nil || c.tok.inst == nil {
		return apiError(http.StatusForbidden, "Only a GitHub App can review its deployment protection rule")
	}
	id, _ := strconv.ParseInt(c.r.PathValue("run_id"), 10, 64)
	run := c.repo.run(id)
	if run == nil {
		return notFound()
	}
	for _, d := range run.deploys {
		if d.state == "" && strings.EqualFold(d.environment, body.EnvironmentName) {
			d.state, d.comment, d.app = body.State, body.Comment, c.tok.app
			c.f.settleRun(c.repo, run)
			return http.StatusNoContent, nil
		}
	}
	return unprocessable("No pending deployment requests to approve or reject")
}

// settleRun moves a run that waits for nothing more back to in progress,
// or fails it when a deployment was rejected.
func (f *Fake) settleRun(s *repoState, run *workflowRun) {
	for _, d := range run.deploys {
		if d.state == "" {
			return
		}
	}
	for _, d := range run.deploys {
		if d.state == "rejected" {
			f.finishRun(s, run, "failure")
			return
		}
	}
	run.status = "in_progress"
}
