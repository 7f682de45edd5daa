package ghfake

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// workflowRun is a GitHub Actions run; a re-run keeps its ID and bumps its
// attempt.
type workflowRun struct {
	id         int64
	workflowID int64
	name       string
	path       string
	headSHA    string
	headBranch string
	event      string
	status     string
	conclusion string
	number     int
	attempt    int
	actor      *user
	created    time.Time
	updated    time.Time
	started    time.Time
	attempts   []runAttempt  // earlier attempts, oldest first
	suite      *checkSuite   // its own check suite, kept across attempts
	deploys    []*deployWait // deployments waiting on a protection rule (deploy.go)
}

type runAttempt struct {
	status, conclusion string
	started, updated   time.Time
}

// RunOptions describes a workflow run made through the scenario API.
type RunOptions struct {
	Name       string // workflow name, e.g. "ci"
	Path       string // workflow file; default .github/workflows/<name>.yml
	SHA        string // head SHA (or any ref); default: the branch head
	Branch     string // head branch; default: the default branch
	Event      string // push, pull_request, workflow_dispatch, …; default push
	Conclusion string // success, failure, …; "" leaves the run in progress
	Actor      string // who triggered it; default the repository owner
}

// WorkflowRun is the scenario handle of a workflow run.
type WorkflowRun struct {
	r  *Repo
	id int64
}

// ID is the run's ID, the same across attempts.
func (w *WorkflowRun) ID() int64 { return w.id }

// CompleteWorkflowRun records a finished run (conclusion defaults to
// success) and returns its handle.
func (r *Repo) CompleteWorkflowRun(o RunOptions) *WorkflowRun {
	if o.Conclusion == "" {
		o.Conclusion = "success"
	}
	return r.StartWorkflowRun(o)
}

// StartWorkflowRun records a run; with no Conclusion it stays in progress
// until Complete.
func (r *Repo) StartWorkflowRun(o RunOptions) *WorkflowRun {
	f := r.f
	defer f.flush()
	f.mu.Lock()
	defer f.mu.Unlock()
	run, err := f.newRun(r.s, o)
	if err != nil {
		panic("ghfake: workflow run: " + err.Error())
	}
	return &WorkflowRun{r: r, id: run.id}
}

func (f *Fake) newRun(s *repoState, o RunOptions) (*workflowRun, error) {
	if o.Name == "" {
		return nil, fmt.Errorf("a workflow run needs a name")
	}
	branch := pick(o.Branch, s.defaultBranch)
	sha := s.resolve(pick(o.SHA, branch))
	if sha == "" {
		return nil, fmt.Errorf("unknown SHA or branch %q", pick(o.SHA, branch))
	}
	path := pick(o.Path, ".github/workflows/"+o.Name+".yml")
	now := f.clock()
	run := &workflowRun{id: f.nextID(), workflowID: f.workflowID(s, path), name: o.Name, path: path,
		headSHA: sha, headBranch: branch, event: pick(o.Event, "push"), status: "in_progress",
		attempt: 1, actor: f.ensureUser(pick(o.Actor, s.owner.login)), created: now, updated: now, started: now}
	for _, other := range s.runs {
		if other.workflowID == run.workflowID {
			run.number = max(run.number, other.number)
		}
	}
	run.number++
	run.suite = f.newSuite(s, f.actionsApp(), sha, branch)
	run.suite.run = run
	s.runs = append(s.runs, run)
	f.emitRun(s, run, "requested")
	f.emitRun(s, run, "in_progress")
	if o.Conclusion != "" {
		f.finishRun(s, run, o.Conclusion)
	}
	return run, nil
}

// workflowID gives each workflow file a stable ID.
func (f *Fake) workflowID(s *repoState, path string) int64 {
	for _, r := range s.runs {
		if r.path == path {
			return r.workflowID
		}
	}
	return f.nextID()
}

// finishRun completes a run and records the github-actions check run its
// job leaves on the head SHA, as Actions does.
func (f *Fake) finishRun(s *repoState, run *workflowRun, conclusion string) {
	run.status, run.conclusion, run.updated = "completed", conclusion, f.clock()
	app := f.actionsApp()
	cr := &checkRun{id: f.nextID(), suite: run.suite, app: app, name: run.name,
		headSHA: run.headSHA, status: "completed", conclusion: conclusion, started: run.started, completed: f.clock(),
		detailsURL: "https://github.com/" + s.fullName + "/actions/runs/" + itoa(run.id)}
	s.checks.runs = append(s.checks.runs, cr)
	f.runCompleted(s, cr)
	f.emitRun(s, run, "completed")
}

// Complete finishes an in-progress run (or attempt) with conclusion.
func (w *WorkflowRun) Complete(conclusion string) {
	f := w.r.f
	defer f.flush()
	f.mu.Lock()
	defer f.mu.Unlock()
	f.finishRun(w.r.s, w.r.s.run(w.id), conclusion)
}

// Rerun starts a new attempt of the run (same ID); a non-empty conclusion
// completes it at once.
func (w *WorkflowRun) Rerun(conclusion string) {
	f := w.r.f
	defer f.flush()
	f.mu.Lock()
	defer f.mu.Unlock()
	run := w.r.s.run(w.id)
	run.attempts = append(run.attempts, runAttempt{status: run.status, conclusion: run.conclusion, started: run.started, updated: run.updated})
	run.attempt++
	run.status, run.conclusion, run.started, run.updated = "in_progress", "", f.clock(), f.clock()
	f.emitRun(w.r.s, run, "requested")
	if conclusion != "" {
		f.finishRun(w.r.s, run, conclusion)
	}
}

