package verdict

import (
	"fmt"
	"path"
	"strings"

	"github.com/aepgate/aepgate/protocol/login"
	"github.com/aepgate/aepgate/protocol/rundoc"
)

// GuideTexts are a changed execution guide's text at the pull request's
// base and head ("" where the file is not), or why they could not be read.
type GuideTexts struct {
	Base, Head string
	Err        string
}

// maxGuideChanges bounds the changes a gate's question names per guide.
const maxGuideChanges = 5

// GuidesWanted are the pull request's changed execution guides in the
// run-document folders: the App reads each at the base and the head
// (Evaluation.Guides) to say what the change does to the auditor's part.
func (ev *Evaluation) GuidesWanted() []string {
	p := ev.Snap.Pull
	if p == nil || ev.Cfg == nil || !ev.Snap.Has.Files {
		return nil
	}
	var out []string
	for _, f := range p.Files {
		if dir, file := splitPath(f.Path); file == rundoc.GuideFile && ev.Cfg.IsRunDocumentDir(dir) {
			out = append(out, f.Path)
		}
	}
	return out
}

// auditorParts are the pull request's changed files that are the
// auditor's part of run documents (aepkit reserves the plan of record, the
// annexes and the execution guide to the Auditor; aepkit-compat §2), each
// with what its change does, as a contract gate's question says it.
func (ev *Evaluation) auditorParts() map[string]string {
	var out map[string]string
	for _, f := range ev.Snap.Pull.Files {
		if why := ev.auditorPart(f.Path); why != "" {
			if out == nil {
				out = map[string]string{}
			}
			out[f.Path] = "changes the auditor's part of run documents: " + why
		}
	}
	return out
}

// auditorPart says what a change to name does to the auditor's part of a
// run folder listed in run_documents, or "" when name is no such part.
func (ev *Evaluation) auditorPart(name string) string {
	dir, file := splitPath(name)
	switch {
	case file == rundoc.PlanFile && ev.Cfg.IsRunDocumentDir(dir):
		return "the plan of record"
	case file == rundoc.GuideFile && ev.Cfg.IsRunDocumentDir(dir):
		return ev.guideChange(name)
	}
	for d := dir; d != "" && d != "." && d != "/"; d = path.Dir(d) {
		if path.Base(d) == rundoc.AnnexDir && ev.Cfg.IsRunDocumentDir(path.Dir(d)) {
			return "an annex"
		}
	}
	return ""
}

// guideChange names the changes to the guide's task definitions
// (rundoc.CompareGuides), "" when there are none. A guide the App could
// not read at both ends is judged changed: it fails closed.
func (ev *Evaluation) guideChange(name string) string {
	t, ok := ev.Guides[name]
	switch {
	case !ok:
		return "the execution guide (not read, so judged changed)"
	case t.Err != "":
		return fmt.Sprintf("the execution guide (%s, so judged changed)", t.Err)
	}
	changes := rundoc.CompareGuides(t.Base, t.Head)
	if len(changes) == 0 {
		return ""
	}
	names, more := make([]string, 0, maxGuideChanges), ""
	for i, c := range changes {
		if i == maxGuideChanges {
			more = fmt.Sprintf(" and %d more", len(changes)-maxGuideChanges)
			break
		}
		names = append(names, c.String())
	}
	return strings.Join(names, ", ") + more
}

// AuditorPartDeciders are who may approve a change to the auditor's part
// of run documents: the path's owners and the listed auditors, less the
// pull request's author (an executor does not approve the definition of
// its own work, whatever its role). author "" leaves nobody out (the
// negative control of the rule).
func AuditorPartDeciders(owners, auditors []string, author string) []string {
	var out []string
	for _, l := range append(append([]string(nil), owners...), auditors...) {
		if !login.In(out, l) && !login.Equal(l, author) {
			out = append(out, l)
		}
	}
	return out
}

// splitPath is name's folder ("" at the root) and file name.
func splitPath(name string) (dir, file string) {
	dir, file = path.Split(name)
	return strings.TrimSuffix(dir, "/"), file
}
