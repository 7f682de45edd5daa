package app

import (
	"context"
	"fmt"
	"sort"

	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/protocol/gitsha"
	"github.com/aepgate/aepgate/review"
)

// fileReader reads files at a commit (gh.Installation.ReadFiles).
type fileReader interface {
	ReadFiles(ctx context.Context, owner, repo, sha string, paths []string) ([]gh.BlobFile, error)
}

// bundleWant is one review's evidence to read.
type bundleWant struct {
	id    int64
	sha   string
	paths []string
}

// fetchBundles reads the evidence bundles of the reviews that may count as
// audits (the review rules let them through), one GraphQL read per audited
// commit. Paths the path rules refuse (private or credential files, ..,
// absolute) are never read; a review citing more files than a bundle may
// hold is not read at all (the audit refuses it).
func (e *evaluator) fetchBundles(ctx context.Context, in evalInput, ev *evaluation) error {
	if ev.snap.Pull == nil || !ev.snap.Has.Commits || ev.cfg == nil {
		return nil
	}
	ev.bundles = map[int64]bundle{}
	wants := ev.bundleWants()
	bySHA := map[string][]string{}
	for _, w := range wants {
		bySHA[w.sha] = append(bySHA[w.sha], w.paths...)
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
		ev.bundles[w.id] = assemble(w, files)
	}
	return nil
}

// bundleWants lists what to read for each review that may count.
func (ev *evaluation) bundleWants() []bundleWant {
	ain := ev.auditInput()
	var wants []bundleWant
	for _, r := range ain.Reviews {
		if !counts(ev.rules, r, &ain) {
			continue
		}
		a, _ := review.Parse(r.Body)
		if a == nil {
			continue // an unreadable block needs no evidence to be refused
		}
		paths := a.EvidencePaths()
		if len(paths) > review.MaxBundleFiles {
			// Nothing is read; the bundle rules refuse the review in their
			// own words (the same as aepgate review check).
			ev.bundles[r.ID] = bundle{files: review.Bundle{}}
			continue
		}
		w := bundleWant{id: r.ID, sha: r.CommitSHA}
		for _, p := range paths {
			if review.CheckPath(p) == nil {
				w.paths = append(w.paths, p)
			}
		}
		wants = append(wants, w)
	}
	return wants
}

// counts reports whether every review rule lets r through.
func counts(rules []review.Rule, r review.Review, in *review.Input) bool {
	for _, rule := range rules {
		if rule.Check(r, in) != "" {
			return false
		}
	}
	return true
}

// assemble builds one review's bundle from the files read; a binary file
// or one GitHub would not return whole makes the bundle unreadable.
func assemble(w bundleWant, files map[string]gh.BlobFile) bundle {
	var b bundle
	for _, p := range w.paths {
		f := files[w.sha+"\x00"+p]
		switch {
		case f.Binary:
			return bundle{err: fmt.Sprintf("%s is a binary file at %s; evidence must be UTF-8 text", p, gitsha.Short(w.sha))}
		case f.TooLarge:
			return bundle{err: fmt.Sprintf("%s at %s is larger than GitHub returns in one read", p, gitsha.Short(w.sha))}
		}
		b.files = append(b.files, review.File{Path: p, Content: f.Content, Symlink: f.Symlink, Missing: f.Missing})
	}
	if b.files == nil {
		b.files = review.Bundle{}
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
