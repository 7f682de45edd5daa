package ghfake

import (
	"net/http"
	"sort"
	"strings"
)

func (f *Fake) gitRoutes() {
	f.handle("GET /repos/{owner}/{repo}", read("metadata"), func(c *call) (int, any) {
		return http.StatusOK, c.f.repoJSON(c.repo)
	})
	f.handle("GET /repos/{owner}/{repo}/branches", read("contents"), func(c *call) (int, any) {
		return http.StatusOK, c.page(c.refList("refs/heads/", func(name, sha string) any {
			return obj{"name": name, "commit": obj{"sha": sha, "url": c.f.api(c.repo) + "/commits/" + sha}, "protected": false}
		}))
	})
	f.handle("GET /repos/{owner}/{repo}/tags", read("contents"), func(c *call) (int, any) {
		return http.StatusOK, c.page(c.refList("refs/tags/", func(name, sha string) any {
			peeled := c.repo.git.peel(sha)
			return obj{"name": name, "commit": obj{"sha": peeled, "url": c.f.api(c.repo) + "/commits/" + peeled},
				"zipball_url": c.f.api(c.repo) + "/zipball/refs/tags/" + name, "tarball_url": c.f.api(c.repo) + "/tarball/refs/tags/" + name,
				"node_id": shaNode("Ref", c.repo.fullName+":refs/tags/"+name)}
		}))
	})
	f.handle("GET /repos/{owner}/{repo}/branches/{branch...}", read("contents"), getBranch)
	f.handle("GET /repos/{owner}/{repo}/commits", read("contents"), listCommits)
	f.handle("GET /repos/{owner}/{repo}/commits/{ref...}", read("contents"), getCommit)
	f.handle("GET /repos/{owner}/{repo}/compare/{basehead...}", read("contents"), compare)
	f.handle("GET /repos/{owner}/{repo}/contents/{path...}", read("contents"), getContents)
	f.handle("PUT /repos/{owner}/{repo}/contents/{path...}", write("contents"), putContents)
	f.handle("GET /repos/{owner}/{repo}/git/commits/{sha}", read("contents"), func(c *call) (int, any) {
		cm := c.repo.git.commits[c.r.PathValue("sha")]
		if cm == nil {
			return notFound()
		}
		return http.StatusOK, c.f.gitCommitJSON(c.repo, cm)
	})
	f.handle("POST /repos/{owner}/{repo}/git/commits", write("contents"), createGitCommit)
	f.handle("GET /repos/{owner}/{repo}/git/trees/{sha}", read("contents"), func(c *call) (int, any) {
		sha := c.r.PathValue("sha")
		if cm := c.repo.git.commits[c.repo.resolve(sha)]; cm != nil {
			sha = cm.tree
		}
		if c.repo.git.trees[sha] == nil && sha != hashObject("tree", nil) {
			return notFound()
		}
		rec := c.r.URL.Query().Get("recursive")
		return http.StatusOK, c.f.treeJSON(c.repo, sha, rec != "" && rec != "0" && rec != "false")
	})
	f.handle("POST /repos/{owner}/{repo}/git/trees", write("contents"), createTree)
	f.handle("GET /repos/{owner}/{repo}/git/blobs/{sha}", read("contents"), func(c *call) (int, any) {
		sha := c.r.PathValue("sha")
		b, ok := c.repo.git.blobs[sha]
		if !ok {
			return notFound()
		}
		return http.StatusOK, obj{"sha": sha, "node_id": shaNode("Blob", sha), "size": len(b),
			"url": c.f.api(c.repo) + "/git/blobs/" + sha, "content": wrap60(b), "encoding": "base64"}
	})
	f.handle("POST /repos/{owner}/{repo}/git/blobs", write("contents"), createBlob)
	f.handle("GET /repos/{owner}/{repo}/git/tags/{sha}", read("contents"), func(c *call) (int, any) {
		t := c.repo.git.tags[c.r.PathValue("sha")]
		if t == nil {
			return notFound()
		}
		return http.StatusOK, c.f.tagJSON(c.repo, t)
	})
	f.handle("POST /repos/{owner}/{repo}/git/tags", write("contents"), createTag)
	f.handle("GET /repos/{owner}/{repo}/git/ref/{ref...}", read("contents"), func(c *call) (int, any) {
		ref := "refs/" + c.r.PathValue("ref")
		if _, ok := c.repo.refs[ref]; !ok {
			return notFound()
		}
		return http.StatusOK, c.f.refJSON(c.repo, ref)
	})
	f.handle("GET /repos/{owner}/{repo}/git/matching-refs/{ref...}", read("contents"), func(c *call) (int, any) {
		prefix := "refs/" + c.r.PathValue("ref")
		out := []any{}
		for _, r := range c.repo.sortedRefs() {
			if strings.HasPrefix(r, prefix) {
				out = append(out, c.f.refJSON(c.repo, r))
			}
		}
		return http.StatusOK, c.page(out)
	})
	f.handle("POST /repos/{owner}/{repo}/git/refs", write("contents"), createRef)
	f.handle("PATCH /repos/{owner}/{repo}/git/refs/{ref...}", write("contents"), updateRef)
	f.handle("DELETE /repos/{owner}/{repo}/git/refs/{ref...}", write("contents"), func(c *call) (int, any) {
		ref := "refs/" + c.r.PathValue("ref")
		if _, ok := c.repo.refs[ref]; !ok {
			return unprocessable("Reference does not exist")
		}
		delete(c.repo.refs, ref)
		return http.StatusNoContent, nil
	})
}

