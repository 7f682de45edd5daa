package ghfake

import (
	"net/http"
	"strconv"
)

func (f *Fake) checkRoutes() {
	f.handle("POST /repos/{owner}/{repo}/check-runs", write("checks"), createCheckRun)
	f.handle("PATCH /repos/{owner}/{repo}/check-runs/{check_run_id}", write("checks"), updateCheckRun)
	f.handle("GET /repos/{owner}/{repo}/check-runs/{check_run_id}", read("checks"), func(c *call) (int, any) {
		if run := c.checkRunParam(); run != nil {
			return http.StatusOK, c.f.checkRunJSON(c.repo, run)
		}
		return notFound()
	})
	f.handle("GET /repos/{owner}/{repo}/check-runs/{check_run_id}/annotations", read("checks"), func(c *call) (int, any) {
		run := c.checkRunParam()
		if run == nil {
			return notFound()
		}
		out := []any{}
		for _, a := range run.annotations {
			out = append(out, c.f.annotationJSON(c.repo, run, a))
		}
		return http.StatusOK, c.page(out)
	})
	f.handle("POST /repos/{owner}/{repo}/check-runs/{check_run_id}/rerequest", write("checks"), func(c *call) (int, any) {
		run := c.checkRunParam()
		if run == nil {
			return notFound()
		}
		c.f.emitCheckRun(c.repo, run, "rerequested")
		return http.StatusCreated, obj{}
	})
	f.handle("GET /repos/{owner}/{repo}/commits/{ref}/check-runs", read("checks"), listCheckRunsForRef)
	f.handle("GET /repos/{owner}/{repo}/commits/{ref}/check-suites", read("checks"), listSuitesForRef)
	f.handle("GET /repos/{owner}/{repo}/check-suites/{check_suite_id}", read("checks"), func(c *call) (int, any) {
		if su := c.suiteParam(); su != nil {
			return http.StatusOK, c.f.suiteJSON(c.repo, su)
		}
		return notFound()
	})
	f.handle("GET /repos/{owner}/{repo}/check-suites/{check_suite_id}/check-runs", read("checks"), func(c *call) (int, any) {
		su := c.suiteParam()
		if su == nil {
			return notFound()
		}
		return c.listRuns(func(r *checkRun) bool { return r.suite == su })
	})
	f.handle("POST /repos/{owner}/{repo}/check-suites/{check_suite_id}/rerequest", write("checks"), func(c *call) (int, any) {
		su := c.suiteParam()
		if su == nil {
			return notFound()
		}
		su.rerequests++
		c.f.emitCheckSuite(c.repo, su, "rerequested")
		return http.StatusCreated, obj{}
	})
}

func (c *call) checkRunParam() *checkRun {
	id, _ := strconv.ParseInt(c.r.PathValue("check_run_id"), 10, 64)
	for _, r := range c.repo.checks.runs {
		if r.id == id {
			return r
		}
	}
	return nil
}

func (c *call) suiteParam() *checkSuite {
	id, _ := strconv.ParseInt(c.r.PathValue("check_suite_id"), 10, 64)
	for _, su := range c.repo.checks.suites {
		if su.id == id {
			return su
		}
	}
	return nil
}

// checkApp is the App a token writes checks as; personal tokens have none.
func (c *call) checkApp() *App {
	if c.tok == nil || c.tok.kind == userToken {
		return nil
	}
	return c.tok.app
}

func createCheckRun(c *call) (int, any) {
	app := c.checkApp()
	if app == nil {
		return apiError(http.StatusForbidden, "You must authenticate via a GitHub App.")
	}
	var in checkInput
	if err := c.decode(&in); err != nil {
		return badJSON(err)
	}
	if err := in.validate(true, app.ID == ActionsAppID); err != nil {
		return invalid("CheckRun", err.field, "invalid", err.msg)
	}
	sha := deref(in.HeadSHA)
	if c.repo.git.commits[sha] == nil {
		return unprocessable("No commit found for SHA: " + sha)
	}
	now := c.f.clock()
	run := &checkRun{id: c.f.nextID(), suite: c.f.suiteFor(c.repo, app, sha), app: app, name: *in.Name,
		headSHA: sha, status: "queued", started: now}
	in.apply(run, now)
	c.repo.checks.runs = append(c.repo.checks.runs, run)
	run.suite.updated = now
	c.f.emitCheckRun(c.repo, run, "created")
	if run.status == "completed" {
		c.f.runCompleted(c.repo, run)
	}
	return http.StatusCreated, c.f.checkRunJSON(c.repo, run)
}

