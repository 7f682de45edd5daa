// Package merge carries out `/aep merge` and `merge.auto` (docs/merge.md):
// once every aepgate check the pull judge just published on a pull
// request's head is green, the App merges that head, and only that head —
// into its base branch's merge queue (enqueuePullRequest with
// expectedHeadOid), else by auto-merge (enablePullRequestAutoMerge with
// expectedHeadOid), else, when GitHub has nothing to wait for, directly
// with the head's SHA (gh.Installation.MergeBound). After each later
// judgement it takes the merge back (dequeuePullRequest, or auto-merge
// disabled) when the bound breaks: the head moved, or a check on it is no
// longer green (a HOLD, a new gate, a stale audit), and says why in one
// reply.
//
// It runs after the pull judge (pull.Then): the checks it reads are the
// ones that judgement showed, so the head it binds is the head they judged.
// What the App bound is kept in its own replies on the pull request (a
// hidden marker naming the head), so a redelivered command is answered
// once and a later judgement knows what to take back.
package merge
