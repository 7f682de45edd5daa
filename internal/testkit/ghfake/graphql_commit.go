package ghfake

import "strings"

// commitRes is a Commit.
type commitRes struct {
	s *repoState
	c *commitObj
}

func (r *commitRes) typeName() string { return "Commit" }

func (r *commitRes) field(x *gqlExec, name string, args map[string]any) (any, error) {
	c, s := r.c, r.s
	switch name {
	case "oid":
		return c.sha, nil
	case "abbreviatedOid":
		return c.sha[:7], nil
	case "id":
		return shaNode("Commit", c.sha), nil
	case "message":
		return c.message, nil
	case "messageHeadline":
		head, _, _ := strings.Cut(c.message, "\n")
		return head, nil
	case "committedDate":
		return ts(c.committer.Date), nil
	case "authoredDate":
		return ts(c.author.Date), nil
	case "url":
		return "https://github.com/" + s.fullName + "/commit/" + c.sha, nil
	case "tree":
		return &treeRes{s: s, sha: c.tree}, nil
	case "author", "committer":
		sig := map[string]Signature{"author": c.author, "committer": c.committer}[name]
		return mapRes{"GitActor", map[string]any{"name": sig.Name, "email": sig.Email, "date": ts(sig.Date),
			"user": gitUser(x.c.f, sig)}}, nil
	case "authors":
		return r.authors(x, args)
	case "parents":
		var items []any
		for _, p := range c.parents {
			items = append(items, &commitRes{s: s, c: s.git.commits[p]})
		}
		return newConn("CommitConnection", "parents", items, args)
	case "file":
		if err := x.need("contents"); err != nil {
			return nil, err
		}
		p, _ := args["path"].(string)
		p = cleanPath(p)
		e, ok := s.git.entryAt(c.tree, p)
		if !ok || p == "" {
			return nil, nil
		}
		return &treeEntryRes{s: s, e: e, path: p}, nil
	case "signature":
		return r.signatureField(x), nil
	case "blame":
		return r.blame(x, args)
	case "checkSuites":
		return r.checkSuites(x, args)
	case "statusCheckRollup":
		return r.statusCheckRollup(x)
	}
	return nil, unknownField("Commit", name)
}

// gitUser is GitActor.user: the User the e-mail belongs to, or null (a
// Bot or Organization is no User).
func gitUser(f *Fake, sig Signature) any {
	if u := f.emailUser(sig.Email); u != nil && u.typ == "User" {
		return actor(f, u)
	}
	return nil
}

func extOf(name string) any {
	if i := strings.LastIndexByte(name, '.'); i > 0 {
		return name[i:]
	}
	return nil
}

// checkSuites serves Commit.checkSuites(filterBy: {appId, checkName}).
func (r *commitRes) checkSuites(x *gqlExec, args map[string]any) (any, error) {
	if err := x.need("checks"); err != nil {
		return nil, err
	}
	filter, _ := args["filterBy"].(map[string]any)
	appID, hasApp := intArg(filter, "appId")
	checkName, _ := filter["checkName"].(string)
	var items []any
	for _, su := range r.s.checks.suites {
		if su.headSHA != r.c.sha || (hasApp && int64(appID) != su.app.ID) {
			continue
		}
		if checkName != "" && !r.s.suiteHas(su, checkName) {
			continue
		}
		items = append(items, &suiteRes{s: r.s, su: su})
	}
	return newConn("CheckSuiteConnection", "checkSuites", items, args)
}

func (s *repoState) suiteHas(su *checkSuite, name string) bool {
	for _, r := range s.checks.runs {
		if r.suite == su && r.name == name {
			return true
		}
	}
	return false
}

// suiteRes is a CheckSuite.
type suiteRes struct {
	s  *repoState
	su *checkSuite
}

func (r *suiteRes) typeName() string { return "CheckSuite" }

func (r *suiteRes) field(x *gqlExec, name string, args map[string]any) (any, error) {
	status, conclusion := r.s.suiteStatus(r.su)
	switch name {
	case "databaseId":
		return r.su.id, nil
	case "id":
		return nodeID("CheckSuite", r.su.id), nil
	case "status":
		return upper(status), nil
	case "conclusion":
		return upper(conclusion), nil
	case "app":
		a := r.su.app
		return mapRes{"App", map[string]any{"databaseId": a.ID, "slug": a.Slug, "name": a.Name, "id": nodeID("App", a.ID)}}, nil
	case "commit":
		return &commitRes{s: r.s, c: r.s.git.commits[r.su.headSHA]}, nil
	case "workflowRun":
		if err := x.need("actions"); err != nil {
			return nil, err
		}
		if r.su.run == nil {
			return nil, nil
		}
		return &workflowRunRes{s: r.s, run: r.su.run}, nil
	case "createdAt":
		return ts(r.su.created), nil
	case "updatedAt":
		return ts(r.su.updated), nil
	case "checkRuns":
		filter, _ := args["filterBy"].(map[string]any)
		checkName, _ := filter["checkName"].(string)
		checkType, _ := filter["checkType"].(string)
		var items []any
		newest := map[string]int64{}
		for _, run := range r.s.checks.runs {
			if run.suite == r.su {
				newest[run.name] = run.id
			}
		}
		for _, run := range r.s.checks.runs {
			if run.suite != r.su || (checkName != "" && run.name != checkName) || (checkType == "LATEST" && newest[run.name] != run.id) {
				continue
			}
			items = append(items, &runRes{s: r.s, r: run})
		}
		return newConn("CheckRunConnection", "checkRuns", items, args)
	}
	return nil, unknownField("CheckSuite", name)
}

// runRes is a CheckRun.
type runRes struct {
	s *repoState
	r *checkRun
}

func (r *runRes) typeName() string { return "CheckRun" }

func (r *runRes) field(_ *gqlExec, name string, _ map[string]any) (any, error) {
	run := r.r
	switch name {
	case "databaseId":
		return run.id, nil
	case "id":
		return nodeID("CheckRun", run.id), nil
	case "name":
		return run.name, nil
	case "status":
		return upper(run.status), nil
	case "conclusion":
		return upper(run.conclusion), nil
	case "title":
		return nilIfEmpty(run.title), nil
	case "summary":
		return nilIfEmpty(run.summary), nil
	case "text":
		return nilIfEmpty(run.text), nil
	case "externalId":
		return nilIfEmpty(run.externalID), nil
	case "detailsUrl":
		return nilIfEmpty(run.detailsURL), nil
	case "url", "permalink":
		return "https://github.com/" + r.s.fullName + "/runs/" + itoa(run.id), nil
	case "startedAt":
		return ts(run.started), nil
	case "completedAt":
		if run.status != "completed" {
			return nil, nil
		}
		return ts(run.completed), nil
	}
	return nil, unknownField("CheckRun", name)
}
