package rundir

import (
	"io/fs"
	"os"
	"path/filepath"

	"github.com/aepgate/aepgate/protocol/rundoc"
)

// Outside is a run document that is a symlink leading out of its run
// folder.
type Outside struct {
	// Name is the document's file name (execution-guide.md, …).
	Name string
	// Target is where the link resolves to, symlinks followed.
	Target string
}

// OutsideLinks lists the documents in dir (the plan, the guide and the log)
// that are symlinks resolving to a file outside dir, dir's own symlinks
// resolved first. Load reads them like any other document, as aepkit does;
// lint and status report them, so text pulled in from elsewhere is seen.
func OutsideLinks(dir string) []Outside {
	root, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return nil
	}
	var out []Outside
	for _, name := range []string{rundoc.PlanFile, rundoc.GuideFile, rundoc.LogFile} {
		path := filepath.Join(dir, name)
		fi, err := os.Lstat(path)
		if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			continue
		}
		target, err := filepath.EvalSymlinks(path)
		if err != nil {
			continue // a dangling link is a missing document
		}
		if rel, err := filepath.Rel(root, target); err != nil || !filepath.IsLocal(rel) {
			out = append(out, Outside{Name: name, Target: target})
		}
	}
	return out
}
