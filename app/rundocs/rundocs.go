// Package rundocs reads what the App judges of a pull request's run
// documents beyond its snapshot: the changed execution guides at the base
// and at the head, so the gates can say what a change does to the
// auditor's part (verdict.GuidesWanted, rundoc.CompareGuides).
package rundocs

import (
	"context"
	"fmt"

	"github.com/aepgate/aepgate/app/verdict"
	"github.com/aepgate/aepgate/internal/gh"
)

// Files reads files at a commit (gh.Installation.ReadFiles).
type Files interface {
	ReadFiles(ctx context.Context, owner, repo, sha string, paths []string) ([]gh.BlobFile, error)
}

// Read reads the pull request's changed execution guides at its base and
// its head into ev.Guides, one read per commit. A guide GitHub gives no
// text of (binary, cut short, a symbolic link), or a base it does not
// name, is recorded with why, and the gates judge that guide changed. A
// failed read fails the evaluation, to be retried: it never counts as no
// change.
func Read(ctx context.Context, f Files, owner, repo string, ev *verdict.Evaluation) error {
	paths := ev.GuidesWanted()
	if len(paths) == 0 {
		return nil
	}
	p := ev.Snap.Pull
	ev.Guides = map[string]verdict.GuideTexts{}
	if p.BaseSHA == "" {
		for _, name := range paths {
			ev.Guides[name] = verdict.GuideTexts{Err: "GitHub named no base commit"}
		}
		return nil
	}
	base, err := f.ReadFiles(ctx, owner, repo, p.BaseSHA, paths)
	if err != nil {
		return fmt.Errorf("read the execution guides at the base: %w", err)
	}
	head, err := f.ReadFiles(ctx, owner, repo, p.HeadSHA, paths)
	if err != nil {
		return fmt.Errorf("read the execution guides at the head: %w", err)
	}
	for i, name := range paths {
		var t verdict.GuideTexts
		var why string
		t.Base, why = text(base, i)
		t.Head, t.Err = text(head, i)
		if why != "" {
			t.Err = why
		}
		ev.Guides[name] = t
	}
	return nil
}

// text is file i's text ("" when it is not there), or why there is none to
// compare.
func text(fs []gh.BlobFile, i int) (string, string) {
	if i >= len(fs) {
		return "", "GitHub returned fewer files than asked"
	}
	switch f := fs[i]; {
	case f.Missing:
		return "", ""
	case f.Symlink, f.Binary, f.TooLarge:
		return "", "GitHub gave no whole text of " + f.Path
	default:
		return string(f.Content), ""
	}
}
