package ghfake

import (
	"encoding/base64"
	"net/http"
	"strings"
)

// getContents serves the Contents API: a file (base64, wrapped at 60
// columns) or a directory listing, at ?ref= or the default branch.
func getContents(c *call) (int, any) {
	ref := c.r.URL.Query().Get("ref")
	if ref == "" {
		ref = c.repo.defaultBranch
	}
	sha := c.repo.resolve(ref)
	if sha == "" {
		return apiError(http.StatusNotFound, "No commit found for the ref "+ref)
	}
	cm := c.repo.git.commits[sha]
	p := cleanPath(c.r.PathValue("path"))
	if blob, ok := cm.files[p]; ok {
		b := c.repo.git.blobs[blob]
		o := c.f.contentJSON(c.repo, p, "file", blob, ref, len(b))
		o["content"], o["encoding"] = wrap60(b), "base64"
		return http.StatusOK, o
	}
	entries := c.f.dirEntries(c.repo, cm, p, ref)
	if entries == nil {
		return notFound()
	}
	return http.StatusOK, entries
}

// dirEntries lists directory p of cm, or nil if p is not a directory.
func (f *Fake) dirEntries(s *repoState, cm *commitObj, p, ref string) []any {
	tree, ok := s.git.subtree(cm.tree, p)
	if !ok {
		return nil
	}
	out := []any{}
	for _, e := range s.git.trees[tree] {
		full := strings.TrimPrefix(p+"/"+e.name, "/")
		typ, size := "file", len(s.git.blobs[e.sha])
		if e.typ() == "tree" {
			typ, size = "dir", 0
		}
		out = append(out, f.contentJSON(s, full, typ, e.sha, ref, size))
	}
	return out
}

// putContents serves PUT /contents/{path}: create or update one file with a
// commit on branch (default branch if unset); sha must name the current blob
// when the file exists.
func putContents(c *call) (int, any) {
	var req struct {
		Message string `json:"message"`
		Content string `json:"content"`
		SHA     string `json:"sha"`
		Branch  string `json:"branch"`
	}
	if err := c.decode(&req); err != nil {
		return badJSON(err)
	}
	data, err := base64.StdEncoding.DecodeString(req.Content)
	if err != nil || req.Message == "" {
		return invalid("Commit", "content", "invalid", "content must be base64 and message set")
	}
	branch := req.Branch
	if branch == "" {
		branch = c.repo.defaultBranch
	}
	p := cleanPath(c.r.PathValue("path"))
	head := c.repo.refs["refs/heads/"+branch]
	if head == "" {
		return apiError(http.StatusNotFound, "Branch "+branch+" not found")
	}
	old, exists := c.repo.git.commits[head].files[p]
	if exists && req.SHA != old {
		return apiError(http.StatusConflict, p+" does not match "+req.SHA)
	}
	sha := c.f.commitLocked(c.repo, branch, c.f.actor(c.tok), req.Message, map[string]string{p: string(data)})
	cm := c.repo.git.commits[sha]
	status := http.StatusCreated
	if exists {
		status = http.StatusOK
	}
	content := c.f.contentJSON(c.repo, p, "file", cm.files[p], branch, len(data))
	return status, obj{"content": content, "commit": c.f.gitCommitJSON(c.repo, cm)}
}
