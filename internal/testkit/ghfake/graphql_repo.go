package ghfake

import (
	"strings"
)

// repoRes is a Repository.
type repoRes struct{ s *repoState }

func (r *repoRes) typeName() string { return "Repository" }

func (r *repoRes) field(x *gqlExec, name string, args map[string]any) (any, error) {
	if v, ok := r.mergeField(name, args); ok {
		return v, nil
	}
	s, f := r.s, x.c.f
	switch name {
	case "id":
		return nodeID("Repository", s.id), nil
	case "databaseId":
		return s.id, nil
	case "name":
		return s.name, nil
	case "nameWithOwner":
		return s.fullName, nil
	case "url":
		return "https://github.com/" + s.fullName, nil
	case "isPrivate":
		return s.private, nil
	case "owner":
		return actor(f, s.owner), nil
	case "defaultBranchRef":
		return &refRes{s: s, name: "refs/heads/" + s.defaultBranch}, nil
	case "ref":
		q, _ := args["qualifiedName"].(string)
		for _, full := range []string{q, "refs/heads/" + q, "refs/tags/" + q} {
			if _, ok := s.refs[full]; ok {
				return &refRes{s: s, name: full}, nil
			}
		}
		return nil, nil
	case "object":
		return r.object(x, args)
	case "issue", "pullRequest", "issueOrPullRequest":
		return r.issueField(x, name, args)
	case "issues", "pullRequests":
		return r.issueList(x, name, args)
	case "milestone":
		if err := x.need("issues"); err != nil {
			return nil, err
		}
		n, _ := intArg(args, "number")
		if m := s.milestone(n); m != nil {
			return &milestoneRes{s: s, m: m}, nil
		}
		return nil, notFoundErr("Could not resolve to a Milestone with the number of %d.", n)
	case "milestones":
		states := stringSet(args, "states")
		var items []any
		for _, m := range s.milestones {
			if states == nil || states[strings.ToUpper(m.state)] {
				items = append(items, &milestoneRes{s: s, m: m})
			}
		}
		return newConn("MilestoneConnection", "milestones", items, args)
	case "labels":
		var items []any
		for _, l := range s.labels {
			items = append(items, labelRes{l})
		}
		return newConn("LabelConnection", "labels", items, args)
	}
	return nil, unknownField("Repository", name)
}

func (r *repoRes) issueField(x *gqlExec, name string, args map[string]any) (any, error) {
	n, _ := intArg(args, "number")
	i := r.s.issue(n)
	scope := map[string]string{"issue": "issues", "pullRequest": "pull_requests", "issueOrPullRequest": "issues"}[name]
	if i != nil && i.pr != nil && name == "issueOrPullRequest" {
		scope = "pull_requests"
	}
	if err := x.need(scope); err != nil {
		return nil, err
	}
	switch {
	case i == nil || (name == "issue" && i.pr != nil):
		return nil, notFoundErr("Could not resolve to an Issue with the number of %d.", n)
	case name == "pullRequest" && i.pr == nil:
		return nil, notFoundErr("Could not resolve to a PullRequest with the number of %d.", n)
	}
	return issueOrPR(r.s, i), nil
}

func issueOrPR(s *repoState, i *issue) resolver {
	if i.pr != nil {
		return &prRes{s: s, i: i}
	}
	return &issueRes{s: s, i: i}
}

// object serves Repository.object(oid:) and (expression: "rev:path"), the
// path resolved as git resolves it ("rev:" is the root tree, "rev:dir/" a
// directory, and a path through a symbolic link is null, as git does not
// follow links).
func (r *repoRes) object(x *gqlExec, args map[string]any) (any, error) {
	if err := x.need("contents"); err != nil {
		return nil, err
	}
	if oid, _ := args["oid"].(string); oid != "" {
		return gitObject(r.s, oid, ""), nil
	}
	expr, _ := args["expression"].(string)
	ref, p, hasPath := strings.Cut(expr, ":")
	sha := r.s.resolve(ref)
	if sha == "" {
		return nil, nil
	}
	if !hasPath {
		return gitObject(r.s, sha, ""), nil
	}
	c := r.s.git.commits[sha]
	if c == nil {
		return nil, nil
	}
	e, ok := r.s.git.entryAt(c.tree, p)
	if !ok {
		return nil, nil
	}
	return entryObject(r.s, e, strings.TrimSuffix(p, "/")), nil
}

func gitObject(s *repoState, sha, _ string) resolver {
	switch s.git.objectType(sha) {
	case "commit":
		return &commitRes{s: s, c: s.git.commits[sha]}
	case "blob":
		return &blobRes{s: s, sha: sha}
	case "tag":
		t := s.git.tags[sha]
		return mapRes{"Tag", map[string]any{"oid": t.sha, "name": t.name, "message": t.message, "target": gitObject(s, t.object, "")}}
	case "tree":
		return &treeRes{s: s, sha: sha}
	}
	return nil
}

// refRes is a Ref.
type refRes struct {
	s    *repoState
	name string
}

func (r *refRes) typeName() string { return "Ref" }

func (r *refRes) field(_ *gqlExec, name string, _ map[string]any) (any, error) {
	switch name {
	case "name":
		return strings.TrimPrefix(r.name, prefixOf(r.name)), nil
	case "prefix":
		return prefixOf(r.name), nil
	case "id":
		return shaNode("Ref", r.s.fullName+":"+r.name), nil
	case "target":
		return gitObject(r.s, r.s.refs[r.name], ""), nil
	}
	return nil, unknownField("Ref", name)
}

func prefixOf(ref string) string {
	for _, p := range []string{"refs/heads/", "refs/tags/"} {
		if strings.HasPrefix(ref, p) {
			return p
		}
	}
	return "refs/"
}

// blobRes is a Blob.
type blobRes struct {
	s   *repoState
	sha string
}

// MaxBlobText is how much of a blob GraphQL's Blob.text returns before
// isTruncated is set (GitHub truncates large blobs; 512 KB here).
const MaxBlobText = 512 * 1024

func (r *blobRes) typeName() string { return "Blob" }

func (r *blobRes) field(_ *gqlExec, name string, _ map[string]any) (any, error) {
	b := r.s.git.blobs[r.sha]
	switch name {
	case "oid":
		return r.sha, nil
	case "abbreviatedOid":
		return r.sha[:7], nil
	case "byteSize":
		return len(b), nil
	case "isTruncated":
		return len(b) > MaxBlobText, nil
	case "isBinary":
		return strings.ContainsRune(string(b), 0), nil
	case "text":
		if strings.ContainsRune(string(b), 0) {
			return nil, nil
		}
		return string(b[:min(len(b), MaxBlobText)]), nil
	}
	return nil, unknownField("Blob", name)
}
