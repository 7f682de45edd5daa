package ghfake

import (
	"bytes"
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"path"
	"sort"
	"strings"
	"time"
)

// Signature is a git author, committer or tagger.
type Signature struct {
	Name  string
	Email string
	Date  time.Time
}

func (s Signature) git() string {
	return fmt.Sprintf("%s <%s> %d +0000", s.Name, s.Email, s.Date.Unix())
}

// treeEntry is one line of a git tree object.
type treeEntry struct {
	mode string // "100644", "100755", "120000", "40000"
	name string
	sha  string
}

// typ is the kind of object the entry names, as git ls-tree prints it.
func (e treeEntry) typ() string {
	switch e.mode {
	case modeTree:
		return "tree"
	case modeSubmodule:
		return "commit"
	}
	return "blob"
}

// commitObj is a git commit, with its flattened file list cached.
type commitObj struct {
	sha       string
	tree      string
	parents   []string
	author    Signature
	committer Signature
	message   string
	files     map[string]string // path → blob SHA
	modes     map[string]string // path → git mode of files that are not 100644
	// verified is what GitHub verified of the commit's signature (nil:
	// unsigned); see Repo.SignCommit.
	verified *verifiedSig
}

// tagObj is an annotated git tag object.
type tagObj struct {
	sha     string
	name    string
	object  string
	objType string
	tagger  Signature
	message string
}

// gitStore holds one repository's objects, addressed by their real git
// SHA-1, so SHAs computed here equal what git computes for the same content.
type gitStore struct {
	blobs   map[string][]byte
	trees   map[string][]treeEntry
	commits map[string]*commitObj
	tags    map[string]*tagObj
}

func newGitStore() *gitStore {
	return &gitStore{blobs: map[string][]byte{}, trees: map[string][]treeEntry{}, commits: map[string]*commitObj{}, tags: map[string]*tagObj{}}
}

func hashObject(kind string, body []byte) string {
	h := sha1.New()
	fmt.Fprintf(h, "%s %d\x00", kind, len(body))
	h.Write(body)
	return hex.EncodeToString(h.Sum(nil))
}

func (g *gitStore) putBlob(b []byte) string {
	sha := hashObject("blob", b)
	g.blobs[sha] = append([]byte(nil), b...)
	return sha
}

// putTree stores entries (git order: by name, directories as name+"/").
func (g *gitStore) putTree(entries []treeEntry) string {
	sort.Slice(entries, func(i, j int) bool { return sortKey(entries[i]) < sortKey(entries[j]) })
	var buf bytes.Buffer
	for _, e := range entries {
		raw, _ := hex.DecodeString(e.sha)
		fmt.Fprintf(&buf, "%s %s\x00", e.mode, e.name)
		buf.Write(raw)
	}
	sha := hashObject("tree", buf.Bytes())
	g.trees[sha] = entries
	return sha
}

func sortKey(e treeEntry) string {
	if e.mode == modeTree {
		return e.name + "/"
	}
	return e.name
}

// treeFromFiles builds nested trees from a flat path → blob SHA map and
// the modes of files that are not 100644.
func (g *gitStore) treeFromFiles(files, modes map[string]string) string {
	return g.buildDir(files, modes, "")
}

func (g *gitStore) buildDir(files, modes map[string]string, dir string) string {
	var entries []treeEntry
	subdirs := map[string]bool{}
	for p, sha := range files {
		rest, ok := strings.CutPrefix(p, dir)
		if !ok {
			continue
		}
		if i := strings.IndexByte(rest, '/'); i >= 0 {
			subdirs[rest[:i]] = true
			continue
		}
		mode := modes[p]
		if mode == "" {
			mode = modeFile
		}
		entries = append(entries, treeEntry{mode: mode, name: rest, sha: sha})
	}
	for d := range subdirs {
		entries = append(entries, treeEntry{mode: modeTree, name: d, sha: g.buildDir(files, modes, dir+d+"/")})
	}
	return g.putTree(entries)
}

// flatten lists every file under tree as path → blob SHA, and the modes
// of those that are not 100644 as path → mode.
func (g *gitStore) flatten(tree, prefix string, out, modes map[string]string) {
	for _, e := range g.trees[tree] {
		switch {
		case e.typ() == "tree":
			g.flatten(e.sha, prefix+e.name+"/", out, modes)
		case e.mode != modeFile:
			modes[prefix+e.name] = e.mode
			fallthrough
		default:
			out[prefix+e.name] = e.sha
		}
	}
}

