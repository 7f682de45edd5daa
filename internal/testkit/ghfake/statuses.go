package ghfake

import (
	"net/http"
	"time"
)

// commitStatus is one commit status (the pre-Checks CI signal).
type commitStatus struct {
	id          int64
	sha         string
	state       string // error, failure, pending, success
	context     string
	targetURL   string
	description string
	creator     *user
	created     time.Time
}

var statusStates = map[string]bool{"error": true, "failure": true, "pending": true, "success": true}

// SetStatus records a commit status on the commit ref resolves to, as a CI
// service would, by the repository owner.
func (r *Repo) SetStatus(ref, context, state, targetURL string) {
	f := r.f
	defer f.flush()
	f.mu.Lock()
	defer f.mu.Unlock()
	sha := r.s.resolve(ref)
	if sha == "" || !statusStates[state] {
		panic("ghfake: SetStatus: unknown ref " + ref + " or state " + state)
	}
	f.addStatus(r.s, r.s.owner, sha, state, context, targetURL, "")
}

func (f *Fake) addStatus(s *repoState, by *user, sha, state, context, target, desc string) *commitStatus {
	st := &commitStatus{id: f.nextID(), sha: sha, state: state, context: pick(context, "default"),
		targetURL: target, description: desc, creator: by, created: f.clock()}
	s.statuses = append(s.statuses, st)
	if f.hooks.on {
		p := f.statusJSON(s, st)
		p["sha"], p["name"], p["commit"], p["branches"] = sha, s.fullName, f.commitJSON(s, s.git.commits[sha], false), []any{}
		f.emit(s, "status", "", by, p)
	}
	return st
}

func (f *Fake) statusJSON(s *repoState, st *commitStatus) obj {
	return obj{
		"url": f.api(s) + "/statuses/" + st.sha, "avatar_url": nil, "id": st.id, "node_id": nodeID("StatusContext", st.id),
		"state": st.state, "description": nilIfEmpty(st.description), "target_url": nilIfEmpty(st.targetURL),
		"context": st.context, "created_at": ts(st.created), "updated_at": ts(st.created), "creator": f.userJSON(st.creator),
	}
}

func (f *Fake) statusRoutes() {
	f.handle("POST /repos/{owner}/{repo}/statuses/{sha}", write("statuses"), func(c *call) (int, any) {
		var req struct {
			State       string `json:"state"`
			TargetURL   string `json:"target_url"`
			Description string `json:"description"`
			Context     string `json:"context"`
		}
		if err := c.decode(&req); err != nil {
			return badJSON(err)
		}
		sha := c.r.PathValue("sha")
		if c.repo.git.commits[sha] == nil {
			return unprocessable("No commit found for SHA: " + sha)
		}
		if !statusStates[req.State] {
			return invalid("Status", "state", "custom", "state is not included in the list")
		}
		return http.StatusCreated, c.f.statusJSON(c.repo, c.f.addStatus(c.repo, c.f.actor(c.tok), sha, req.State, req.Context, req.TargetURL, req.Description))
	})
	f.handle("GET /repos/{owner}/{repo}/commits/{ref}/statuses", read("statuses"), listStatuses)
	f.handle("GET /repos/{owner}/{repo}/commits/{ref}/status", read("statuses"), combinedStatus)
}

func listStatuses(c *call) (int, any) {
	sha := c.repo.resolve(c.ref())
	out := []any{}
	for i := len(c.repo.statuses) - 1; i >= 0; i-- {
		if st := c.repo.statuses[i]; st.sha == sha {
			out = append(out, c.f.statusJSON(c.repo, st))
		}
	}
	return http.StatusOK, c.page(out)
}

// combinedStatus folds the newest status per context: failure if any
// failed or errored, pending if any is pending (or there are none),
// success otherwise.
func combinedStatus(c *call) (int, any) {
	sha := c.repo.resolve(c.ref())
	if sha == "" {
		return unprocessable("No commit found for SHA: " + c.ref())
	}
	seen := map[string]bool{}
	latest := []any{}
	state := "success"
	for i := len(c.repo.statuses) - 1; i >= 0; i-- {
		st := c.repo.statuses[i]
		if st.sha != sha || seen[st.context] {
			continue
		}
		seen[st.context] = true
		latest = append(latest, c.f.statusJSON(c.repo, st))
		switch {
		case st.state == "failure" || st.state == "error":
			state = "failure"
		case st.state == "pending" && state == "success":
			state = "pending"
		}
	}
	if len(latest) == 0 {
		state = "pending"
	}
	return http.StatusOK, obj{"state": state, "statuses": latest, "sha": sha, "total_count": len(latest),
		"repository": c.f.repoJSON(c.repo), "commit_url": c.f.api(c.repo) + "/commits/" + sha,
		"url": c.f.api(c.repo) + "/commits/" + sha + "/status"}
}
