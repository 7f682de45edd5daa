package ghfake

import (
	"fmt"
	"maps"
	"sort"
	"strings"
	"time"
)

// repoState is one repository's state; it is only touched under mu.
type repoState struct {
	id            int64
	owner         *user
	name          string
	fullName      string
	private       bool
	defaultBranch string
	created       time.Time
	pushed        time.Time
	perms         map[string]string // lower-case login → admin/maintain/write/triage/read
	git           *gitStore
	refs          map[string]string // "refs/heads/main" → SHA
	checks        checkState
	releases      []*release
	assets        map[int64]*asset
	issues        []*issue // issues and pull requests, by number-1
	milestones    []*milestone
	labels        []*label
	runs          []*workflowRun
	statuses      []*commitStatus
	attestations  []*attestation
	merging       mergeState // branch rules, merge queues, allow_auto_merge (merge_queue.go)
}

// Repo is the scenario handle of one repository.
type Repo struct {
	f *Fake
	s *repoState
}

// Deleted, as a file's content in Commit, removes that file.
const Deleted = "\x00ghfake:deleted\x00"

// CreateRepo creates "owner/name" with default branch main holding one
// commit (a README), as GitHub's "initialize with a README" does. An owner
// not seen before becomes an Organization.
func (f *Fake) CreateRepo(fullName string) *Repo {
	owner, name, ok := strings.Cut(fullName, "/")
	if !ok || owner == "" || name == "" || strings.Contains(name, "/") {
		panic(fmt.Sprintf("ghfake: CreateRepo(%q): want owner/name", fullName))
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.repos[strings.ToLower(fullName)] != nil {
		panic(fmt.Sprintf("ghfake: CreateRepo(%q): already exists", fullName))
	}
	if f.users[strings.ToLower(owner)] == nil {
		f.ensureUser(owner).typ = "Organization"
	}
	s := &repoState{
		id: f.nextID(), owner: f.ensureUser(owner), name: name, fullName: owner + "/" + name,
		defaultBranch: "main", created: f.clock(), perms: map[string]string{}, git: newGitStore(),
		refs: map[string]string{}, assets: map[int64]*asset{},
	}
	f.repos[strings.ToLower(fullName)] = s
	r := &Repo{f: f, s: s}
	f.commitLocked(s, "main", f.ensureUser(owner), "Initial commit", map[string]string{"README.md": "# " + name + "\n"})
	return r
}

// Repo returns the handle of an existing repository, or nil.
func (f *Fake) Repo(fullName string) *Repo {
	f.mu.Lock()
	defer f.mu.Unlock()
	s := f.repo(fullName)
	if s == nil {
		return nil
	}
	return &Repo{f: f, s: s}
}

func (f *Fake) repo(fullName string) *repoState { return f.repos[strings.ToLower(fullName)] }

// FullName is "owner/name".
func (r *Repo) FullName() string { return r.s.fullName }

// Owner is the owning account's login.
func (r *Repo) Owner() string { return r.s.owner.login }

// Name is the repository name without its owner.
func (r *Repo) Name() string { return r.s.name }

// ID is the repository's database ID.
func (r *Repo) ID() int64 { return r.s.id }

// DefaultBranch names the default branch.
func (r *Repo) DefaultBranch() string {
	r.f.mu.Lock()
	defer r.f.mu.Unlock()
	return r.s.defaultBranch
}

// SetDefaultBranch makes branch (which must exist) the default branch.
func (r *Repo) SetDefaultBranch(branch string) {
	r.f.mu.Lock()
	defer r.f.mu.Unlock()
	if r.s.refs["refs/heads/"+branch] == "" {
		panic(fmt.Sprintf("ghfake: SetDefaultBranch(%q): no such branch", branch))
	}
	r.s.defaultBranch = branch
}

// File returns the content of path at the commit ref resolves to, and
// whether it exists — for asserting on what the code under test wrote.
func (r *Repo) File(ref, path string) (string, bool) {
	r.f.mu.Lock()
	defer r.f.mu.Unlock()
	sha := r.s.resolve(ref)
	if sha == "" {
		return "", false
	}
	blob, ok := r.s.git.commits[sha].files[cleanPath(path)]
	if !ok {
		return "", false
	}
	return string(r.s.git.blobs[blob]), true
}

// SetPrivate marks the repository private (or public).
func (r *Repo) SetPrivate(private bool) {
	r.f.mu.Lock()
	defer r.f.mu.Unlock()
	r.s.private = private
}

// Grant gives login a collaborator role: admin, maintain, write, triage or
// read ("" removes it), as collaborators/{user}/permission reports it.
func (r *Repo) Grant(login, role string) {
	r.f.mu.Lock()
	defer r.f.mu.Unlock()
	r.f.ensureUser(login)
	if role == "" {
		delete(r.s.perms, strings.ToLower(login))
		return
	}
	r.s.perms[strings.ToLower(login)] = role
}

// Commit adds a commit on branch (created from the default branch if new)
// with files changed (content Deleted removes a file, Symlink(target) makes
// a symbolic link, Executable(content) an executable file; any other
// content is a regular file), authored by the repository owner; it returns
// the new commit's SHA.
func (r *Repo) Commit(branch, message string, files map[string]string) string {
	return r.CommitBy(r.s.owner.login, branch, message, files)
}

// CommitBy is Commit authored and committed by login.
func (r *Repo) CommitBy(login, branch, message string, files map[string]string) string {
	defer r.f.flush()
	r.f.mu.Lock()
	defer r.f.mu.Unlock()
	return r.f.commitLocked(r.s, branch, r.f.ensureUser(login), message, files)
}

func (f *Fake) commitLocked(s *repoState, branch string, by *user, message string, files map[string]string) string {
	return f.commitAsLocked(s, branch, by, f.signature(by), message, files)
}

// commitAsLocked is commitLocked with the commit's author and committer
// set to sig, whoever pushes it.
func (f *Fake) commitAsLocked(s *repoState, branch string, by *user, sig Signature, message string, files map[string]string) string {
	ref := "refs/heads/" + branch
	parent := s.refs[ref]
	if parent == "" {
		parent = s.refs["refs/heads/"+s.defaultBranch]
	}
	next, modes := map[string]string{}, map[string]string{}
	var parents []string
	if parent != "" {
		parents = []string{parent}
		maps.Copy(next, s.git.commits[parent].files)
		maps.Copy(modes, s.git.commits[parent].modes)
	}
	for p, content := range files {
		p = cleanPath(p)
		delete(modes, p)
		if content == Deleted {
			delete(next, p)
			continue
		}
		mode, data := fileMode(content)
		next[p] = s.git.putBlob([]byte(data))
		if mode != modeFile {
			modes[p] = mode
		}
	}
	sha := s.git.putCommit(&commitObj{
		tree: s.git.treeFromFiles(next, modes), parents: parents, author: sig, committer: sig, message: message,
		files: next, modes: modes,
	})
	before := s.refs[ref]
	f.setRef(s, ref, sha)
	f.pushed(s, ref, before, sha, by)
	return sha
}

// signature is by's git identity (noreply e-mail) at the fake's time.
func (f *Fake) signature(by *user) Signature {
	email := fmt.Sprintf("%d+%s@users.noreply.github.com", by.id, by.login)
	return Signature{Name: by.login, Email: email, Date: f.clock()}
}

// setRef points ref at sha; callers hold mu.
func (f *Fake) setRef(s *repoState, ref, sha string) {
	s.refs[ref] = sha
	s.pushed = f.clock()
}

// resolve turns a SHA (full or an unambiguous prefix of 7+), a branch, a tag
// or a full ref into a commit SHA, peeling annotated tags; "" if unknown.
func (s *repoState) resolve(ref string) string {
	if ref == "" {
		ref = s.defaultBranch
	}
	for _, full := range []string{ref, "refs/heads/" + ref, "refs/tags/" + ref, "refs/" + ref} {
		if sha, ok := s.refs[full]; ok {
			return s.git.peel(sha)
		}
	}
	if s.git.commits[ref] != nil {
		return ref
	}
	if len(ref) >= 7 {
		var hits []string
		for sha := range s.git.commits {
			if strings.HasPrefix(sha, ref) {
				hits = append(hits, sha)
			}
		}
		if len(hits) == 1 {
			return hits[0]
		}
	}
	return ""
}

func (s *repoState) sortedRefs() []string {
	out := make([]string, 0, len(s.refs))
	for r := range s.refs {
		out = append(out, r)
	}
	sort.Strings(out)
	return out
}

// openIssues counts open issues and pull requests, as GitHub's
// open_issues_count does.
func (s *repoState) openIssues() int {
	n := 0
	for _, i := range s.issues {
		if i.state == "open" {
			n++
		}
	}
	return n
}

// sizeKB is the repository size as GitHub reports it: kilobytes of its
// objects (here, the blobs it holds).
func (s *repoState) sizeKB() int {
	n := 0
	for _, b := range s.git.blobs {
		n += len(b)
	}
	return (n + 1023) / 1024
}

func (f *Fake) repoJSON(s *repoState) obj {
	api := f.root() + "/repos/" + s.fullName
	html := "https://github.com/" + s.fullName
	vis := "public"
	if s.private {
		vis = "private"
	}
	o := obj{
		"id": s.id, "node_id": nodeID("Repository", s.id), "name": s.name, "full_name": s.fullName,
		"private": s.private, "visibility": vis, "owner": f.userJSON(s.owner), "html_url": html,
		"description": nil, "fork": false, "url": api, "default_branch": s.defaultBranch,
		"created_at": ts(s.created), "updated_at": ts(s.pushed), "pushed_at": ts(s.pushed),
		"git_url": "git://github.com/" + s.fullName + ".git", "ssh_url": "git@github.com:" + s.fullName + ".git",
		"clone_url": html + ".git", "svn_url": html, "homepage": nil, "size": s.sizeKB(), "language": nil,
		"archived": false, "disabled": false, "has_issues": true, "has_projects": true, "has_wiki": true,
		"has_pages": false, "has_downloads": true, "is_template": false, "topics": []string{},
		"forks_count": 0, "forks": 0, "stargazers_count": 0, "watchers_count": 0, "watchers": 0,
		"open_issues_count": s.openIssues(), "open_issues": s.openIssues(), "license": nil, "mirror_url": nil,
		"allow_forking": true, "web_commit_signoff_required": false, "custom_properties": obj{},
	}
	for _, k := range []string{"forks", "teams", "hooks", "events", "tags", "languages", "stargazers",
		"contributors", "subscribers", "subscription", "merges", "downloads", "deployments"} {
		o[k+"_url"] = api + "/" + k
	}
	for k, v := range map[string]string{
		"issue_events": "issues/events{/number}", "assignees": "assignees{/user}", "branches": "branches{/branch}",
		"blobs": "git/blobs{/sha}", "git_tags": "git/tags{/sha}", "git_refs": "git/refs{/sha}", "trees": "git/trees{/sha}",
		"statuses": "statuses/{sha}", "commits": "commits{/sha}", "git_commits": "git/commits{/sha}",
		"comments": "comments{/number}", "issue_comment": "issues/comments{/number}", "contents": "contents/{+path}",
		"compare": "compare/{base}...{head}", "archive": "{archive_format}{/ref}", "issues": "issues{/number}",
		"pulls": "pulls{/number}", "milestones": "milestones{/number}", "notifications": "notifications{?since,all,participating}",
		"labels": "labels{/name}", "releases": "releases{/id}", "keys": "keys{/key_id}", "collaborators": "collaborators{/collaborator}",
	} {
		o[k+"_url"] = api + "/" + v
	}
	return o
}
