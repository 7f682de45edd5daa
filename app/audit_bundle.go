package app

import (
	"context"
	"fmt"
	"sort"

	"github.com/aepgate/aepgate/app/verdict"
	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/protocol/gitsha"
	"github.com/aepgate/aepgate/review"
)

// fileReader reads files at a commit (gh.Installation.ReadFiles).
type fileReader interface {
	ReadFiles(ctx context.Context, owner, repo, sha string, paths []string) ([]gh.BlobFile, error)
}

// fetchBundles reads the evidence bundles of the reviews that may count as
// audits (the review rules let them through), one GraphQL read per audited
// commit. Paths the path rules refuse (private or credential files, ..,
// absolute) are never read; a review citing more files than a bundle may
// hold is not read at all (the audit refuses it).
func (e *evaluator) fetchBundles(ctx context.Context, in evalInput, ev *verdict.Evaluation) error {
	if ev.Snap.Pull == nil || !ev.Snap.Has.Commits || ev.Cfg == nil {
		return nil
	}
	ev.Bundles = map[int64]verdict.Bundle{}
	wants := ev.BundleWants()
	bySHA := map[string][]string{}
	for _, w := range wants {
		bySHA[w.SHA] = append(bySHA[w.SHA], w.Paths...)
	}
	files := map[string]gh.BlobFile{}
	shas := make([]string, 0, len(bySHA))
	for sha := range bySHA {
		shas = append(shas, sha)
	}
	sort.Strings(shas)
	for _, sha := range shas {
		paths := unique(bySHA[sha])
		for len(paths) > 0 {
			n := min(len(paths), gh.MaxFilesRead)
			got, err := e.files.ReadFiles(ctx, in.owner, in.repo, sha, paths[:n])
			if err != nil {
				return err
			}
			for _, f := range got {
				files[sha+"\x00"+f.Path] = f
			}
			paths = paths[n:]
		}
	}
	for _, w := range wants {
		ev.Bundles[w.ID] = assemble(w, files)
	}
	return nil
}

// assemble builds one review's bundle from the files read; a binary file
// or one GitHub would not return whole makes the bundle unreadable.
func assemble(w verdict.BundleWant, files map[string]gh.BlobFile) verdict.Bundle {
	var b verdict.Bundle
	for _, p := range w.Paths {
		f := files[w.SHA+"\x00"+p]
		switch {
		case f.Binary:
			return verdict.Bundle{Err: fmt.Sprintf("%s is a binary file at %s; evidence must be UTF-8 text", p, gitsha.Short(w.SHA))}
		case f.TooLarge:
			return verdict.Bundle{Err: fmt.Sprintf("%s at %s is larger than GitHub returns in one read", p, gitsha.Short(w.SHA))}
		}
		b.Files = append(b.Files, review.File{Path: p, Content: f.Content, Symlink: f.Symlink, Missing: f.Missing})
	}
	if b.Files == nil {
		b.Files = review.Bundle{}
	}
	return b
}

func unique(s []string) []string {
	sort.Strings(s)
	out := s[:0]
	for i, v := range s {
		if i == 0 || v != s[i-1] {
			out = append(out, v)
		}
	}
	return out
}
