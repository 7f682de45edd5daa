package ghfake

import (
	"encoding/base64"
	"net/http"
	"path"
	"strings"
)

// getContents serves the Contents API: a file (base64, wrapped at 60
// columns), a symbolic link or a directory listing, at ?ref= or the default
// branch. A path through a symbolic link to a directory is not found.
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
	if _, ok := cm.files[p]; ok {
		return http.StatusOK, c.f.fileContent(c.repo, cm, p, ref)
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
		switch {
		case e.typ() == "tree":
			typ, size = "dir", 0
		case e.mode == modeSymlink:
			typ = "symlink"
		}
		out = append(out, f.contentJSON(s, full, typ, e.sha, ref, size))
	}
	return out
}

// fileContent is the Contents API answer for file p of cm. A symbolic link
// whose target is a regular file of the repository answers that file's
// size and content under the link's name, path and sha; any other link
// answers itself: type "symlink", its target, no content (as GitHub
// documents for "Get repository content").
func (f *Fake) fileContent(s *repoState, cm *commitObj, p, ref string) obj {
	blob := cm.files[p]
	b := s.git.blobs[blob]
	if cm.modeOf(p) == modeSymlink {
		t, ok := linkTarget(cm, p, string(b))
		if !ok {
			o := f.contentJSON(s, p, "symlink", blob, ref, len(b))
			o["target"] = string(b)
			return o
		}
		b = s.git.blobs[cm.files[t]]
	}
	o := f.contentJSON(s, p, "file", blob, ref, len(b))
	o["content"], o["encoding"] = wrap60(b), "base64"
	return o
}

// linkTarget is the repository path target names, read from the directory
// of the link at p, and whether a file that is not itself a link is there.
func linkTarget(cm *commitObj, p, target string) (string, bool) {
	if strings.HasPrefix(target, "/") {
		return "", false
	}
	t := path.Join(path.Dir(p), target)
	if t == ".." || strings.HasPrefix(t, "../") {
		return "", false
	}
	_, ok := cm.files[t]
	return t, ok && cm.modeOf(t) != modeSymlink
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
