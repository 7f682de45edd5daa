package ghfake

import "strings"

// The merge mutations: enqueuePullRequest, dequeuePullRequest,
// enablePullRequestAutoMerge and disablePullRequestAutoMerge, with the
// refusals GitHub gives. Their messages follow GitHub's where one is known
// (the REST merge's "Head branch was modified…" for a stale expected head,
// "Auto merge is not allowed for this repository", "Pull request Pull
// request is in clean status"); the others are the fake's own wording.

// Refusal messages of the merge mutations.
const (
	msgHeadModified     = "Head branch was modified. Review and try the merge again."
	msgNoQueue          = "Pull request's base branch does not have a merge queue"
	msgAlreadyQueued    = "Pull request is already in the merge queue"
	msgNotQueued        = "Pull request is not in the merge queue"
	msgAutoMergeOff     = "Auto merge is not allowed for this repository"
	msgClean            = "Pull request Pull request is in clean status"
	msgDirty            = "Pull request Pull request is in dirty status"
	msgNotOpen          = "Pull request is not open"
	msgDraft            = "Pull request is still a draft"
	msgNotMergeable     = "Pull request is not mergeable"
	msgChecksNotPassing = "Required status checks have not succeeded on the head of the pull request"
)

func refuse(msg string) error { return &gqlError{kind: "UNPROCESSABLE", msg: msg} }

// mergeMutation serves the four merge mutations; ok is false for any other
// field.
func (x *gqlExec) mergeMutation(name string, input map[string]any) (v any, ok bool, err error) {
	switch name {
	case "enqueuePullRequest":
		v, err = x.enqueuePR(input)
	case "dequeuePullRequest":
		v, err = x.dequeuePR(input)
	case "enablePullRequestAutoMerge":
		v, err = x.enableAutoMerge(input)
	case "disablePullRequestAutoMerge":
		v, err = x.disableAutoMerge(input)
	default:
		return nil, false, nil
	}
	return v, true, err
}

// pullNode resolves a PullRequest node ID and checks the caller may merge
// it: an App's token needs scope at write; a person needs write access to
// the repository.
func (x *gqlExec) pullNode(id any, scope string) (*repoState, *issue, error) {
	s, _ := id.(string)
	n, err := x.node(s)
	if err != nil {
		return nil, nil, err
	}
	pr, isPR := n.(*prRes)
	if !isPR {
		return nil, nil, notFoundErr("Could not resolve to a PullRequest with the global id of '%s'", s)
	}
	t := x.c.tok
	switch {
	case t == nil:
	case t.kind == userToken:
		if !pr.s.canWrite(t.user) {
			return nil, nil, &gqlError{kind: "FORBIDDEN", msg: t.user.login + " does not have the correct permissions to execute `" + scope + "` on this pull request"}
		}
	case x.c.f.protect.permissions && !t.perms.allows(write(scope)):
		return nil, nil, &gqlError{kind: "FORBIDDEN", msg: "Resource not accessible by integration"}
	}
	return pr.s, pr.i, nil
}

// openForMerge refuses a closed or draft pull request, and one whose head
// is not expected (when expected is set).
func openForMerge(is *issue, expected any) error {
	p := is.pr
	oid, _ := expected.(string)
	switch {
	case is.state != "open":
		return refuse(msgNotOpen)
	case p.draft:
		return refuse(msgDraft)
	case oid != "" && !strings.EqualFold(oid, p.headSHA):
		return refuse(msgHeadModified)
	}
	return nil
}

// enqueuePR adds a pull request to its base branch's merge queue. Needs
// the merge_queues permission ("manage the merge queues for a
// repository").
func (x *gqlExec) enqueuePR(input map[string]any) (any, error) {
	s, is, err := x.pullNode(input["pullRequestId"], "merge_queues")
	if err != nil {
		return nil, err
	}
	if err := openForMerge(is, input["expectedHeadOid"]); err != nil {
		return nil, err
	}
	switch e, _ := s.queued(is); {
	case !s.merging.rules[is.pr.baseRef].MergeQueue:
		return nil, refuse(msgNoQueue)
	case e != nil:
		return nil, refuse(msgAlreadyQueued)
	case !s.mergeable(is.pr):
		return nil, refuse(msgNotMergeable)
	case !s.checksPass(is.pr):
		return nil, refuse(msgChecksNotPassing)
	}
	jump, _ := input["jump"].(bool)
	e := x.c.f.enqueue(s, is, x.c.f.actor(x.c.tok), jump)
	_, pos := s.queued(is)
	return mapRes{"EnqueuePullRequestPayload", map[string]any{"mergeQueueEntry": &queueEntryRes{s: s, e: e, pos: pos},
		"clientMutationId": input["clientMutationId"]}}, nil
}

