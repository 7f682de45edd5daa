package ghfake

import (
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strconv"
)

// threeWay merges head's changes since mb onto base (flat path → blob
// maps); conflicts lists paths both sides changed differently.
func threeWay(mb, base, head map[string]string) (map[string]string, []string) {
	out := map[string]string{}
	for p, sha := range base {
		out[p] = sha
	}
	var conflicts []string
	for _, p := range unionKeys(mb, head) {
		if head[p] == mb[p] {
			continue
		}
		if base[p] != mb[p] && base[p] != head[p] {
			conflicts = append(conflicts, p)
			continue
		}
		if head[p] == "" {
			delete(out, p)
		} else {
			out[p] = head[p]
		}
	}
	return out, conflicts
}

// mergeTrees merges head's changes since mb onto base, file contents and
// modes alike; conflicts lists paths both sides changed differently.
func mergeTrees(mb, base, head *commitObj) (files, modes map[string]string, conflicts []string) {
	files, conflicts = threeWay(mb.files, base.files, head.files)
	modes, modeConflicts := threeWay(mb.modes, base.modes, head.modes)
	for p := range modes {
		if _, ok := files[p]; !ok {
			delete(modes, p)
		}
	}
	for _, p := range modeConflicts {
		if !slices.Contains(conflicts, p) {
			conflicts = append(conflicts, p)
		}
	}
	return files, modes, conflicts
}

func unionKeys(a, b map[string]string) []string {
	m := map[string]bool{}
	for k := range a {
		m[k] = true
	}
	for k := range b {
		m[k] = true
	}
	return sortedKeys(m)
}

// mergeable reports whether the open pull request merges cleanly.
func (s *repoState) mergeable(p *pull) bool {
	g := s.git
	base := s.baseHead(p)
	mb := g.mergeBase(base, p.headSHA)
	if mb == "" {
		return false
	}
	_, _, conflicts := mergeTrees(g.commits[mb], g.commits[base], g.commits[p.headSHA])
	return len(conflicts) == 0
}

// prCommits lists a pull request's commits, oldest first: those reachable
// from its head and not from the merge base with its base as it was when
// the head last moved (GitHub computes the list on push, so later pushes to
// the base do not take commits away). The head commit is always last.
func (s *repoState) prCommits(p *pull) []*commitObj {
	g := s.git
	head := g.commits[p.headSHA]
	if head == nil {
		return nil
	}
	for _, base := range []string{p.baseSHA, s.baseHead(p)} {
		if cs := g.between(g.mergeBase(base, p.headSHA), p.headSHA); len(cs) > 0 && cs[len(cs)-1] == head {
			return cs
		}
	}
	return []*commitObj{head}
}

// baseHead is the commit an open pull request would merge into now.
func (s *repoState) baseHead(p *pull) string {
	if sha := s.refs["refs/heads/"+p.baseRef]; sha != "" && !p.merged {
		return sha
	}
	return p.baseSHA
}

