package ghfake

import (
	"strconv"
	"strings"
)

// Git file modes as git writes them in tree objects.
const (
	modeFile       = "100644"
	modeExecutable = "100755"
	modeSymlink    = "120000"
	modeTree       = "40000"
	modeSubmodule  = "160000"
)

// Markers a file's content in Commit starts with to give the path another
// mode; like Deleted, no real file content starts with a NUL and this text.
const (
	symlinkMark    = "\x00ghfake:symlink\x00"
	executableMark = "\x00ghfake:executable\x00"
)

// Symlink, as a file's content in Commit, makes that path a symbolic link
// to target (git mode 120000). As in git, the link's blob holds target.
func Symlink(target string) string { return symlinkMark + target }

// Executable, as a file's content in Commit, makes that path an executable
// file holding content (git mode 100755).
func Executable(content string) string { return executableMark + content }

// fileMode splits a Commit content into its git mode and blob bytes.
func fileMode(content string) (mode, data string) {
	if t, ok := strings.CutPrefix(content, symlinkMark); ok {
		return modeSymlink, t
	}
	if c, ok := strings.CutPrefix(content, executableMark); ok {
		return modeExecutable, c
	}
	return modeFile, content
}

// modeInt is a git mode as GraphQL's TreeEntry.mode gives it: the octal
// mode read as a number (100644 → 33188, 120000 → 40960, 40000 → 16384).
func modeInt(mode string) int {
	n, _ := strconv.ParseInt(mode, 8, 64)
	return int(n)
}

// modeOf is the git mode of file p in c (100644 unless recorded otherwise).
func (c *commitObj) modeOf(p string) string {
	if m := c.modes[p]; m != "" {
		return m
	}
	return modeFile
}

// entryAt walks tree root along p as git resolves "rev:path": components
// separated by single slashes, no "." or "..", no symbolic link followed,
// and a trailing slash only after a directory. "" is the root itself.
func (g *gitStore) entryAt(root, p string) (treeEntry, bool) {
	cur := treeEntry{mode: modeTree, sha: root}
	if p == "" {
		return cur, true
	}
	p, dirOnly := strings.CutSuffix(p, "/")
	for _, part := range strings.Split(p, "/") {
		if part == "" || part == "." || part == ".." || cur.typ() != "tree" {
			return treeEntry{}, false
		}
		next, ok := g.child(cur.sha, part)
		if !ok {
			return treeEntry{}, false
		}
		cur = next
	}
	if dirOnly && cur.typ() != "tree" {
		return treeEntry{}, false
	}
	return cur, true
}

// child is the entry called name in tree.
func (g *gitStore) child(tree, name string) (treeEntry, bool) {
	for _, e := range g.trees[tree] {
		if e.name == name {
			return e, true
		}
	}
	return treeEntry{}, false
}