func (s *repoState) run(id int64) *workflowRun {
	for _, r := range s.runs {
		if r.id == id {
			return r
		}
	}
	return nil
}

func (f *Fake) runJSON(s *repoState, run *workflowRun) obj {
	api := f.api(s) + "/actions/runs/" + itoa(run.id)
	html := "https://github.com/" + s.fullName + "/actions/runs/" + itoa(run.id)
	prs := f.prRefsForSHA(s, run.headSHA)
	if prs == nil {
		prs = []any{}
	}
	return obj{
		"id": run.id, "name": run.name, "node_id": nodeID("WorkflowRun", run.id), "head_branch": run.headBranch,
		"head_sha": run.headSHA, "path": run.path, "display_title": run.name, "run_number": run.number,
		"event": run.event, "status": run.status, "conclusion": nilIfEmpty(run.conclusion), "workflow_id": run.workflowID,
		"check_suite_id": run.suite.id, "url": api,
		"check_suite_node_id": nodeID("CheckSuite", run.suite.id), "html_url": html,
		"pull_requests": prs, "created_at": ts(run.created), "updated_at": ts(run.updated),
		"actor": f.userJSON(run.actor), "triggering_actor": f.userJSON(run.actor), "run_attempt": run.attempt,
		"run_started_at": ts(run.started), "jobs_url": api + "/jobs", "logs_url": api + "/logs",
		"check_suite_url": f.api(s) + "/check-suites/" + itoa(run.suite.id),
		"artifacts_url":   api + "/artifacts", "cancel_url": api + "/cancel", "rerun_url": api + "/rerun",
		"previous_attempt_url": nil, "workflow_url": f.api(s) + "/actions/workflows/" + itoa(run.workflowID),
		"head_commit": f.headCommitJSON(s, run.headSHA), "repository": f.repoJSON(s), "head_repository": f.repoJSON(s),
		"referenced_workflows": []any{},
	}
}

func (f *Fake) emitRun(s *repoState, run *workflowRun, action string) {
	if !f.hooks.on {
		return
	}
	f.emit(s, "workflow_run", action, run.actor, obj{"workflow_run": f.runJSON(s, run), "workflow": f.workflowJSON(s, run)})
}

func (f *Fake) workflowJSON(s *repoState, run *workflowRun) obj {
	return obj{"id": run.workflowID, "node_id": nodeID("Workflow", run.workflowID), "name": run.name, "path": run.path,
		"state": "active", "created_at": ts(run.created), "updated_at": ts(run.created),
		"url": f.api(s) + "/actions/workflows/" + itoa(run.workflowID), "html_url": "https://github.com/" + s.fullName + "/blob/" + s.defaultBranch + "/" + run.path,
		"badge_url": "https://github.com/" + s.fullName + "/workflows/" + run.name + "/badge.svg"}
}

func (f *Fake) actionsRoutes() {
	f.handle("GET /repos/{owner}/{repo}/actions/runs", read("actions"), func(c *call) (int, any) {
		return c.listRunsWhere(func(*workflowRun) bool { return true })
	})
	f.handle("GET /repos/{owner}/{repo}/actions/workflows/{workflow_id}/runs", read("actions"), func(c *call) (int, any) {
		wid := c.r.PathValue("workflow_id")
		return c.listRunsWhere(func(r *workflowRun) bool {
			return itoa(r.workflowID) == wid || strings.HasSuffix(r.path, "/"+wid)
		})
	})
	f.handle("GET /repos/{owner}/{repo}/actions/runs/{run_id}", read("actions"), func(c *call) (int, any) {
		id, _ := strconv.ParseInt(c.r.PathValue("run_id"), 10, 64)
		if run := c.repo.run(id); run != nil {
			return http.StatusOK, c.f.runJSON(c.repo, run)
		}
		return notFound()
	})
	f.handle("GET /repos/{owner}/{repo}/actions/runs/{run_id}/attempts/{attempt_number}", read("actions"), getRunAttempt)
}

// listRunsWhere serves the run lists with GitHub's filters: head_sha,
// event, branch, status (a status or a conclusion) and actor.
func (c *call) listRunsWhere(keep func(*workflowRun) bool) (int, any) {
	q := c.r.URL.Query()
	out := []any{}
	for i := len(c.repo.runs) - 1; i >= 0; i-- { // newest first
		r := c.repo.runs[i]
		if !keep(r) || !matchQ(q.Get("head_sha"), r.headSHA) || !matchQ(q.Get("event"), r.event) ||
			!matchQ(q.Get("branch"), r.headBranch) || !matchQ(q.Get("actor"), r.actor.login) {
			continue
		}
		if st := q.Get("status"); st != "" && st != r.status && st != r.conclusion {
			continue
		}
		out = append(out, c.f.runJSON(c.repo, r))
	}
	return http.StatusOK, obj{"total_count": len(out), "workflow_runs": c.page(out)}
}

func matchQ(want, have string) bool { return want == "" || want == have }

func getRunAttempt(c *call) (int, any) {
	id, _ := strconv.ParseInt(c.r.PathValue("run_id"), 10, 64)
	n, _ := strconv.Atoi(c.r.PathValue("attempt_number"))
	run := c.repo.run(id)
	if run == nil || n < 1 || n > run.attempt {
		return notFound()
	}
	o := c.f.runJSON(c.repo, run)
	if n < run.attempt {
		a := run.attempts[n-1]
		o["status"], o["conclusion"], o["run_started_at"], o["updated_at"] = a.status, nilIfEmpty(a.conclusion), ts(a.started), ts(a.updated)
	}
	o["run_attempt"] = n
	return http.StatusOK, o
}
