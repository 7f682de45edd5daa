package ghfake

import (
	"encoding/base64"
	"fmt"
	"sort"
	"strconv"
	"strings"
)

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// shaNode builds a node ID for an object named by a string (a SHA, a ref).
func shaNode(kind, key string) string {
	return base64.StdEncoding.EncodeToString([]byte(fmt.Sprintf("%03d:%s%s", len(kind), kind, key)))
}

func sigJSON(s Signature) obj {
	return obj{"name": s.Name, "email": s.Email, "date": ts(s.Date)}
}

func unsigned() obj {
	return obj{"verified": false, "reason": "unsigned", "signature": nil, "payload": nil, "verified_at": nil}
}

func (f *Fake) api(s *repoState) string { return f.root() + "/repos/" + s.fullName }

// gitCommitJSON is the git-data commit (GET /git/commits/{sha}).
func (f *Fake) gitCommitJSON(s *repoState, c *commitObj) obj {
	parents := make([]any, 0, len(c.parents))
	for _, p := range c.parents {
		parents = append(parents, obj{"sha": p, "url": f.api(s) + "/git/commits/" + p,
			"html_url": "https://github.com/" + s.fullName + "/commit/" + p})
	}
	return obj{
		"sha": c.sha, "node_id": shaNode("Commit", c.sha), "url": f.api(s) + "/git/commits/" + c.sha,
		"html_url": "https://github.com/" + s.fullName + "/commit/" + c.sha,
		"author":   sigJSON(c.author), "committer": sigJSON(c.committer), "message": c.message,
		"tree":    obj{"sha": c.tree, "url": f.api(s) + "/git/trees/" + c.tree},
		"parents": parents, "verification": f.verification(c),
	}
}

// commitJSON is the repository commit (GET /repos/{o}/{r}/commits/{ref}),
// with files when withFiles is set.
func (f *Fake) commitJSON(s *repoState, c *commitObj, withFiles bool) obj {
	g := f.gitCommitJSON(s, c)
	inner := obj{
		"author": g["author"], "committer": g["committer"], "message": c.message, "tree": g["tree"],
		"url": g["url"], "comment_count": 0, "verification": f.verification(c),
	}
	parents := g["parents"]
	o := obj{
		"sha": c.sha, "node_id": g["node_id"], "commit": inner, "url": f.api(s) + "/commits/" + c.sha,
		"html_url": g["html_url"], "comments_url": f.api(s) + "/commits/" + c.sha + "/comments",
		"author": f.userJSON(f.emailUser(c.author.Email)), "committer": f.userJSON(f.emailUser(c.committer.Email)),
		"parents": parents,
	}
	if withFiles {
		base := map[string]string{}
		if len(c.parents) > 0 {
			base = s.git.commits[c.parents[0]].files
		}
		files, add, del := f.diffFiles(s, base, c.files)
		o["files"] = files
		o["stats"] = obj{"total": add + del, "additions": add, "deletions": del}
	}
	return o
}

// diffFiles lists the changed files between two flat trees, GitHub-style:
// a file moved unchanged is one "renamed" entry with previous_filename.
func (f *Fake) diffFiles(s *repoState, from, to map[string]string) ([]any, int, int) {
	byNew, moved := renames(s, from, to)
	var paths []string
	for p := range to {
		if from[p] != to[p] {
			paths = append(paths, p)
		}
	}
	for p := range from {
		if _, ok := to[p]; !ok && !moved[p] {
			paths = append(paths, p)
		}
	}
	sort.Strings(paths)
	out := make([]any, 0, len(paths))
	totalAdd, totalDel := 0, 0
	for _, p := range paths {
		status, sha := "modified", to[p]
		add, del := lines(s.git.blobs[to[p]]), lines(s.git.blobs[from[p]])
		switch {
		case from[p] == "":
			status, del = "added", 0
		case to[p] == "":
			status, sha, add = "removed", from[p], 0
		}
		prev, isRename := byNew[p]
		if isRename {
			status, add = "renamed", 0
		}
		totalAdd += add
		totalDel += del
		o := f.fileJSON(s, p, sha, status, add, del)
		if isRename {
			o["previous_filename"] = prev
		}
		out = append(out, o)
	}
	return out, totalAdd, totalDel
}

