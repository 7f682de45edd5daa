package ghfake

import (
	"encoding/base64"
	"net/http"
	"strings"
	"time"
)

// gitSig is an author/committer/tagger in a git-data request body.
type gitSig struct {
	Name  string    `json:"name"`
	Email string    `json:"email"`
	Date  time.Time `json:"date"`
}

func (c *call) sig(in *gitSig) Signature {
	s := c.f.signature(c.f.actor(c.tok))
	if in != nil && in.Name != "" {
		s.Name, s.Email = in.Name, in.Email
		if !in.Date.IsZero() {
			s.Date = in.Date.UTC()
		}
	}
	return s
}

func createBlob(c *call) (int, any) {
	var req struct {
		Content  string `json:"content"`
		Encoding string `json:"encoding"`
	}
	if err := c.decode(&req); err != nil {
		return badJSON(err)
	}
	data := []byte(req.Content)
	if req.Encoding == "base64" {
		var err error
		if data, err = base64.StdEncoding.DecodeString(req.Content); err != nil {
			return invalid("Blob", "content", "invalid", "content is not valid base64")
		}
	}
	sha := c.repo.git.putBlob(data)
	return http.StatusCreated, obj{"sha": sha, "url": c.f.api(c.repo) + "/git/blobs/" + sha}
}

// treeItem is one entry of a create-tree request.
type treeItem struct {
	Path    string  `json:"path"`
	Mode    string  `json:"mode"`
	Type    string  `json:"type"`
	SHA     *string `json:"sha"`
	Content *string `json:"content"`
}

func createTree(c *call) (int, any) {
	var req struct {
		BaseTree string     `json:"base_tree"`
		Tree     []treeItem `json:"tree"`
	}
	if err := c.decode(&req); err != nil {
		return badJSON(err)
	}
	g := c.repo.git
	files, modes := map[string]string{}, map[string]string{}
	if req.BaseTree != "" {
		if g.trees[req.BaseTree] == nil {
			return invalid("Tree", "base_tree", "invalid", "base_tree is not a tree")
		}
		g.flatten(req.BaseTree, "", files, modes)
	}
	for _, e := range req.Tree {
		if field, msg := applyTreeItem(g, e, files, modes); msg != "" {
			return invalid("Tree", field, "invalid", msg)
		}
	}
	sha := g.treeFromFiles(files, modes)
	return http.StatusCreated, c.f.treeJSON(c.repo, sha, false)
}

// applyTreeItem sets, replaces or (sha null) removes one file of a
// create-tree request; it returns the field and why the entry is refused,
// or "" when it is taken. Blob modes 100644 (also when unset), 100755 and
// 120000 are served; directory and submodule entries are not.
func applyTreeItem(g *gitStore, e treeItem, files, modes map[string]string) (field, msg string) {
	p := cleanPath(e.Path)
	switch e.Mode {
	case "", modeFile, modeExecutable, modeSymlink:
	case "040000", modeSubmodule:
		return "tree.mode", "ghfake: tree entries of mode " + e.Mode + " are valid on GitHub but not implemented by the fake"
	default:
		return "tree.mode", "tree.mode " + e.Mode + " is not a valid mode"
	}
	delete(modes, p)
	switch {
	case e.Content != nil:
		files[p] = g.putBlob([]byte(*e.Content))
	case e.SHA == nil:
		delete(files, p)
		return "", ""
	case g.blobs[*e.SHA] != nil:
		files[p] = *e.SHA
	default:
		return "tree.sha", "tree.sha " + *e.SHA + " is not a valid blob"
	}
	if e.Mode == modeExecutable || e.Mode == modeSymlink {
		modes[p] = e.Mode
	}
	return "", ""
}

func createGitCommit(c *call) (int, any) {
	var req struct {
		Message   string   `json:"message"`
		Tree      string   `json:"tree"`
		Parents   []string `json:"parents"`
		Author    *gitSig  `json:"author"`
		Committer *gitSig  `json:"committer"`
	}
	if err := c.decode(&req); err != nil {
		return badJSON(err)
	}
	g := c.repo.git
	if g.trees[req.Tree] == nil && req.Tree != hashObject("tree", nil) {
		return invalid("Commit", "tree", "invalid", "Tree SHA does not exist")
	}
	for _, p := range req.Parents {
		if g.commits[p] == nil {
			return invalid("Commit", "parents", "invalid", "Parent SHA does not exist or is not a commit object")
		}
	}
	author := c.sig(req.Author)
	committer := author
	if req.Committer != nil {
		committer = c.sig(req.Committer)
	}
	sha := g.putCommit(&commitObj{tree: req.Tree, parents: req.Parents, author: author, committer: committer, message: req.Message})
	return http.StatusCreated, c.f.gitCommitJSON(c.repo, g.commits[sha])
}

func createTag(c *call) (int, any) {
	var req struct {
		Tag     string  `json:"tag"`
		Message string  `json:"message"`
		Object  string  `json:"object"`
		Type    string  `json:"type"`
		Tagger  *gitSig `json:"tagger"`
	}
	if err := c.decode(&req); err != nil {
		return badJSON(err)
	}
	if req.Type == "" {
		req.Type = "commit"
	}
	if req.Tag == "" || c.repo.git.objectType(req.Object) != req.Type {
		return invalid("Tag", "object", "invalid", "Object does not exist or is not a "+req.Type)
	}
	sha := c.repo.git.putTag(&tagObj{name: req.Tag, object: req.Object, objType: req.Type, tagger: c.sig(req.Tagger), message: req.Message})
	return http.StatusCreated, c.f.tagJSON(c.repo, c.repo.git.tags[sha])
}

func createRef(c *call) (int, any) {
	var req struct {
		Ref string `json:"ref"`
		SHA string `json:"sha"`
	}
	if err := c.decode(&req); err != nil {
		return badJSON(err)
	}
	if !strings.HasPrefix(req.Ref, "refs/") || strings.Count(req.Ref, "/") < 2 {
		return unprocessable("Reference name must start with 'refs/' and have at least two slashes.")
	}
	if _, ok := c.repo.refs[req.Ref]; ok {
		return unprocessable("Reference already exists")
	}
	if c.repo.git.objectType(req.SHA) == "" {
		return unprocessable("Object does not exist")
	}
	c.f.setRef(c.repo, req.Ref, req.SHA)
	c.f.pushed(c.repo, req.Ref, "", req.SHA, c.f.actor(c.tok))
	return http.StatusCreated, c.f.refJSON(c.repo, req.Ref)
}

// updateRef moves a ref; without force the new commit must descend from the
// old one ("Update is not a fast forward").
func updateRef(c *call) (int, any) {
	var req struct {
		SHA   string `json:"sha"`
		Force bool   `json:"force"`
	}
	if err := c.decode(&req); err != nil {
		return badJSON(err)
	}
	ref := "refs/" + c.r.PathValue("ref")
	old, ok := c.repo.refs[ref]
	if !ok {
		return unprocessable("Reference does not exist")
	}
	if c.repo.git.objectType(req.SHA) == "" {
		return unprocessable("Object does not exist")
	}
	if !req.Force && c.repo.git.commits[old] != nil && !c.repo.git.ancestors(req.SHA)[old] {
		return unprocessable("Update is not a fast forward")
	}
	c.f.setRef(c.repo, ref, req.SHA)
	c.f.pushed(c.repo, ref, old, req.SHA, c.f.actor(c.tok))
	return http.StatusOK, c.f.refJSON(c.repo, ref)
}