func (g *gitStore) putCommit(c *commitObj) string {
	c.sha = hashObject("commit", c.text())
	if c.files == nil {
		c.files, c.modes = map[string]string{}, map[string]string{}
		g.flatten(c.tree, "", c.files, c.modes)
	}
	g.commits[c.sha] = c
	return c.sha
}

// text is the commit's git object, without a signature header.
func (c *commitObj) text() []byte {
	var buf bytes.Buffer
	fmt.Fprintf(&buf, "tree %s\n", c.tree)
	for _, p := range c.parents {
		fmt.Fprintf(&buf, "parent %s\n", p)
	}
	fmt.Fprintf(&buf, "author %s\ncommitter %s\n\n%s", c.author.git(), c.committer.git(), c.message)
	return buf.Bytes()
}

func (g *gitStore) putTag(t *tagObj) string {
	body := fmt.Sprintf("object %s\ntype %s\ntag %s\ntagger %s\n\n%s", t.object, t.objType, t.name, t.tagger.git(), t.message)
	t.sha = hashObject("tag", []byte(body))
	g.tags[t.sha] = t
	return t.sha
}

// objectType names the kind of object sha is, or "".
func (g *gitStore) objectType(sha string) string {
	switch {
	case g.commits[sha] != nil:
		return "commit"
	case g.tags[sha] != nil:
		return "tag"
	case g.trees[sha] != nil:
		return "tree"
	case g.blobs[sha] != nil:
		return "blob"
	}
	return ""
}

// peel follows annotated tags until a non-tag object.
func (g *gitStore) peel(sha string) string {
	for i := 0; i < 16; i++ {
		t := g.tags[sha]
		if t == nil {
			return sha
		}
		sha = t.object
	}
	return sha
}

// ancestors returns every commit reachable from sha (itself included).
func (g *gitStore) ancestors(sha string) map[string]bool {
	seen := map[string]bool{}
	stack := []string{sha}
	for len(stack) > 0 {
		s := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[s] || g.commits[s] == nil {
			continue
		}
		seen[s] = true
		stack = append(stack, g.commits[s].parents...)
	}
	return seen
}

// mergeBase is the best common ancestor of a and b (one that no other
// common ancestor descends from), or "".
func (g *gitStore) mergeBase(a, b string) string {
	inA := g.ancestors(a)
	var common []string
	for s := range g.ancestors(b) {
		if inA[s] {
			common = append(common, s)
		}
	}
	sort.Strings(common)
	best := ""
	for _, s := range common {
		dominated := false
		for _, o := range common {
			if o != s && g.ancestors(o)[s] {
				dominated = true
				break
			}
		}
		if !dominated && (best == "" || g.commits[s].committer.Date.After(g.commits[best].committer.Date)) {
			best = s
		}
	}
	return best
}

// between lists commits reachable from head but not from base, oldest first
// (parents before children).
func (g *gitStore) between(base, head string) []*commitObj {
	exclude := g.ancestors(base)
	if base == "" {
		exclude = map[string]bool{}
	}
	var out []*commitObj
	done := map[string]bool{}
	var visit func(s string)
	visit = func(s string) {
		if done[s] || exclude[s] || g.commits[s] == nil {
			return
		}
		done[s] = true
		for _, p := range g.commits[s].parents {
			visit(p)
		}
		out = append(out, g.commits[s])
	}
	visit(head)
	return out
}

// cleanPath normalises a repository path ("" for the root).
func cleanPath(p string) string {
	p = strings.Trim(p, "/")
	if p == "" {
		return ""
	}
	return path.Clean(p)
}

// subtree returns the tree at slash-separated path p below tree root ("" is
// the root itself), and false when p does not name a directory.
func (g *gitStore) subtree(root, p string) (string, bool) {
	tree := root
	if p == "" {
		return tree, true
	}
	for _, part := range strings.Split(p, "/") {
		next := ""
		for _, e := range g.trees[tree] {
			if e.name == part && e.typ() == "tree" {
				next = e.sha
			}
		}
		if next == "" {
			return "", false
		}
		tree = next
	}
	return tree, true
}