// dequeuePR takes a pull request (input.id is the pull request's ID) out of
// its merge queue.
func (x *gqlExec) dequeuePR(input map[string]any) (any, error) {
	s, is, err := x.pullNode(input["id"], "merge_queues")
	if err != nil {
		return nil, err
	}
	e, pos := s.queued(is)
	if e == nil {
		return nil, refuse(msgNotQueued)
	}
	s.dequeue(is)
	return mapRes{"DequeuePullRequestPayload", map[string]any{"mergeQueueEntry": &queueEntryRes{s: s, e: e, pos: pos},
		"clientMutationId": input["clientMutationId"]}}, nil
}

// enableAutoMerge enables auto-merge, which GitHub refuses when the
// repository does not allow it and when the pull request could merge now
// ("clean": mergeable with every required check passed) or cannot merge
// ("dirty"). On a branch with a merge queue it is "merge when ready": a
// pull request whose checks pass is enqueued at once. Needs contents write,
// as a merge does.
func (x *gqlExec) enableAutoMerge(input map[string]any) (any, error) {
	s, is, err := x.pullNode(input["pullRequestId"], "contents")
	if err != nil {
		return nil, err
	}
	if !s.merging.autoMergeAllowed {
		return nil, refuse(msgAutoMergeOff)
	}
	if err := openForMerge(is, input["expectedHeadOid"]); err != nil {
		return nil, err
	}
	p, by := is.pr, x.c.f.actor(x.c.tok)
	queue := s.merging.rules[p.baseRef].MergeQueue
	switch e, _ := s.queued(is); {
	case queue && e != nil:
		return nil, refuse(msgAlreadyQueued)
	case !s.mergeable(p):
		return nil, refuse(msgDirty)
	case queue && s.checksPass(p):
		x.c.f.enqueue(s, is, by, false)
	case s.checksPass(p):
		return nil, refuse(msgClean)
	default:
		p.autoMerge = &autoMerge{method: MergeMethod(strings.ToLower(str(input["mergeMethod"], "MERGE"))), by: by, at: x.c.f.clock(),
			expectedHead: str(input["expectedHeadOid"], ""), headline: str(input["commitHeadline"], ""),
			body: str(input["commitBody"], ""), email: str(input["authorEmail"], "")}
	}
	return mapRes{"EnablePullRequestAutoMergePayload", map[string]any{"pullRequest": &prRes{s: s, i: is}, "actor": actor(x.c.f, by),
		"clientMutationId": input["clientMutationId"]}}, nil
}

// disableAutoMerge disables a pull request's auto-merge (nothing to do when
// it is not enabled).
func (x *gqlExec) disableAutoMerge(input map[string]any) (any, error) {
	s, is, err := x.pullNode(input["pullRequestId"], "contents")
	if err != nil {
		return nil, err
	}
	is.pr.autoMerge = nil
	return mapRes{"DisablePullRequestAutoMergePayload", map[string]any{"pullRequest": &prRes{s: s, i: is},
		"actor": actor(x.c.f, x.c.f.actor(x.c.tok)), "clientMutationId": input["clientMutationId"]}}, nil
}

func str(v any, def string) string {
	if s, ok := v.(string); ok && s != "" {
		return s
	}
	return def
}

// queueEntryRes is a MergeQueueEntry.
type queueEntryRes struct {
	s   *repoState
	e   *queueEntry
	pos int
}

func (r *queueEntryRes) typeName() string { return "MergeQueueEntry" }

func (r *queueEntryRes) field(x *gqlExec, name string, _ map[string]any) (any, error) {
	s, e := r.s, r.e
	switch name {
	case "id":
		return nodeID("MergeQueueEntry", e.id), nil
	case "enqueuedAt":
		return ts(e.enqueued), nil
	case "enqueuer":
		return actor(x.c.f, e.enqueuer), nil
	case "headCommit":
		return commitOrNil(s, e.head), nil
	case "baseCommit":
		return commitOrNil(s, e.base), nil
	case "jump":
		return e.jump, nil
	case "solo":
		return false, nil
	case "position":
		return r.pos, nil
	case "state":
		return "QUEUED", nil
	case "estimatedTimeToMerge":
		return nil, nil
	case "pullRequest":
		return &prRes{s: s, i: e.is}, nil
	case "mergeQueue":
		return &mergeQueueRes{s: s, branch: e.is.pr.baseRef}, nil
	}
	return nil, unknownField("MergeQueueEntry", name)
}

