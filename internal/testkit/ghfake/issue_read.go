package ghfake

// IssueView is an issue (or pull request) as a person reads it on GitHub:
// for scenarios (and aepgate-demo) that look at what an App wrote without
// spending API calls the request log would count.
type IssueView struct {
	Number int
	Title  string
	Body   string
	State  string // open, closed
	Author string
	// Labels are the label names, in the order they were added.
	Labels []string
	Pinned bool
	// URL is the issue's page on GitHub (html_url).
	URL string
}

// View returns the issue as it is now.
func (i *Issue) View() IssueView {
	i.r.f.mu.Lock()
	defer i.r.f.mu.Unlock()
	return issueView(i.r.s, i.r.s.issue(i.n))
}

// IssuesLabelled returns the repository's issues (pull requests left out)
// that carry label, oldest first.
func (r *Repo) IssuesLabelled(label string) []IssueView {
	r.f.mu.Lock()
	defer r.f.mu.Unlock()
	var out []IssueView
	for _, is := range r.s.issues {
		if is.pr != nil {
			continue
		}
		for _, l := range is.labels {
			if l == label {
				out = append(out, issueView(r.s, is))
				break
			}
		}
	}
	return out
}

// issueView copies is; callers hold mu.
func issueView(s *repoState, is *issue) IssueView {
	url := "https://github.com/" + s.fullName + "/issues/" + itoa(int64(is.number))
	if is.pr != nil {
		url = "https://github.com/" + s.fullName + "/pull/" + itoa(int64(is.number))
	}
	return IssueView{Number: is.number, Title: is.title, Body: is.body, State: is.state, Author: is.author.login,
		Labels: append([]string(nil), is.labels...), Pinned: is.pinned, URL: url}
}
