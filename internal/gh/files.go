package gh

import (
	"context"
	"encoding/json"
	"fmt"
	"path"
	"sort"
	"strconv"
	"strings"

	"github.com/aepgate/aepgate/protocol/gitsha"
)

// MaxFilesRead bounds one ReadFiles call: an audit's evidence bundle holds
// at most 64 files (docs/audit.md), and one query reads them all.
const MaxFilesRead = 64

// symlinkMode is a symlink's git file mode (0o120000) as GraphQL's
// TreeEntry.mode reports it.
const symlinkMode = 0o120000

// BlobFile is one file as read at a commit.
type BlobFile struct {
	Path    string
	Content []byte
	// Missing: no file at that path (or a path through a symlinked
	// directory, which git does not follow).
	Missing bool
	// Symlink: the path is a symbolic link; Content is then its target.
	Symlink bool
	// Binary: GitHub reports the blob as binary and gives no text.
	Binary bool
	// TooLarge: GitHub cut the blob's text short.
	TooLarge bool
}

// ReadFiles reads paths at commit sha in one GraphQL query: each file's
// blob by expression, and each parent directory's entries, which tell a
// symlink (mode 120000) from a file. At most MaxFilesRead paths. Files are
// remembered per installation (a path at a commit never changes), so a
// re-evaluation reads nothing again.
//
// https://docs.github.com/graphql/reference/objects#blob
func (in *Installation) ReadFiles(ctx context.Context, owner, repo, sha string, paths []string) ([]BlobFile, error) {
	if len(paths) > MaxFilesRead {
		return nil, fmt.Errorf("read files at %s: %d paths, at most %d in one read", gitsha.Short(sha), len(paths), MaxFilesRead)
	}
	if len(paths) == 0 {
		return nil, nil
	}
	out := make([]BlobFile, len(paths))
	var missing []string
	for i, p := range paths {
		if f, ok := in.files.get(fileKey(owner, repo, sha, p)); ok {
			out[i] = f
		} else {
			missing = append(missing, p)
		}
	}
	if len(missing) == 0 {
		return out, nil // files at a commit never change
	}
	read, err := in.readFiles(ctx, owner, repo, sha, missing)
	if err != nil {
		return nil, err
	}
	for i, j := 0, 0; i < len(paths); i++ {
		if out[i].Path == "" {
			out[i] = read[j]
			in.files.put(fileKey(owner, repo, sha, paths[i]), read[j])
			j++
		}
	}
	return out, nil
}

// readFiles is ReadFiles without the cache: one GraphQL query.
func (in *Installation) readFiles(ctx context.Context, owner, repo, sha string, paths []string) ([]BlobFile, error) {
	q, vars, dirs := filesQuery(owner, repo, sha, paths)
	var data struct {
		Repository map[string]json.RawMessage
	}
	if err := graphQL(ctx, in.hc, in.graphqlURL, q, vars, &data); err != nil {
		return nil, fmt.Errorf("read files of %s/%s at %s: %w", owner, repo, gitsha.Short(sha), err)
	}
	if data.Repository == nil {
		return nil, fmt.Errorf("read files of %s/%s: repository not visible", owner, repo)
	}
	links, err := symlinks(data.Repository, dirs)
	if err != nil {
		return nil, fmt.Errorf("read files of %s/%s at %s: %w", owner, repo, gitsha.Short(sha), err)
	}
	out := make([]BlobFile, len(paths))
	for i, p := range paths {
		f, err := decodeBlob(data.Repository["f"+strconv.Itoa(i)])
		if err != nil {
			return nil, fmt.Errorf("read %s at %s: %w", p, gitsha.Short(sha), err)
		}
		f.Path = p
		f.Symlink = links[p]
		out[i] = f
	}
	return out, nil
}

// filesQuery builds the query and its variables: f<i> for each path, d<j>
// for each distinct parent directory. Paths travel as variables, never
// spliced into the query text.
func filesQuery(owner, repo, sha string, paths []string) (string, map[string]any, []string) {
	vars := map[string]any{"owner": owner, "name": repo}
	var decl, body strings.Builder
	decl.WriteString("$owner: String!, $name: String!")
	for i, p := range paths {
		fmt.Fprintf(&decl, ", $f%d: String!", i)
		fmt.Fprintf(&body, "  f%d: object(expression: $f%d) { __typename ... on Blob { isBinary isTruncated text } }\n", i, i)
		vars["f"+strconv.Itoa(i)] = sha + ":" + p
	}
	seen := map[string]bool{}
	var dirs []string
	for _, p := range paths {
		if d := parentDir(p); !seen[d] {
			seen[d] = true
			dirs = append(dirs, d)
		}
	}
	sort.Strings(dirs)
	for j, d := range dirs {
		fmt.Fprintf(&decl, ", $d%d: String!", j)
		fmt.Fprintf(&body, "  d%d: object(expression: $d%d) { ... on Tree { entries { name mode } } }\n", j, j)
		vars["d"+strconv.Itoa(j)] = sha + ":" + d
	}
	return "query(" + decl.String() + ") { repository(owner: $owner, name: $name) {\n" + body.String() + "} }", vars, dirs
}

// parentDir is p's directory ("" for the root).
func parentDir(p string) string {
	d := path.Dir(p)
	if d == "." {
		return ""
	}
	return d
}

// symlinks returns the paths whose parent directory lists them with the
// symlink mode.
func symlinks(repo map[string]json.RawMessage, dirs []string) (map[string]bool, error) {
	out := map[string]bool{}
	for j, d := range dirs {
		var tree *struct {
			Entries []struct {
				Name string
				Mode int
			}
		}
		if err := json.Unmarshal(repo["d"+strconv.Itoa(j)], &tree); err != nil {
			return nil, fmt.Errorf("decode directory %q: %w", d, err)
		}
		if tree == nil {
			continue // no such directory: its files are missing
		}
		for _, e := range tree.Entries {
			if e.Mode == symlinkMode {
				out[path.Join(d, e.Name)] = true
			}
		}
	}
	return out, nil
}

// decodeBlob reads one f<i> answer.
func decodeBlob(raw json.RawMessage) (BlobFile, error) {
	var b *struct {
		Typename    string `json:"__typename"`
		IsBinary    bool
		IsTruncated bool
		Text        *string
	}
	if err := json.Unmarshal(raw, &b); err != nil {
		return BlobFile{}, err
	}
	switch {
	case b == nil || b.Typename != "Blob":
		return BlobFile{Missing: true}, nil // nothing there, or a directory
	case b.IsBinary || b.Text == nil:
		return BlobFile{Binary: true}, nil
	}
	return BlobFile{Content: []byte(*b.Text), TooLarge: b.IsTruncated}, nil
}