func commitOrNil(s *repoState, sha string) any {
	if c := s.git.commits[sha]; c != nil {
		return &commitRes{s: s, c: c}
	}
	return nil
}

// mergeQueueRes is a branch's MergeQueue.
type mergeQueueRes struct {
	s      *repoState
	branch string
}

func (r *mergeQueueRes) typeName() string { return "MergeQueue" }

func (r *mergeQueueRes) field(x *gqlExec, name string, args map[string]any) (any, error) {
	path := "/" + r.s.fullName + "/queue/" + r.branch
	switch name {
	case "id":
		return shaNode("MergeQueue", r.s.fullName+":"+r.branch), nil
	case "entries":
		var items []any
		for i, e := range r.s.merging.queues[r.branch] {
			items = append(items, &queueEntryRes{s: r.s, e: e, pos: i + 1})
		}
		return newConn("MergeQueueEntryConnection", "entries", items, args)
	case "repository":
		return &repoRes{s: r.s}, nil
	case "resourcePath":
		return path, nil
	case "url":
		return "https://github.com" + path, nil
	case "nextEntryEstimatedTimeToMerge", "configuration":
		return nil, nil
	}
	return nil, unknownField("MergeQueue", name)
}

// autoMergeRes is an AutoMergeRequest.
type autoMergeRes struct {
	s  *repoState
	is *issue
	am *autoMerge
}

func (r *autoMergeRes) typeName() string { return "AutoMergeRequest" }

func (r *autoMergeRes) field(x *gqlExec, name string, _ map[string]any) (any, error) {
	am := r.am
	switch name {
	case "mergeMethod":
		return strings.ToUpper(string(am.method)), nil
	case "enabledBy":
		return actor(x.c.f, am.by), nil
	case "enabledAt":
		return ts(am.at), nil
	case "commitHeadline":
		return nilIfEmpty(am.headline), nil
	case "commitBody":
		return nilIfEmpty(am.body), nil
	case "authorEmail":
		return nilIfEmpty(am.email), nil
	case "pullRequest":
		return &prRes{s: r.s, i: r.is}, nil
	}
	return nil, unknownField("AutoMergeRequest", name)
}

// mergeField resolves a PullRequest's merge-queue and auto-merge fields;
// ok is false for any other field.
func (r *prRes) mergeField(name string) (v any, ok bool) {
	s, is, p := r.s, r.i, r.i.pr
	e, pos := s.queued(is)
	switch name {
	case "isInMergeQueue":
		return e != nil, true
	case "isMergeQueueEnabled":
		return s.merging.rules[p.baseRef].MergeQueue, true
	case "mergeQueueEntry":
		if e == nil {
			return nil, true
		}
		return &queueEntryRes{s: s, e: e, pos: pos}, true
	case "mergeQueue":
		if !s.merging.rules[p.baseRef].MergeQueue {
			return nil, true
		}
		return &mergeQueueRes{s: s, branch: p.baseRef}, true
	case "autoMergeRequest":
		if p.autoMerge == nil {
			return nil, true
		}
		return &autoMergeRes{s: s, is: is, am: p.autoMerge}, true
	case "mergeStateStatus":
		return r.mergeStateStatus(), true
	}
	return nil, false
}

// mergeStateStatus is GitHub's MergeStateStatus as far as the fake models
// it: DRAFT, DIRTY (conflicts), BLOCKED (a required check has not
// succeeded), else CLEAN; UNKNOWN once closed.
func (r *prRes) mergeStateStatus() string {
	s, is, p := r.s, r.i, r.i.pr
	switch {
	case is.state != "open":
		return "UNKNOWN"
	case p.draft:
		return "DRAFT"
	case !s.mergeable(p):
		return "DIRTY"
	case !s.checksPass(p):
		return "BLOCKED"
	}
	return "CLEAN"
}

// repoMergeField resolves Repository.mergeQueue(branch:) (the default
// branch when none is named; null when the branch has no queue) and
// autoMergeAllowed; ok is false for any other field.
func (r *repoRes) mergeField(name string, args map[string]any) (v any, ok bool) {
	switch name {
	case "mergeQueue":
		branch := str(args["branch"], r.s.defaultBranch)
		if !r.s.merging.rules[branch].MergeQueue {
			return nil, true
		}
		return &mergeQueueRes{s: r.s, branch: branch}, true
	case "autoMergeAllowed":
		return r.s.merging.autoMergeAllowed, true
	}
	return nil, false
}
