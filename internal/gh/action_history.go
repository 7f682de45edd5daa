package gh

import (
	"context"
	"fmt"
	"net/http"

	"github.com/google/go-github/v62/github"

	"github.com/aepgate/aepgate/protocol/gitsha"
	"github.com/aepgate/aepgate/protocol/plans"
)

// Comparison limits GitHub documents for compare-two-commits: "The
// response from the API will include a maximum of 300 files" and the
// commits "will be limited to 250" across its pages.
const (
	MaxCompareFiles   = 300
	MaxCompareCommits = 250
)

// PullHistory returns what a shallow clone lacks of a pull request: its
// commits base...head (oldest first), each with the paths it changes
// against its first parent, and the paths changed from the merge base to
// head. One comparison, then one commit read per commit. A comparison GitHub
// may have cut short (MaxCompareFiles files, or more commits than it lists)
// is an error: the history would be incomplete.
//
// https://docs.github.com/rest/commits/commits#compare-two-commits
// https://docs.github.com/rest/commits/commits#get-a-commit
func (a *ActionClient) PullHistory(ctx context.Context, owner, repo, base, head string) ([]plans.Commit, []string, error) {
	op := fmt.Sprintf("compare %s...%s", gitsha.Short(base), gitsha.Short(head))
	cmp, _, err := a.client.Repositories.CompareCommits(ctx, owner, repo, base, head, &github.ListOptions{PerPage: 100})
	if err != nil {
		return nil, nil, classify(op+" (the token needs contents: read)", err)
	}
	if len(cmp.Files) >= MaxCompareFiles || cmp.GetTotalCommits() > len(cmp.Commits) {
		return nil, nil, fmt.Errorf("%s: GitHub lists %d of %d commits and %d files (at most %d), so the history would be incomplete",
			op, len(cmp.Commits), cmp.GetTotalCommits(), len(cmp.Files), MaxCompareFiles)
	}
	var changed []string
	for _, f := range cmp.Files {
		changed = appendPaths(changed, f)
	}
	commits := make([]plans.Commit, 0, len(cmp.Commits))
	for _, rc := range cmp.Commits {
		c, _, err := a.client.Repositories.GetCommit(ctx, owner, repo, rc.GetSHA(), &github.ListOptions{PerPage: 100})
		if err != nil {
			return nil, nil, classify("read commit "+gitsha.Short(rc.GetSHA()), err)
		}
		pc := plans.Commit{SHA: rc.GetSHA()}
		for _, f := range c.Files {
			pc.Files = appendPaths(pc.Files, f)
		}
		commits = append(commits, pc)
	}
	return commits, changed, nil
}

// appendPaths adds a changed file's path, and the path it was renamed
// from, as git's --no-renames diff lists both.
func appendPaths(out []string, f *github.CommitFile) []string {
	out = append(out, f.GetFilename())
	if p := f.GetPreviousFilename(); p != "" {
		out = append(out, p)
	}
	return out
}

// ListDir returns the paths of the files directly in dir in owner/repo at
// ref (no subfolders, no symlinks); nil when dir does not exist there (a
// 404 confirmed as absence as ReadRepoFile does).
//
// https://docs.github.com/rest/repos/contents#get-repository-content
func (a *ActionClient) ListDir(ctx context.Context, owner, repo, dir, ref string) ([]string, error) {
	file, entries, resp, err := a.client.Repositories.GetContents(ctx, owner, repo, dir, &github.RepositoryContentGetOptions{Ref: ref})
	if err != nil {
		if resp != nil && resp.StatusCode == http.StatusNotFound {
			if cerr := listRoot(ctx, a.client, owner, repo, ref); cerr != nil {
				return nil, fmt.Errorf("list %s at %s: cannot read the repository's contents at that commit (the token needs contents: read): %w", dir, ref, cerr)
			}
			return nil, nil
		}
		return nil, classify(fmt.Sprintf("list %s at %s", dir, ref), err)
	}
	if file != nil {
		return nil, fmt.Errorf("list %s at %s: a file, not a folder", dir, ref)
	}
	var out []string
	for _, e := range entries {
		if e.GetType() == "file" {
			out = append(out, e.GetPath())
		}
	}
	return out, nil
}
