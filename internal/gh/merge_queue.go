package gh

import (
	"context"
	"errors"
	"fmt"
	"strings"
)

// HeadMovedError is GitHub's refusal of a merge, an enqueue or an
// auto-merge bound to a head (expectedHeadOid, or REST's sha) that is no
// longer the pull request's head: the head moved after it was judged.
type HeadMovedError struct {
	Expected string // the head the call was bound to
	Actual   string // the pull request's head read after the refusal ("" when unknown)
}

// Error says which head was expected and which one GitHub holds.
func (e *HeadMovedError) Error() string {
	if e.Actual == "" {
		return fmt.Sprintf("the pull request's head is no longer %s", e.Expected)
	}
	return fmt.Sprintf("the pull request's head moved from %s to %s", e.Expected, e.Actual)
}

var (
	// ErrAutoMergeNotAllowed: the repository's "Allow auto-merge" setting
	// is off, so enablePullRequestAutoMerge is refused.
	ErrAutoMergeNotAllowed = errors.New("auto-merge is not allowed in this repository (enable \"Allow auto-merge\" in its settings)")
	// ErrNothingToWaitFor: GitHub refused auto-merge because the pull
	// request can merge now ("clean status"); merge it directly, bound to
	// the head (MergePullRequest).
	ErrNothingToWaitFor = errors.New("the pull request can merge now, so GitHub refuses to wait for it (auto-merge)")
)

// QueueEntry is a pull request's place in a merge queue.
type QueueEntry struct {
	ID       string // the entry's node ID
	Position int    // 1 at the front
	State    string // QUEUED, AWAITING_CHECKS, MERGEABLE, UNMERGEABLE, LOCKED
	Head     string // the head commit it was enqueued with
	Enqueuer string // login of who enqueued it
	Jump     bool
}

// PullMergeState is what merging a pull request depends on, read in one
// query.
type PullMergeState struct {
	ID           string // the pull request's node ID, what the mutations take
	Number       int
	State        string // OPEN, CLOSED, MERGED
	Draft        bool
	Head         string // headRefOid
	Base         string // baseRefName
	QueueEnabled bool   // the base branch has a merge queue
	Queued       *QueueEntry
	// AutoMergeMethod is the method of the enabled auto-merge (MERGE,
	// SQUASH, REBASE), "" when auto-merge is off.
	AutoMergeMethod string
	// AutoMergeBy is the login that enabled auto-merge.
	AutoMergeBy string
}

const queueEntryFields = `id position state jump headCommit { oid } enqueuer { login }`

const pullMergeFields = `id number state isDraft headRefOid baseRefName isMergeQueueEnabled
  mergeQueueEntry { ` + queueEntryFields + ` }
  autoMergeRequest { mergeMethod enabledBy { login } }`

const pullMergeQuery = `query($owner: String!, $name: String!, $n: Int!) {
  repository(owner: $owner, name: $name) { pullRequest(number: $n) { ` + pullMergeFields + ` } }
}`

const pullMergeByIDQuery = `query($id: ID!) { node(id: $id) { ... on PullRequest { ` + pullMergeFields + ` } } }`

// pullMergeJSON is pullMergeFields as GitHub answers them.
type pullMergeJSON struct {
	ID, State, HeadRefOid, BaseRefName string
	Number                             int
	IsDraft, IsMergeQueueEnabled       bool
	MergeQueueEntry                    *queueEntryJSON
	AutoMergeRequest                   *struct {
		MergeMethod string
		EnabledBy   *struct{ Login string }
	}
}

type queueEntryJSON struct {
	ID, State  string
	Position   int
	Jump       bool
	HeadCommit *struct{ Oid string }
	Enqueuer   *struct{ Login string }
}

func (j *queueEntryJSON) entry() *QueueEntry {
	if j == nil {
		return nil
	}
	e := &QueueEntry{ID: j.ID, Position: j.Position, State: j.State, Jump: j.Jump}
	if j.HeadCommit != nil {
		e.Head = j.HeadCommit.Oid
	}
	if j.Enqueuer != nil {
		e.Enqueuer = j.Enqueuer.Login
	}
	return e
}

