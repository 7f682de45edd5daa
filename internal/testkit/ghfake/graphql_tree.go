package ghfake

import "encoding/base64"

// treeRes is a Tree; dir is its path in the commit it was reached from
// ("" for the root, or when reached by oid). Its entries need the contents
// permission, as file contents do (a Commit is also reached through pull
// requests).
type treeRes struct {
	s   *repoState
	sha string
	dir string
}

func (r *treeRes) typeName() string { return "Tree" }

func (r *treeRes) field(x *gqlExec, name string, _ map[string]any) (any, error) {
	switch name {
	case "oid":
		return r.sha, nil
	case "abbreviatedOid":
		return r.sha[:7], nil
	case "id":
		return shaNode("Tree", r.sha), nil
	case "repository":
		return &repoRes{s: r.s}, nil
	case "entries":
		if err := x.need("contents"); err != nil {
			return nil, err
		}
		out := []any{}
		for _, e := range r.s.git.trees[r.sha] {
			out = append(out, &treeEntryRes{s: r.s, e: e, path: joinPath(r.dir, e.name)})
		}
		return out, nil
	}
	return nil, unknownField("Tree", name)
}

// joinPath is name inside directory dir ("" for the root).
func joinPath(dir, name string) string {
	if dir == "" {
		return name
	}
	return dir + "/" + name
}

// treeEntryRes is a TreeEntry: one line of a git tree, its path from the
// root of the tree it was reached from.
type treeEntryRes struct {
	s    *repoState
	e    treeEntry
	path string
}

func (r *treeEntryRes) typeName() string { return "TreeEntry" }

func (r *treeEntryRes) field(_ *gqlExec, name string, _ map[string]any) (any, error) {
	e := r.e
	switch name {
	case "name":
		return e.name, nil
	case "nameRaw":
		return base64.StdEncoding.EncodeToString([]byte(e.name)), nil
	case "path":
		return r.path, nil
	case "pathRaw":
		return base64.StdEncoding.EncodeToString([]byte(r.path)), nil
	case "mode":
		return modeInt(e.mode), nil
	case "type":
		return e.typ(), nil
	case "oid":
		return e.sha, nil
	case "extension":
		return extOf(e.name), nil
	case "size":
		return len(r.s.git.blobs[e.sha]), nil
	case "object":
		return entryObject(r.s, e, r.path), nil
	case "repository":
		return &repoRes{s: r.s}, nil
	case "submodule":
		return nil, nil
	}
	return nil, unknownField("TreeEntry", name)
}

// entryObject is the Blob or Tree an entry names; a submodule's commit is
// not in the repository, so it is null.
func entryObject(s *repoState, e treeEntry, p string) resolver {
	switch e.typ() {
	case "tree":
		return &treeRes{s: s, sha: e.sha, dir: p}
	case "blob":
		return &blobRes{s: s, sha: e.sha}
	}
	return nil
}
