package ghfake

// PushAs pushes a commit to branch as pusher, authored and committed as
// ident (any name and e-mail, linked to an account or not; a zero Date
// takes the fake's clock), with files changed as in Commit. It is what a
// git push of a commit made under another identity does, or the git data
// API (POST …/git/commits with author and committer, then PATCH
// …/git/refs/heads/{branch}) with pusher's token: the branch's pull
// requests get pull_request.synchronize and the repository a push event,
// both with pusher as sender. It returns the new commit's SHA.
func (r *Repo) PushAs(pusher, branch, message string, ident Signature, files map[string]string) string {
	defer r.f.flush()
	r.f.mu.Lock()
	defer r.f.mu.Unlock()
	if ident.Date.IsZero() {
		ident.Date = r.f.clock()
	}
	return r.f.commitAsLocked(r.s, branch, r.f.ensureUser(pusher), ident, message, files)
}