func (j *pullMergeJSON) state() *PullMergeState {
	s := &PullMergeState{ID: j.ID, Number: j.Number, State: j.State, Draft: j.IsDraft, Head: j.HeadRefOid, Base: j.BaseRefName,
		QueueEnabled: j.IsMergeQueueEnabled, Queued: j.MergeQueueEntry.entry()}
	if am := j.AutoMergeRequest; am != nil {
		s.AutoMergeMethod = am.MergeMethod
		if am.EnabledBy != nil {
			s.AutoMergeBy = am.EnabledBy.Login
		}
	}
	return s
}

// PullMergeState reads pull request n's merge state: its node ID and head,
// whether its base branch has a merge queue, its queue entry and its
// auto-merge request.
//
// https://docs.github.com/graphql/reference/objects#pullrequest
func (in *Installation) PullMergeState(ctx context.Context, owner, repo string, n int) (*PullMergeState, error) {
	var out struct {
		Repository *struct{ PullRequest *pullMergeJSON }
	}
	if err := graphQL(ctx, in.hc, in.graphqlURL, pullMergeQuery, map[string]any{"owner": owner, "name": repo, "n": n}, &out); err != nil {
		return nil, fmt.Errorf("read the merge state of %s/%s#%d: %w", owner, repo, n, err)
	}
	if out.Repository == nil || out.Repository.PullRequest == nil {
		return nil, fmt.Errorf("read the merge state of %s/%s#%d: no such pull request", owner, repo, n)
	}
	return out.Repository.PullRequest.state(), nil
}

// pullMergeStateByID is PullMergeState by the pull request's node ID.
func (in *Installation) pullMergeStateByID(ctx context.Context, id string) (*PullMergeState, error) {
	var out struct{ Node *pullMergeJSON }
	if err := graphQL(ctx, in.hc, in.graphqlURL, pullMergeByIDQuery, map[string]any{"id": id}, &out); err != nil {
		return nil, fmt.Errorf("read the merge state of pull request %s: %w", id, err)
	}
	if out.Node == nil || out.Node.ID == "" {
		return nil, fmt.Errorf("read the merge state of pull request %s: no such pull request", id)
	}
	return out.Node.state(), nil
}

const branchQueueQuery = `query($owner: String!, $name: String!, $branch: String!) {
  repository(owner: $owner, name: $name) { mergeQueue(branch: $branch) { id } }
}`

// BranchHasMergeQueue reports whether merges into branch go through a
// merge queue (Repository.mergeQueue(branch:) is not null).
//
// https://docs.github.com/graphql/reference/objects#repository
func (in *Installation) BranchHasMergeQueue(ctx context.Context, owner, repo, branch string) (bool, error) {
	var out struct {
		Repository *struct{ MergeQueue *struct{ ID string } }
	}
	if err := graphQL(ctx, in.hc, in.graphqlURL, branchQueueQuery, map[string]any{"owner": owner, "name": repo, "branch": branch}, &out); err != nil {
		return false, fmt.Errorf("read the merge queue of %s/%s@%s: %w", owner, repo, branch, err)
	}
	if out.Repository == nil {
		return false, fmt.Errorf("read the merge queue of %s/%s@%s: no such repository", owner, repo, branch)
	}
	return out.Repository.MergeQueue != nil, nil
}

// headMoved turns a refused mutation bound to expected into a
// *HeadMovedError when the pull request's head, read again, is no longer
// expected; it returns nil when the head is still expected or cannot be
// read (the caller keeps the original error).
func (in *Installation) headMoved(ctx context.Context, id, expected string, cause error) (*PullMergeState, error) {
	var limited *RateLimitError
	if errors.As(cause, &limited) {
		return nil, nil // no second call into a spent budget
	}
	st, err := in.pullMergeStateByID(ctx, id)
	if err != nil {
		return nil, nil
	}
	if !strings.EqualFold(st.Head, expected) {
		return st, fmt.Errorf("%w: %w", &HeadMovedError{Expected: expected, Actual: st.Head}, cause)
	}
	return st, nil
}
