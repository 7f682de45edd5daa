package ghfake

func (f *Fake) branchJSON(s *repoState, ref, sha string) obj {
	return obj{"label": s.owner.login + ":" + ref, "ref": ref, "sha": sha, "user": f.userJSON(s.owner), "repo": f.repoJSON(s)}
}

func (f *Fake) pullJSON(s *repoState, i *issue) obj {
	p := i.pr
	num := itoa(int64(i.number))
	api := f.api(s) + "/pulls/" + num
	html := "https://github.com/" + s.fullName + "/pull/" + num
	base := f.issueJSON(s, i)
	reviewers := []any{}
	for _, u := range p.requested {
		reviewers = append(reviewers, f.userJSON(u))
	}
	state := "open"
	if i.state == "closed" {
		state = "closed"
	}
	var mergeable any = nil
	mstate := "unknown"
	if state == "open" {
		m := s.mergeable(p)
		mergeable, mstate = m, map[bool]string{true: "clean", false: "dirty"}[m]
		if p.draft {
			mstate = "draft"
		}
	}
	commits := s.prCommits(p)
	files, add, del := f.prFiles(s, p)
	var mergedBy any
	if p.merged {
		mergedBy = f.userJSON(p.mergedBy)
	}
	return obj{
		"url": api, "id": i.id, "node_id": nodeID("PullRequest", i.id), "html_url": html,
		"diff_url": html + ".diff", "patch_url": html + ".patch", "issue_url": f.api(s) + "/issues/" + num,
		"number": i.number, "state": state, "locked": i.locked, "title": i.title, "user": base["user"],
		"body": base["body"], "labels": base["labels"], "milestone": base["milestone"], "active_lock_reason": nil,
		"created_at": ts(i.created), "updated_at": ts(i.updated), "closed_at": ts(i.closed),
		"merged_at": ts(p.mergedAt), "merge_commit_sha": nilIfEmpty(p.mergeSHA), "assignee": base["assignee"],
		"assignees": base["assignees"], "requested_reviewers": reviewers, "requested_teams": []any{},
		"head": f.branchJSON(s, p.headRef, p.headSHA), "base": f.branchJSON(s, p.baseRef, p.baseSHA),
		"author_association": base["author_association"], "auto_merge": nil, "draft": p.draft,
		"merged": p.merged, "mergeable": mergeable, "rebaseable": mergeable, "mergeable_state": mstate,
		"merged_by": mergedBy, "comments": len(i.comments), "review_comments": 0, "maintainer_can_modify": false,
		"commits": len(commits), "additions": add, "deletions": del, "changed_files": len(files),
		"commits_url": api + "/commits", "review_comments_url": api + "/comments",
		"review_comment_url": f.api(s) + "/pulls/comments{/number}", "comments_url": f.api(s) + "/issues/" + num + "/comments",
		"statuses_url": f.api(s) + "/statuses/" + p.headSHA,
		"_links": obj{"self": obj{"href": api}, "html": obj{"href": html}, "issue": obj{"href": f.api(s) + "/issues/" + num},
			"comments": obj{"href": f.api(s) + "/issues/" + num + "/comments"}, "review_comments": obj{"href": api + "/comments"},
			"review_comment": obj{"href": f.api(s) + "/pulls/comments{/number}"}, "commits": obj{"href": api + "/commits"},
			"statuses": obj{"href": f.api(s) + "/statuses/" + p.headSHA}},
	}
}

func (f *Fake) reviewJSON(s *repoState, i *issue, r *review) obj {
	html := "https://github.com/" + s.fullName + "/pull/" + itoa(int64(i.number)) + "#pullrequestreview-" + itoa(r.id)
	return obj{
		"id": r.id, "node_id": nodeID("PullRequestReview", r.id), "user": f.userJSON(r.user), "body": r.body,
		"state": r.state, "html_url": html, "pull_request_url": f.api(s) + "/pulls/" + itoa(int64(i.number)),
		"author_association": f.association(s, r.user), "submitted_at": ts(r.submitted), "commit_id": r.commitID,
		"_links": obj{"html": obj{"href": html}, "pull_request": obj{"href": f.api(s) + "/pulls/" + itoa(int64(i.number))}},
	}
}

// emitPull sends a pull_request event (extra merged into the payload).
func (f *Fake) emitPull(s *repoState, i *issue, action string, by *user, extra obj) {
	if !f.hooks.on {
		return
	}
	p := obj{"number": i.number, "pull_request": f.pullJSON(s, i)}
	for k, v := range extra {
		p[k] = v
	}
	f.emit(s, "pull_request", action, by, p)
}

// prRefsForSHA lists the open pull requests whose head is sha, as the
// minimal objects check runs and suites carry.
func (f *Fake) prRefsForSHA(s *repoState, sha string) []any {
	out := []any{}
	for _, i := range s.issues {
		if i.pr == nil || i.pr.headSHA != sha || i.state != "open" {
			continue
		}
		ref := func(name, sha string) obj {
			return obj{"ref": name, "sha": sha, "repo": obj{"id": s.id, "url": f.api(s), "name": s.name}}
		}
		out = append(out, obj{"url": f.api(s) + "/pulls/" + itoa(int64(i.number)), "id": i.id, "number": i.number,
			"head": ref(i.pr.headRef, i.pr.headSHA), "base": ref(i.pr.baseRef, i.pr.baseSHA)})
	}
	return out
}

// prFiles is the pull request's changed files (REST's …/files entries)
// against the merge base, with their added and deleted line totals.
func (f *Fake) prFiles(s *repoState, p *pull) (files []any, add, del int) {
	mb := s.git.mergeBase(s.baseHead(p), p.headSHA)
	if mb == "" {
		return nil, 0, 0
	}
	return f.diffFiles(s, s.git.commits[mb].files, s.git.commits[p.headSHA].files)
}
