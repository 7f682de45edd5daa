package ghfake

// prRes is a PullRequest.
type prRes struct {
	s *repoState
	i *issue
}

func (r *prRes) typeName() string { return "PullRequest" }

func (r *prRes) field(x *gqlExec, name string, args map[string]any) (any, error) {
	base := &issueRes{s: r.s, i: r.i}
	if v, ok, err := base.common(x, name, args); ok {
		return v, err
	}
	if v, ok := r.mergeField(name); ok {
		return v, nil
	}
	s, i, p := r.s, r.i, r.i.pr
	switch name {
	case "id":
		return nodeID("PullRequest", i.id), nil
	case "state":
		return gqlState(i), nil
	case "headRefOid":
		return p.headSHA, nil
	case "headRefName":
		return p.headRef, nil
	case "baseRefName":
		return p.baseRef, nil
	case "baseRefOid":
		return s.baseHead(p), nil
	case "isDraft":
		return p.draft, nil
	case "merged":
		return p.merged, nil
	case "mergedAt":
		return ts(p.mergedAt), nil
	case "mergedBy":
		return actor(x.c.f, p.mergedBy), nil
	case "mergeCommit":
		if c := s.git.commits[p.mergeSHA]; c != nil {
			return &commitRes{s: s, c: c}, nil
		}
		return nil, nil
	case "mergeable":
		if i.state != "open" {
			return "UNKNOWN", nil
		}
		return map[bool]string{true: "MERGEABLE", false: "CONFLICTING"}[s.mergeable(p)], nil
	case "commits":
		var items []any
		for _, c := range s.prCommits(p) {
			items = append(items, mapRes{"PullRequestCommit", map[string]any{"commit": &commitRes{s: s, c: c}, "id": shaNode("PullRequestCommit", c.sha)}})
		}
		return newConn("PullRequestCommitConnection", "commits", items, args)
	case "reviews":
		states := stringSet(args, "states")
		var items []any
		for _, rv := range p.reviews {
			if rv.state != "PENDING" && (states == nil || states[rv.state]) {
				items = append(items, &reviewRes{s: s, i: i, r: rv})
			}
		}
		return newConn("PullRequestReviewConnection", "reviews", items, args)
	case "reviewRequests":
		var items []any
		for _, u := range p.requested {
			items = append(items, mapRes{"ReviewRequest", map[string]any{"requestedReviewer": actor(x.c.f, u)}})
		}
		return newConn("ReviewRequestConnection", "reviewRequests", items, args)
	case "files":
		files, _, _ := x.c.f.prFiles(s, p)
		var items []any
		for _, fl := range files {
			items = append(items, changedFile(fl.(obj)))
		}
		return newConn("PullRequestChangedFileConnection", "files", items, args)
	case "changedFiles", "additions", "deletions":
		files, add, del := x.c.f.prFiles(s, p)
		return map[string]int{"changedFiles": len(files), "additions": add, "deletions": del}[name], nil
	case "closingIssuesReferences":
		var items []any
		for _, n := range closingRefs(i.body) {
			if t := s.issue(n); t != nil && t.pr == nil {
				items = append(items, &issueRes{s: s, i: t})
			}
		}
		return newConn("IssueConnection", "closingIssuesReferences", items, args)
	}
	return nil, unknownField("PullRequest", name)
}

// changeTypes maps REST's file status to GraphQL's PatchStatus.
var changeTypes = map[string]string{"added": "ADDED", "removed": "DELETED", "modified": "MODIFIED",
	"renamed": "RENAMED", "copied": "COPIED", "changed": "CHANGED"}

// changedFile is a PullRequestChangedFile from a REST file entry: GraphQL
// names only the new path of a rename.
func changedFile(fl obj) resolver {
	return mapRes{"PullRequestChangedFile", map[string]any{"path": fl["filename"], "changeType": changeTypes[fl["status"].(string)],
		"additions": fl["additions"], "deletions": fl["deletions"], "viewerViewedState": "UNVIEWED"}}
}

func (r *prRes) issue() *issue { return r.i }
