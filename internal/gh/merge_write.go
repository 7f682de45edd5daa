package gh

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/google/go-github/v62/github"
)

const enqueueMutation = `mutation($id: ID!, $head: GitObjectID!, $jump: Boolean) {
  enqueuePullRequest(input: {pullRequestId: $id, expectedHeadOid: $head, jump: $jump}) { mergeQueueEntry { ` + queueEntryFields + ` } }
}`

// EnqueuePullRequest adds the pull request with node ID id to its base
// branch's merge queue, bound to head: GitHub enqueues it only while head
// is its head. A refusal because the head moved is a *HeadMovedError (the
// head is read again after any refusal, whatever GitHub's wording); a pull
// request already queued at head answers its entry, so a repeated call
// changes nothing.
//
// https://docs.github.com/graphql/reference/mutations#enqueuepullrequest
func (in *Installation) EnqueuePullRequest(ctx context.Context, id, head string, jump bool) (*QueueEntry, error) {
	if head == "" {
		return nil, fmt.Errorf("enqueue pull request %s: no head to bind the enqueue to", id)
	}
	var out struct {
		EnqueuePullRequest *struct{ MergeQueueEntry *queueEntryJSON }
	}
	err := graphQL(ctx, in.hc, in.graphqlURL, enqueueMutation, map[string]any{"id": id, "head": head, "jump": jump}, &out)
	if err == nil && out.EnqueuePullRequest != nil && out.EnqueuePullRequest.MergeQueueEntry != nil {
		return out.EnqueuePullRequest.MergeQueueEntry.entry(), nil
	}
	if err == nil {
		return nil, fmt.Errorf("enqueue pull request %s at %s: GitHub answered no queue entry", id, head)
	}
	st, moved := in.headMoved(ctx, id, head, err)
	switch {
	case moved != nil:
		return nil, fmt.Errorf("enqueue pull request %s: %w", id, moved)
	case st != nil && st.Queued != nil && strings.EqualFold(st.Queued.Head, head):
		return st.Queued, nil
	}
	return nil, fmt.Errorf("enqueue pull request %s at %s: %w", id, head, err)
}

const dequeueMutation = `mutation($id: ID!) { dequeuePullRequest(input: {id: $id}) { mergeQueueEntry { id } } }`

// DequeuePullRequest takes the pull request with node ID id out of its
// merge queue. A pull request that is not (or no longer) queued is already
// where the call wants it: when GitHub refuses and a fresh read shows it
// out of the queue, the answer is nil.
//
// https://docs.github.com/graphql/reference/mutations#dequeuepullrequest
func (in *Installation) DequeuePullRequest(ctx context.Context, id string) error {
	var out struct {
		DequeuePullRequest *struct{ MergeQueueEntry *struct{ ID string } }
	}
	err := graphQL(ctx, in.hc, in.graphqlURL, dequeueMutation, map[string]any{"id": id}, &out)
	if err == nil {
		return nil
	}
	var ge *GraphQLError
	if errors.As(err, &ge) {
		if st, rerr := in.pullMergeStateByID(ctx, id); rerr == nil && st.Queued == nil {
			return nil
		}
	}
	return fmt.Errorf("dequeue pull request %s: %w", id, err)
}

const autoMergeMutation = `mutation($id: ID!, $head: GitObjectID!, $method: PullRequestMergeMethod) {
  enablePullRequestAutoMerge(input: {pullRequestId: $id, expectedHeadOid: $head, mergeMethod: $method}) {
    pullRequest { autoMergeRequest { mergeMethod } isInMergeQueue }
  }
}`

// EnableAutoMerge enables auto-merge on the pull request with node ID id,
// bound to head, with method (MERGE, SQUASH or REBASE; "" is GitHub's
// default, MERGE). Refusals are told apart: the head moved
// (*HeadMovedError), the repository does not allow auto-merge
// (ErrAutoMergeNotAllowed), or the pull request can merge now
// (ErrNothingToWaitFor: merge it with MergePullRequest instead).
//
// https://docs.github.com/graphql/reference/mutations#enablepullrequestautomerge
func (in *Installation) EnableAutoMerge(ctx context.Context, id, head, method string) error {
	if head == "" {
		return fmt.Errorf("enable auto-merge on pull request %s: no head to bind it to", id)
	}
	vars := map[string]any{"id": id, "head": head, "method": nil}
	if method != "" {
		vars["method"] = strings.ToUpper(method)
	}
	var out struct {
		EnablePullRequestAutoMerge *struct {
			PullRequest *struct{ IsInMergeQueue bool }
		}
	}
	err := graphQL(ctx, in.hc, in.graphqlURL, autoMergeMutation, vars, &out)
	if err == nil {
		return nil
	}
	if _, moved := in.headMoved(ctx, id, head, err); moved != nil {
		return fmt.Errorf("enable auto-merge on pull request %s: %w", id, moved)
	}
	var ge *GraphQLError
	if errors.As(err, &ge) {
		msg := strings.ToLower(strings.Join(ge.Messages, "; "))
		switch {
		case strings.Contains(msg, "auto merge is not allowed"):
			err = fmt.Errorf("%w: %w", ErrAutoMergeNotAllowed, err)
		case strings.Contains(msg, "clean status"):
			err = fmt.Errorf("%w: %w", ErrNothingToWaitFor, err)
		}
	}
	return fmt.Errorf("enable auto-merge on pull request %s at %s: %w", id, head, err)
}

const disableAutoMergeMutation = `mutation($id: ID!) { disablePullRequestAutoMerge(input: {pullRequestId: $id}) { clientMutationId } }`

// DisableAutoMerge disables auto-merge on the pull request with node ID id.
//
// https://docs.github.com/graphql/reference/mutations#disablepullrequestautomerge
func (in *Installation) DisableAutoMerge(ctx context.Context, id string) error {
	var out struct {
		DisablePullRequestAutoMerge *struct{ ClientMutationID *string }
	}
	if err := graphQL(ctx, in.hc, in.graphqlURL, disableAutoMergeMutation, map[string]any{"id": id}, &out); err != nil {
		return fmt.Errorf("disable auto-merge on pull request %s: %w", id, err)
	}
	return nil
}

// MergePullRequest merges pull request n now with method ("merge",
// "squash" or "rebase"; "" is the repository's default), bound to head:
// GitHub answers 409 when head is no longer the pull request's head, which
// is a *HeadMovedError. It returns the merge commit's SHA.
//
// https://docs.github.com/rest/pulls/pulls#merge-a-pull-request
func (in *Installation) MergePullRequest(ctx context.Context, owner, repo string, n int, head, method string) (string, error) {
	if head == "" {
		return "", fmt.Errorf("merge %s/%s#%d: no head to bind the merge to", owner, repo, n)
	}
	res, _, err := in.rest.PullRequests.Merge(ctx, owner, repo, n, "", &github.PullRequestOptions{SHA: head, MergeMethod: method})
	var er *github.ErrorResponse
	if errors.As(err, &er) && er.Response != nil && er.Response.StatusCode == http.StatusConflict {
		return "", fmt.Errorf("merge %s/%s#%d: %w: %w", owner, repo, n, &HeadMovedError{Expected: head}, err)
	}
	if err != nil {
		return "", classify(fmt.Sprintf("merge %s/%s#%d at %s", owner, repo, n, head), err)
	}
	return res.GetSHA(), nil
}
