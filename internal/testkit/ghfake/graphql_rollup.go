package ghfake

// statusCheckRollup is Commit.statusCheckRollup: the newest check run per
// App and name and the newest status per context, folded into one state.
func (r *commitRes) statusCheckRollup(x *gqlExec) (any, error) {
	if err := x.need("checks"); err != nil {
		return nil, err
	}
	s, sha := r.s, r.c.sha
	var items []any
	state := "SUCCESS"
	fold := func(st string) {
		switch {
		case st == "FAILURE" || st == "ERROR":
			state = "FAILURE"
		case st == "PENDING" && state == "SUCCESS":
			state = "PENDING"
		}
	}
	newest := map[string]*checkRun{}
	var order []string
	for _, run := range s.checks.runs {
		if run.headSHA == sha {
			k := itoa(run.app.ID) + "\x00" + run.name
			if newest[k] == nil {
				order = append(order, k)
			}
			newest[k] = run
		}
	}
	for _, k := range order {
		run := newest[k]
		items = append(items, &runRes{s: s, r: run})
		fold(runState(run))
	}
	seen := map[string]bool{}
	for i := len(s.statuses) - 1; i >= 0; i-- {
		st := s.statuses[i]
		if st.sha == sha && !seen[st.context] {
			seen[st.context] = true
			items = append(items, &statusRes{s: s, st: st})
			fold(map[string]string{"error": "ERROR", "failure": "FAILURE", "pending": "PENDING", "success": "SUCCESS"}[st.state])
		}
	}
	if len(items) == 0 {
		return nil, nil
	}
	return &rollupRes{state: state, items: items, sha: sha}, nil
}

// runState is a check run's contribution to a rollup.
func runState(run *checkRun) string {
	if run.status != "completed" {
		return "PENDING"
	}
	switch run.conclusion {
	case "success", "neutral", "skipped":
		return "SUCCESS"
	}
	return "FAILURE"
}

type rollupRes struct {
	state string
	items []any
	sha   string
}

func (r *rollupRes) typeName() string { return "StatusCheckRollup" }

func (r *rollupRes) field(_ *gqlExec, name string, args map[string]any) (any, error) {
	switch name {
	case "state":
		return r.state, nil
	case "id":
		return shaNode("StatusCheckRollup", r.sha), nil
	case "contexts":
		return newConn("StatusCheckRollupContextConnection", "contexts", r.items, args)
	}
	return nil, unknownField("StatusCheckRollup", name)
}

// statusRes is a StatusContext (a commit status).
type statusRes struct {
	s  *repoState
	st *commitStatus
}

func (r *statusRes) typeName() string { return "StatusContext" }

func (r *statusRes) field(x *gqlExec, name string, _ map[string]any) (any, error) {
	st := r.st
	switch name {
	case "id":
		return nodeID("StatusContext", st.id), nil
	case "context":
		return st.context, nil
	case "state":
		return upper(st.state), nil
	case "targetUrl":
		return nilIfEmpty(st.targetURL), nil
	case "description":
		return nilIfEmpty(st.description), nil
	case "createdAt":
		return ts(st.created), nil
	case "creator":
		return actor(x.c.f, st.creator), nil
	}
	return nil, unknownField("StatusContext", name)
}
