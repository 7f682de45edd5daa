package ghfake

import (
	"fmt"
	"strconv"
)

func (f *Fake) checkRunJSON(s *repoState, r *checkRun) obj {
	api := f.api(s) + "/check-runs/" + itoa(r.id)
	var title, summary, text any
	if r.hasOutput {
		title, summary, text = r.title, r.summary, nilIfEmpty(r.text)
	}
	var conclusion any
	if r.conclusion != "" {
		conclusion = r.conclusion
	}
	var completed any
	if r.status == "completed" {
		completed = ts(r.completed)
	}
	return obj{
		"id": r.id, "node_id": nodeID("CheckRun", r.id), "head_sha": r.headSHA, "external_id": r.externalID,
		"url": api, "html_url": "https://github.com/" + s.fullName + "/runs/" + itoa(r.id),
		"details_url": r.detailsURL, "status": r.status, "conclusion": conclusion,
		"started_at": ts(r.started), "completed_at": completed, "name": r.name,
		"output": obj{"title": title, "summary": summary, "text": text,
			"annotations_count": len(r.annotations), "annotations_url": api + "/annotations"},
		"check_suite":   obj{"id": r.suite.id},
		"app":           f.appJSON(r.app),
		"pull_requests": f.prRefsForSHA(s, r.headSHA),
		"actions":       actionsJSON(r.actions),
	}
}

func actionsJSON(as []CheckAction) []any {
	out := []any{}
	for _, a := range as {
		out = append(out, obj{"label": a.Label, "description": a.Description, "identifier": a.Identifier})
	}
	return out
}

func nilIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}

func (f *Fake) annotationJSON(s *repoState, r *checkRun, a Annotation) obj {
	o := obj{
		"path": a.Path, "start_line": a.StartLine, "end_line": a.EndLine, "start_column": nil, "end_column": nil,
		"annotation_level": a.Level, "title": nilIfEmpty(a.Title), "message": a.Message,
		"raw_details": nilIfEmpty(a.RawDetails), "blob_href": "https://github.com/" + s.fullName + "/blob/" + r.headSHA + "/" + a.Path,
	}
	if a.StartColumn != nil {
		o["start_column"] = *a.StartColumn
	}
	if a.EndColumn != nil {
		o["end_column"] = *a.EndColumn
	}
	return o
}

func (f *Fake) suiteJSON(s *repoState, su *checkSuite) obj {
	status, conclusion := s.suiteStatus(su)
	runs := 0
	for _, r := range s.checks.runs {
		if r.suite == su {
			runs++
		}
	}
	var branch any
	if su.headBranch != "" {
		branch = su.headBranch
	}
	return obj{
		"id": su.id, "node_id": nodeID("CheckSuite", su.id), "head_branch": branch, "head_sha": su.headSHA,
		"status": status, "conclusion": nilIfEmpty(conclusion), "url": f.api(s) + "/check-suites/" + itoa(su.id),
		"before": nil, "after": su.headSHA, "pull_requests": f.prRefsForSHA(s, su.headSHA), "app": f.appJSON(su.app),
		"repository": f.repoJSON(s), "created_at": ts(su.created), "updated_at": ts(su.updated),
		"latest_check_runs_count": runs, "check_runs_url": f.api(s) + "/check-suites/" + itoa(su.id) + "/check-runs",
		"head_commit": f.headCommitJSON(s, su.headSHA), "rerequestable": true, "runs_rerequestable": true,
	}
}

// headCommitJSON is the short commit object webhooks and suites carry.
func (f *Fake) headCommitJSON(s *repoState, sha string) obj {
	c := s.git.commits[sha]
	if c == nil {
		return nil
	}
	return obj{
		"id": c.sha, "tree_id": c.tree, "message": c.message, "timestamp": c.committer.Date.Format("2006-01-02T15:04:05Z07:00"),
		"author":    obj{"name": c.author.Name, "email": c.author.Email},
		"committer": obj{"name": c.committer.Name, "email": c.committer.Email},
	}
}

