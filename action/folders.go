package action

import (
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/aepgate/aepgate/protocol/glob"
	"github.com/aepgate/aepgate/protocol/rundoc"
)

// folder is one run folder to check: its path relative to the workspace
// (slash-separated), or why a pattern gave none.
type folder struct {
	rel string
	err string
}

// expandFolders resolves the run-folder patterns against the workspace. A
// literal path is kept as given (a missing folder is reported when it is
// read); a glob keeps the folders it matches that hold a run document. A
// pattern that leaves the workspace, or a glob that matches no run folder,
// gives an entry with err set, so the lint check fails and says why.
func expandFolders(workspace string, patterns []string) []folder {
	var out []folder
	seen := map[string]bool{}
	add := func(f folder) {
		if !seen[f.rel+"\x00"+f.err] {
			seen[f.rel+"\x00"+f.err] = true
			out = append(out, f)
		}
	}
	for _, p := range patterns {
		clean := path.Clean(strings.TrimPrefix(filepath.ToSlash(p), "./"))
		if path.IsAbs(clean) || clean == ".." || strings.HasPrefix(clean, "../") {
			add(folder{rel: p, err: fmt.Sprintf("%s is outside the workspace; give a path relative to the repository root", p)})
			continue
		}
		if !strings.ContainsAny(clean, "*?[") {
			add(folder{rel: clean})
			continue
		}
		matches, err := globDirs(workspace, clean)
		if err != nil {
			add(folder{rel: p, err: fmt.Sprintf("pattern %s: %v", p, err)})
			continue
		}
		if len(matches) == 0 {
			add(folder{rel: p, err: fmt.Sprintf("no run folder (a folder holding %s or %s) matches %s", rundoc.GuideFile, rundoc.LogFile, p)})
		}
		for _, m := range matches {
			add(folder{rel: m})
		}
	}
	return out
}

// globDirs returns the folders under workspace matching pattern (the one
// dialect of path patterns, glob.MatchDir: the folder itself matches) that
// hold a run document, sorted.
func globDirs(workspace, pattern string) ([]string, error) {
	if err := glob.Valid(pattern); err != nil {
		return nil, err
	}
	var out []string
	err := filepath.WalkDir(workspace, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return nil
		}
		if d.Name() == ".git" || d.Name() == "node_modules" {
			return filepath.SkipDir
		}
		rel, _ := filepath.Rel(workspace, p)
		rel = filepath.ToSlash(rel)
		if rel != "." && glob.MatchDir(pattern, rel) && isRunFolder(p) {
			out = append(out, rel)
		}
		return nil
	})
	return out, err
}

func isRunFolder(dir string) bool {
	for _, name := range []string{rundoc.GuideFile, rundoc.LogFile} {
		if fi, err := os.Stat(filepath.Join(dir, name)); err == nil && fi.Mode().IsRegular() {
			return true
		}
	}
	return false
}
