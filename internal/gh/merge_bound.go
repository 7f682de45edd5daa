package gh

import (
	"context"
	"errors"
	"fmt"
	"strings"
)

// How MergeBound merged, or arranged the merge of, a pull request.
const (
	MergedByQueue     = "enqueued"   // added to the base branch's merge queue
	MergedByAutoMerge = "auto-merge" // auto-merge enabled, waiting for required checks
	MergedNow         = "merged"     // merged at once (REST, bound to the head)
)

// MergeOutcome is what MergeBound did.
type MergeOutcome struct {
	// How is MergedByQueue, MergedByAutoMerge or MergedNow.
	How string
	// Entry is the queue entry (MergedByQueue).
	Entry *QueueEntry
	// SHA is the merge commit (MergedNow).
	SHA string
}

// MergeBound merges pull request n of owner/repo at head, and only at head,
// the way its base branch takes merges: into the merge queue where the
// branch has one (enqueuePullRequest), else by auto-merge
// (enablePullRequestAutoMerge with method), else — when GitHub answers that
// the pull request can merge now — directly (REST, with sha). Every call is
// bound to head: a head that moved is a *HeadMovedError, found before any
// write when the read already shows it. A closed or draft pull request is
// an error, and so is every refusal GitHub gives (auto-merge not allowed:
// ErrAutoMergeNotAllowed).
func (in *Installation) MergeBound(ctx context.Context, owner, repo string, n int, head, method string) (*MergeOutcome, error) {
	st, err := in.PullMergeState(ctx, owner, repo, n)
	if err != nil {
		return nil, err
	}
	op := fmt.Sprintf("merge %s/%s#%d at %s", owner, repo, n, head)
	switch {
	case head == "":
		return nil, fmt.Errorf("%s: no head to bind the merge to", op)
	case st.State != "OPEN":
		return nil, fmt.Errorf("%s: the pull request is %s, not open", op, strings.ToLower(st.State))
	case st.Draft:
		return nil, fmt.Errorf("%s: the pull request is a draft", op)
	case !strings.EqualFold(st.Head, head):
		return nil, fmt.Errorf("%s: %w", op, &HeadMovedError{Expected: head, Actual: st.Head})
	case st.QueueEnabled:
		e, err := in.EnqueuePullRequest(ctx, st.ID, head, false)
		if err != nil {
			return nil, err
		}
		return &MergeOutcome{How: MergedByQueue, Entry: e}, nil
	}
	err = in.EnableAutoMerge(ctx, st.ID, head, method)
	if err == nil {
		return &MergeOutcome{How: MergedByAutoMerge}, nil
	}
	if !errors.Is(err, ErrNothingToWaitFor) {
		return nil, err
	}
	sha, err := in.MergePullRequest(ctx, owner, repo, n, head, strings.ToLower(method))
	if err != nil {
		return nil, err
	}
	return &MergeOutcome{How: MergedNow, SHA: sha}, nil
}