// CheckRun is a snapshot of a check run, for assertions.
type CheckRun struct {
	ID          int64
	AppID       int64
	Name        string
	HeadSHA     string
	ExternalID  string
	DetailsURL  string
	Status      string
	Conclusion  string
	Title       string
	Summary     string
	Text        string
	Annotations []Annotation
	Actions     []CheckAction
}

// CheckRuns returns every check run on the commit ref resolves to, oldest
// first.
func (r *Repo) CheckRuns(ref string) []CheckRun {
	r.f.mu.Lock()
	defer r.f.mu.Unlock()
	sha := r.s.resolve(ref)
	var out []CheckRun
	for _, c := range r.s.checks.runs {
		if c.headSHA != sha {
			continue
		}
		out = append(out, CheckRun{
			ID: c.id, AppID: c.app.ID, Name: c.name, HeadSHA: c.headSHA, ExternalID: c.externalID,
			DetailsURL: c.detailsURL, Status: c.status, Conclusion: c.conclusion, Title: c.title,
			Summary: c.summary, Text: c.text, Annotations: append([]Annotation(nil), c.annotations...),
			Actions: append([]CheckAction(nil), c.actions...),
		})
	}
	return out
}

// AddCheckRun records a check run by the App appID (registered without a
// key if unknown, e.g. a third-party CI) on the commit ref resolves to;
// conclusion "" leaves it in status (queued or in_progress). It returns the
// run's ID.
func (r *Repo) AddCheckRun(appID int64, ref, name, status, conclusion string) int64 {
	f := r.f
	f.mu.Lock()
	sha := r.s.resolve(ref)
	if sha == "" {
		f.mu.Unlock()
		panic(fmt.Sprintf("ghfake: AddCheckRun: unknown ref %q", ref))
	}
	app := f.apps[appID]
	if app == nil {
		app = &App{ID: appID, Slug: "app-" + strconv.FormatInt(appID, 10), Name: "App " + strconv.FormatInt(appID, 10), Owner: "ghfake", f: f, created: f.clock()}
		f.apps[appID] = app
	}
	in := checkInput{Status: &status, Conclusion: &conclusion}
	run := &checkRun{id: f.nextID(), suite: f.suiteFor(r.s, app, sha), app: app, name: name, headSHA: sha, status: "queued", started: f.clock()}
	in.apply(run, f.clock())
	r.s.checks.runs = append(r.s.checks.runs, run)
	f.emitCheckRun(r.s, run, "created")
	if run.status == "completed" {
		f.runCompleted(r.s, run)
	}
	f.mu.Unlock()
	f.flush()
	return run.id
}

// RerequestCheckRun is a user pressing "Re-run" on check run id: GitHub
// sends check_run.rerequested (to the App that owns the run).
func (r *Repo) RerequestCheckRun(login string, id int64) {
	r.checkRunEvent(login, id, "rerequested", nil)
}

// RequestAction is a user pressing the check run's requested-action button
// identifier: GitHub sends check_run.requested_action with it.
func (r *Repo) RequestAction(login string, id int64, identifier string) {
	r.checkRunEvent(login, id, "requested_action", obj{"requested_action": obj{"identifier": identifier}})
}

func (r *Repo) checkRunEvent(login string, id int64, action string, extra obj) {
	f := r.f
	defer f.flush()
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, run := range r.s.checks.runs {
		if run.id != id {
			continue
		}
		cr := f.checkRunJSON(r.s, run)
		cr["check_suite"] = f.suiteJSON(r.s, run.suite)
		p := obj{"check_run": cr}
		for k, v := range extra {
			p[k] = v
		}
		f.emit(r.s, "check_run", action, f.ensureUser(login), p)
		return
	}
	panic(fmt.Sprintf("ghfake: no check run %d in %s", id, r.s.fullName))
}