// refList lists the refs under prefix, by name, through item.
func (c *call) refList(prefix string, item func(name, sha string) any) []any {
	out := []any{}
	for _, r := range c.repo.sortedRefs() {
		if name, ok := strings.CutPrefix(r, prefix); ok {
			out = append(out, item(name, c.repo.refs[r]))
		}
	}
	return out
}

func getBranch(c *call) (int, any) {
	name := c.r.PathValue("branch")
	sha := c.repo.refs["refs/heads/"+name]
	if sha == "" {
		return apiError(http.StatusNotFound, "Branch not found")
	}
	return http.StatusOK, obj{
		"name": name, "commit": c.f.commitJSON(c.repo, c.repo.git.commits[sha], false), "protected": false,
		"_links": obj{"self": c.f.api(c.repo) + "/branches/" + name, "html": "https://github.com/" + c.repo.fullName + "/tree/" + name},
	}
}

func listCommits(c *call) (int, any) {
	q := c.r.URL.Query()
	head := c.repo.resolve(q.Get("sha"))
	if head == "" {
		return notFound()
	}
	p := cleanPath(q.Get("path"))
	chain := c.repo.git.between("", head)
	out := []any{}
	for i := len(chain) - 1; i >= 0; i-- { // newest first
		cm := chain[i]
		if p != "" && !touches(c.repo, cm, p) {
			continue
		}
		out = append(out, c.f.commitJSON(c.repo, cm, false))
	}
	return http.StatusOK, c.page(out)
}

// touches reports whether cm changed anything at or under p.
func touches(s *repoState, cm *commitObj, p string) bool {
	var before map[string]string
	if len(cm.parents) > 0 {
		before = s.git.commits[cm.parents[0]].files
	}
	under := func(f string) bool { return f == p || strings.HasPrefix(f, p+"/") }
	for f, sha := range cm.files {
		if under(f) && before[f] != sha {
			return true
		}
	}
	for f := range before {
		if _, ok := cm.files[f]; under(f) && !ok {
			return true
		}
	}
	return false
}

func getCommit(c *call) (int, any) {
	ref := c.r.PathValue("ref")
	// A ref with slashes (feature/x) cannot bind {ref} in the more specific
	// routes, so they are dispatched from here.
	for suffix, h := range map[string]handler{"/check-runs": listCheckRunsForRef, "/check-suites": listSuitesForRef,
		"/statuses": listStatuses, "/status": combinedStatus} {
		if r, ok := strings.CutSuffix(ref, suffix); ok {
			c.pattern = "GET /repos/{owner}/{repo}/commits/{ref}" + suffix
			c.refOverride = r
			return h(c)
		}
	}
	sha := c.repo.resolve(ref)
	if sha == "" {
		return unprocessable("No commit found for SHA: " + ref)
	}
	return http.StatusOK, c.f.commitJSON(c.repo, c.repo.git.commits[sha], true)
}

// compare serves GET /compare/{base}...{head}.
func compare(c *call) (int, any) {
	base, head, ok := strings.Cut(c.r.PathValue("basehead"), "...")
	if !ok {
		return notFound()
	}
	b, h := c.repo.resolve(base), c.repo.resolve(head)
	if b == "" || h == "" {
		return notFound()
	}
	g := c.repo.git
	mb := g.mergeBase(b, h)
	if mb == "" {
		return apiError(http.StatusNotFound, "No common ancestor between "+base+" and "+head+".")
	}
	ahead, behind := g.between(mb, h), g.between(mb, b)
	status := "diverged"
	switch {
	case len(ahead) == 0 && len(behind) == 0:
		status = "identical"
	case len(behind) == 0:
		status = "ahead"
	case len(ahead) == 0:
		status = "behind"
	}
	commits := make([]any, 0, len(ahead))
	for _, cm := range ahead {
		commits = append(commits, c.f.commitJSON(c.repo, cm, false))
	}
	files, _, _ := c.f.diffFiles(c.repo, g.commits[mb].files, g.commits[h].files)
	u := c.f.api(c.repo) + "/compare/" + base + "..." + head
	return http.StatusOK, obj{
		"url": u, "html_url": "https://github.com/" + c.repo.fullName + "/compare/" + base + "..." + head,
		"permalink_url": u, "diff_url": u + ".diff", "patch_url": u + ".patch",
		"base_commit":       c.f.commitJSON(c.repo, g.commits[b], false),
		"merge_base_commit": c.f.commitJSON(c.repo, g.commits[mb], false),
		"status":            status, "ahead_by": len(ahead), "behind_by": len(behind), "total_commits": len(ahead),
		"commits": commits, "files": files,
	}
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