// fileJSON is one changed-file entry of a commit, comparison or pull request.
func (f *Fake) fileJSON(s *repoState, p, sha, status string, add, del int) obj {
	return obj{
		"sha": sha, "filename": p, "status": status, "additions": add, "deletions": del, "changes": add + del,
		"blob_url":     "https://github.com/" + s.fullName + "/blob/" + sha + "/" + p,
		"raw_url":      "https://github.com/" + s.fullName + "/raw/" + sha + "/" + p,
		"contents_url": f.api(s) + "/contents/" + p,
	}
}

// renames pairs files gone from `from` with files new in `to` that hold
// the same non-empty blob (git's exact renames): new path → old path, and
// the set of old paths.
func renames(s *repoState, from, to map[string]string) (map[string]string, map[string]bool) {
	var gone []string
	for p, sha := range from {
		if _, ok := to[p]; !ok && len(s.git.blobs[sha]) > 0 {
			gone = append(gone, p)
		}
	}
	sort.Strings(gone)
	var added []string
	for p := range to {
		if _, ok := from[p]; !ok {
			added = append(added, p)
		}
	}
	sort.Strings(added)
	byNew, moved := map[string]string{}, map[string]bool{}
	for _, n := range added {
		for _, o := range gone {
			if !moved[o] && from[o] == to[n] {
				byNew[n], moved[o] = o, true
				break
			}
		}
	}
	return byNew, moved
}

func lines(b []byte) int {
	if len(b) == 0 {
		return 0
	}
	n := strings.Count(string(b), "\n")
	if b[len(b)-1] != '\n' {
		n++
	}
	return n
}

// wrap60 base64-encodes b and breaks it every 60 columns with "\n", as the
// Contents API does.
func wrap60(b []byte) string {
	enc := base64.StdEncoding.EncodeToString(b)
	var sb strings.Builder
	for len(enc) > 60 {
		sb.WriteString(enc[:60])
		sb.WriteByte('\n')
		enc = enc[60:]
	}
	sb.WriteString(enc)
	sb.WriteByte('\n')
	return sb.String()
}

// contentJSON describes one file or directory entry of the Contents API.
func (f *Fake) contentJSON(s *repoState, p, typ, sha, ref string, size int) obj {
	name := p
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		name = p[i+1:]
	}
	self := f.api(s) + "/contents/" + p + "?ref=" + ref
	gitURL := f.api(s) + "/git/blobs/" + sha
	var download any = f.root() + "/_ghfake/raw/" + s.fullName + "/" + ref + "/" + p
	if typ == "dir" {
		gitURL, download = f.api(s)+"/git/trees/"+sha, nil
	}
	return obj{
		"type": typ, "name": name, "path": p, "sha": sha, "size": size, "url": self, "git_url": gitURL,
		"html_url": "https://github.com/" + s.fullName + "/blob/" + ref + "/" + p, "download_url": download,
		"_links": obj{"self": self, "git": gitURL, "html": "https://github.com/" + s.fullName + "/blob/" + ref + "/" + p},
	}
}

func (f *Fake) refJSON(s *repoState, ref string) obj {
	sha := s.refs[ref]
	typ := s.git.objectType(sha)
	return obj{
		"ref": ref, "node_id": shaNode("Ref", s.fullName+":"+ref), "url": f.api(s) + "/git/" + ref,
		"object": obj{"sha": sha, "type": typ, "url": f.api(s) + "/git/" + typ + "s/" + sha},
	}
}

func (f *Fake) tagJSON(s *repoState, t *tagObj) obj {
	return obj{
		"sha": t.sha, "node_id": shaNode("Tag", t.sha), "tag": t.name, "message": t.message,
		"tagger": sigJSON(t.tagger), "url": f.api(s) + "/git/tags/" + t.sha,
		"object":       obj{"sha": t.object, "type": t.objType, "url": f.api(s) + "/git/" + t.objType + "s/" + t.object},
		"verification": unsigned(),
	}
}

func (f *Fake) treeJSON(s *repoState, sha string, recursive bool) obj {
	var entries []any
	var walk func(tree, prefix string)
	walk = func(tree, prefix string) {
		for _, e := range s.git.trees[tree] {
			item := obj{"path": prefix + e.name, "mode": e.mode, "type": e.typ(), "sha": e.sha,
				"url": f.api(s) + "/git/" + e.typ() + "s/" + e.sha}
			if e.typ() == "blob" {
				item["size"] = len(s.git.blobs[e.sha])
			}
			entries = append(entries, item)
			if recursive && e.typ() == "tree" {
				walk(e.sha, prefix+e.name+"/")
			}
		}
	}
	walk(sha, "")
	return obj{"sha": sha, "url": f.api(s) + "/git/trees/" + sha, "tree": entries, "truncated": false}
}