// merge merges a pull request as GitHub does: a merge commit (parents: base,
// head), a squash commit (parent: base) or the head's commits replayed on
// base; then the base branch moves, the pull request closes as merged and
// issues it closes (closing keywords, default branch only) close.
// expectSHA, when set, must equal the head (else 409).
func (f *Fake) merge(s *repoState, is *issue, by *user, method MergeMethod, expectSHA, message string) (string, error) {
	p := is.pr
	switch {
	case is.state != "open":
		return "", &mergeError{http.StatusMethodNotAllowed, "Pull Request is not mergeable"}
	case p.draft:
		return "", &mergeError{http.StatusMethodNotAllowed, "Pull Request is still a draft"}
	case expectSHA != "" && expectSHA != p.headSHA:
		return "", &mergeError{http.StatusConflict, "Head branch was modified. Review and try the merge again."}
	}
	p.baseSHA = s.refs["refs/heads/"+p.baseRef]
	g := s.git
	mb := g.mergeBase(p.baseSHA, p.headSHA)
	files, modes, conflicts := mergeTrees(g.commits[mb], g.commits[p.baseSHA], g.commits[p.headSHA])
	if len(conflicts) > 0 {
		return "", &mergeError{http.StatusMethodNotAllowed, "Pull Request is not mergeable"}
	}
	web := webFlow
	web.Date = f.clock()
	var sha string
	switch method {
	case MergeCommit, "":
		msg := fmt.Sprintf("Merge pull request #%d from %s/%s\n\n%s", is.number, s.owner.login, p.headRef, is.title)
		sha = g.putCommit(&commitObj{tree: g.treeFromFiles(files, modes), parents: []string{p.baseSHA, p.headSHA},
			author: f.signature(by), committer: web, message: pick(message, msg), files: files, modes: modes})
	case Squash:
		msg := fmt.Sprintf("%s (#%d)\n", is.title, is.number)
		for _, c := range g.between(mb, p.headSHA) {
			msg += "\n* " + c.message + "\n"
		}
		sha = g.putCommit(&commitObj{tree: g.treeFromFiles(files, modes), parents: []string{p.baseSHA},
			author: f.signature(is.author), committer: web, message: pick(message, msg), files: files, modes: modes})
	case Rebase:
		var err error
		if sha, err = f.replay(s, mb, p, web); err != nil {
			return "", err
		}
	default:
		return "", &mergeError{http.StatusUnprocessableEntity, "merge_method must be merge, squash or rebase"}
	}
	before := p.baseSHA
	f.setRef(s, "refs/heads/"+p.baseRef, sha)
	p.merged, p.mergedAt, p.mergedBy, p.mergeSHA = true, f.clock(), by, sha
	f.pushed(s, "refs/heads/"+p.baseRef, before, sha, by)
	f.closeIssue(s, is, by, "")
	f.emitPull(s, is, "closed", by, nil)
	if p.baseRef == s.defaultBranch {
		for _, n := range closingRefs(is.body) {
			if target := s.issue(n); target != nil && target.pr == nil {
				f.closeIssue(s, target, by, "completed")
			}
		}
	}
	return sha, nil
}

func pick(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// replay rebases the head's commits onto the base, keeping authors.
func (f *Fake) replay(s *repoState, mb string, p *pull, web Signature) (string, error) {
	g := s.git
	cur := p.baseSHA
	for _, c := range g.between(mb, p.headSHA) {
		if len(c.parents) != 1 {
			return "", &mergeError{http.StatusMethodNotAllowed, "This branch can't be rebased"}
		}
		files, modes, conflicts := mergeTrees(g.commits[c.parents[0]], g.commits[cur], c)
		if len(conflicts) > 0 {
			return "", &mergeError{http.StatusMethodNotAllowed, "This branch can't be rebased"}
		}
		cur = g.putCommit(&commitObj{tree: g.treeFromFiles(files, modes), parents: []string{cur}, author: c.author,
			committer: web, message: c.message, files: files, modes: modes})
	}
	return cur, nil
}

var closingRE = regexp.MustCompile(`(?i)\b(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?)\s*:?\s+#(\d+)\b`)

// closingRefs lists the issue numbers a body closes with GitHub's keywords.
func closingRefs(body string) []int {
	var out []int
	for _, m := range closingRE.FindAllStringSubmatch(body, -1) {
		if n, err := strconv.Atoi(m[1]); err == nil {
			out = append(out, n)
		}
	}
	return out
}

// synchronize moves open pull requests whose head is branch to sha and
// emits pull_request.synchronize; callers hold mu.
func (f *Fake) synchronize(s *repoState, branch, before, sha string, by *user) {
	for _, is := range s.issues {
		p := is.pr
		if p == nil || is.state != "open" || p.headRef != branch || p.headSHA == sha {
			continue
		}
		old := p.headSHA
		p.headSHA = sha
		p.baseSHA = s.refs["refs/heads/"+p.baseRef]
		is.updated = f.clock()
		if s.git.commits[old] != nil && !s.git.ancestors(sha)[old] {
			is.forcePushes = append(is.forcePushes, &forcePush{id: f.nextID(), before: old, after: sha, actor: by, at: is.updated})
		}
		s.headMoved(is, by)
		f.emitPull(s, is, "synchronize", by, obj{"before": before, "after": sha})
	}
}
