package action

import (
	"context"
	"errors"
	"fmt"

	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/internal/gitobj"
	"github.com/aepgate/aepgate/protocol/gitsha"
)

// checkoutFix is how to make the workspace the commit the step judges.
const checkoutFix = "check out the commit the checks are published on before this step: on `pull_request`, " +
	"`actions/checkout` with its default ref (GitHub's merge commit `refs/pull/N/merge`, whose second parent is the head) " +
	"or with `ref: ${{ github.event.pull_request.head.sha }}`; on other events, the default checkout of `GITHUB_SHA`."

// TreeError says the workspace is not a commit the step may judge for the
// SHA it publishes on; every check run on that SHA is refused.
type TreeError struct {
	// Published is the SHA the check runs attach to.
	Published string
	// Workspace is the workspace's HEAD; empty when it could not be read.
	Workspace string
	// Why says what was wrong, in a sentence.
	Why string
}

func (e *TreeError) Error() string {
	return e.Why + "; " + checkoutFix
}

// refusal is the check-run text of e.
func (e *TreeError) refusal() checks.Refusal {
	title := "not judged: the workspace is not this commit"
	if e.Workspace != "" {
		title = fmt.Sprintf("not judged: the workspace is at %s, not this commit", gitsha.Short(e.Workspace))
	}
	return checks.Refusal{Title: title, Reason: e.Why + ". A check judged on another tree says nothing about this commit, so aepgate judged nothing.", Fix: checkoutFix}
}

// tree reports, once per step, whether the workspace is a commit the step
// may judge for r.ev.SHA (nil) or why not (a *TreeError), through
// Options.Checkout.
func (r *runner) tree(ctx context.Context) error {
	if !r.treeRead {
		r.treeRead = true
		note, err := r.o.Checkout(ctx, r.ev)
		switch {
		case err != nil:
			r.treeErr = err
			r.notes = append(r.notes, "aepgate judged nothing: "+err.Error())
		case note != "":
			r.notes = append(r.notes, note)
		}
	}
	return r.treeErr
}

// VerifyCheckout reports whether ev.Workspace is a commit the step may
// judge for ev.SHA, the commit its check runs attach to; the error is a
// *TreeError. Accepted are:
//   - a HEAD equal to ev.SHA (the pull request's head on pull request
//     events, GITHUB_SHA otherwise);
//   - on pull request events, a HEAD whose commit object records exactly two
//     parents, the second being the pull request's head: GitHub's test merge
//     commit (refs/pull/N/merge, the default checkout of pull_request), which
//     holds the head's changes merged into the base branch. The note then
//     says so, for the job summary.
//
// Anything else, a workspace that is not a git checkout included, is
// refused.
func VerifyCheckout(ctx context.Context, ev Event) (note string, err error) {
	want := ev.SHA
	what := "the commit this workflow runs on (GITHUB_SHA)"
	if ev.PR != nil {
		what = "the pull request's head"
	}
	repo, err := gitobj.Open(ctx, ev.Workspace)
	if errors.Is(err, gitobj.ErrNotRepository) {
		return "", &TreeError{Published: want, Why: fmt.Sprintf("the workspace %s is not a git checkout, so aepgate cannot tell whether it is %s %s", ev.Workspace, what, want)}
	}
	if err != nil {
		return "", &TreeError{Published: want, Why: fmt.Sprintf("the workspace's git could not be read (%v), so aepgate cannot tell whether it is %s %s", err, what, want)}
	}
	head, err := repo.Resolve(ctx, "HEAD")
	if err != nil {
		return "", &TreeError{Published: want, Why: fmt.Sprintf("the workspace's HEAD could not be read (%v); the checks would be published on %s %s", err, what, want)}
	}
	if head == want {
		return "", nil
	}
	if ev.PR != nil {
		parents, err := repo.Parents(ctx, head)
		if err == nil && len(parents) == 2 && parents[1] == ev.PR.HeadSHA {
			return fmt.Sprintf("The workspace is GitHub's merge commit %s of the head %s into the base branch; the checks judge that tree and are published on the head.", gitsha.Short(head), gitsha.Short(want)), nil
		}
	}
	return "", &TreeError{Published: want, Workspace: head, Why: fmt.Sprintf("the workspace's HEAD is %s, but the checks would be published on %s %s (nor is HEAD a merge commit whose second parent is that head)", head, what, want)}
}

// onTree returns build's run when the workspace is a commit the step may
// judge; otherwise it runs nothing and returns a placeholder named name,
// which refuseAll replaces, counting one problem.
func (r *runner) onTree(ctx context.Context, name string, build func() checks.Run) checks.Run {
	if r.tree(ctx) != nil {
		r.problems++
		return checks.Run{Name: name}
	}
	return build()
}

// refuseAll replaces every run on r.ev.SHA with the tree's refusal, so that
// a step whose workspace is not the commit publishes nothing green there.
// aep/release-closure, which attaches to the tag's commit, stays.
func (r *runner) refuseAll(runs []checks.Run) {
	var te *TreeError
	if !errors.As(r.treeErr, &te) {
		return
	}
	for i, run := range runs {
		if run.Name == checks.NameRelease {
			continue
		}
		runs[i] = checks.RefusedRun(run.Name, r.ev.SHA, te.refusal())
		runs[i].DetailsURL = r.ev.RunURL
	}
}