func updateCheckRun(c *call) (int, any) {
	run := c.checkRunParam()
	if run == nil {
		return notFound()
	}
	if app := c.checkApp(); app == nil || app != run.app {
		return apiError(http.StatusForbidden, "Invalid app_id - check run can only be modified by its creator")
	}
	var in checkInput
	if err := c.decode(&in); err != nil {
		return badJSON(err)
	}
	if err := in.validate(false, run.app.ID == ActionsAppID); err != nil {
		return invalid("CheckRun", err.field, "invalid", err.msg)
	}
	was := run.status
	set(&run.name, in.Name)
	in.apply(run, c.f.clock())
	run.suite.updated = c.f.clock()
	if was != "completed" && run.status == "completed" {
		c.f.runCompleted(c.repo, run)
	}
	return http.StatusOK, c.f.checkRunJSON(c.repo, run)
}

// ref is the {ref} of the request (getCommit may hand one over).
func (c *call) ref() string {
	if c.refOverride != "" {
		return c.refOverride
	}
	return c.r.PathValue("ref")
}

// listCheckRunsForRef serves GET /commits/{ref}/check-runs with check_name,
// status, app_id and filter (latest: newest run per App and name; all).
func listCheckRunsForRef(c *call) (int, any) {
	sha := c.repo.resolve(c.ref())
	if sha == "" {
		return unprocessable("No commit found for SHA: " + c.ref())
	}
	q := c.r.URL.Query()
	filter := q.Get("filter")
	if filter != "" && filter != "latest" && filter != "all" {
		return invalid("CheckRun", "filter", "invalid", "filter must be latest or all")
	}
	appID, _ := strconv.ParseInt(q.Get("app_id"), 10, 64)
	newest := map[string]int64{}
	for _, r := range c.repo.checks.runs {
		if r.headSHA == sha {
			newest[itoa(r.app.ID)+"\x00"+r.name] = r.id
		}
	}
	return c.listRuns(func(r *checkRun) bool {
		return r.headSHA == sha &&
			(q.Get("check_name") == "" || q.Get("check_name") == r.name) &&
			(q.Get("status") == "" || q.Get("status") == r.status) &&
			(appID == 0 || appID == r.app.ID) &&
			(filter == "all" || newest[itoa(r.app.ID)+"\x00"+r.name] == r.id)
	})
}

// listRuns pages the matching check runs, newest first.
func (c *call) listRuns(match func(*checkRun) bool) (int, any) {
	out := []any{}
	runs := c.repo.checks.runs
	for i := len(runs) - 1; i >= 0; i-- {
		if match(runs[i]) {
			out = append(out, c.f.checkRunJSON(c.repo, runs[i]))
		}
	}
	return http.StatusOK, obj{"total_count": len(out), "check_runs": c.page(out)}
}

func listSuitesForRef(c *call) (int, any) {
	sha := c.repo.resolve(c.ref())
	if sha == "" {
		return unprocessable("No commit found for SHA: " + c.ref())
	}
	appID, _ := strconv.ParseInt(c.r.URL.Query().Get("app_id"), 10, 64)
	out := []any{}
	for _, su := range c.repo.checks.suites {
		if su.headSHA == sha && (appID == 0 || su.app.ID == appID) {
			out = append(out, c.f.suiteJSON(c.repo, su))
		}
	}
	return http.StatusOK, obj{"total_count": len(out), "check_suites": c.page(out)}
}
