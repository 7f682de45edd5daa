package cli

import (
	"context"
	"fmt"
	"strings"

	"github.com/aepgate/aepgate/internal/gitobj"
	"github.com/aepgate/aepgate/review"
)

// fileReader reads files from a repository's objects at a commit.
type fileReader interface {
	Files(ctx context.Context, commit string, paths []string) ([]gitobj.File, error)
}

var _ fileReader = (*gitobj.Repo)(nil)

// Forms of the text review check reads.
const (
	formBody  = "review body"
	formBlock = "block"
)

// reviewResult is what checkReview found.
type reviewResult struct {
	// Form is formBody or formBlock; Commit the full SHA checked.
	Form, Commit string
	// Audit is the block as far as it could be read (nil when not at all).
	Audit *review.Audit
	// Bundle is the evidence bundle read at Commit; Read is false when it
	// was not read (the block has problems, or cites too many files).
	Bundle  review.Bundle
	Read    bool
	Checked review.Checked
	// Problems are the App's problems with this review at Commit, in its
	// order: the block's, then the evidence's, then what a PASS leaves open.
	Problems review.Problems
}

// checkReview checks text as the App checks a review at commit sha: the
// block (review.Parse; evidence is checked only once the block is valid),
// its evidence against the files paths chooses, read at sha
// (review.CheckBundle; a review citing more files than a bundle holds is
// not read), and the findings a PASS may not leave open
// (Audit.PassProblems with the default blocking severities).
func checkReview(ctx context.Context, r fileReader, sha, text string, paths func(*review.Audit) []string) (*reviewResult, error) {
	res := &reviewResult{Commit: sha}
	res.Form, res.Audit, res.Problems = parseReview(text)
	if len(res.Problems) > 0 {
		return res, nil
	}
	res.Bundle = review.Bundle{}
	if want := paths(res.Audit); len(want) <= review.MaxBundleFiles {
		files, err := r.Files(ctx, sha, want)
		if err != nil {
			return nil, fmt.Errorf("read the cited files at %s: %w", sha, err)
		}
		for _, f := range files {
			res.Bundle = append(res.Bundle, review.File{Path: f.Path, Content: f.Content, Symlink: f.Symlink, Missing: f.Missing})
		}
		res.Read = true
	}
	res.Checked, res.Problems = review.CheckBundle(res.Audit, res.Bundle)
	res.Problems = append(res.Problems, res.Audit.PassProblems(nil)...)
	return res, nil
}

// evidencePaths are the cited paths review check reads: those
// review.CheckPath accepts, as the App reads them.
func evidencePaths(a *review.Audit) []string { return a.EvidencePaths() }

// parseReview reads text as a review body when it holds a fenced block,
// and as the aep-audit block's content otherwise.
func parseReview(text string) (string, *review.Audit, review.Problems) {
	if review.HasBlock(text) || hasFence(text) {
		a, ps := review.Parse(text)
		return formBody, a, ps
	}
	a, ps := review.ParseBlock(text)
	return formBlock, a, ps
}

// hasFence reports whether a line of text opens a fenced code block.
func hasFence(text string) bool {
	for line := range strings.Lines(text) {
		t := strings.TrimLeft(line, " \t>")
		if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
			return true
		}
	}
	return false
}
