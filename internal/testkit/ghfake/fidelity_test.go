package ghfake_test

import (
	"encoding/json"
	"sort"
	"strings"
	"testing"

	"github.com/aepgate/aepgate/internal/testkit/ghfake"
	"github.com/google/go-github/v62/github"
)

// payloadOf decodes the last delivery of event.action.
func payloadOf(t *testing.T, f *ghfake.Fake, event, action string) map[string]any {
	t.Helper()
	ds := f.Deliveries()
	for i := len(ds) - 1; i >= 0; i-- {
		if ds[i].Event == event && ds[i].Action == action {
			var p map[string]any
			if err := json.Unmarshal(ds[i].Payload, &p); err != nil {
				t.Fatal(err)
			}
			return p
		}
	}
	var seen []string
	for _, d := range ds {
		seen = append(seen, d.Event+"."+d.Action)
	}
	t.Fatalf("no %s.%s delivery; saw %v", event, action, seen)
	return nil
}

func TestPREditEmitsPullRequestEdited(t *testing.T) {
	f, repo, app, c := installed(t)
	repo.Branch("feature", "main")
	repo.CommitBy("alice", "feature", "work", map[string]string{"a.txt": "a\n"})
	pr := repo.OpenPR("alice", "feature", "main", "Work", "old body")
	f.CollectWebhooks(secret, app)
	pr.Edit("alice", "new body")
	for _, d := range f.Deliveries() {
		if d.Event == "issues" {
			t.Errorf("editing a pull request emitted issues.%s", d.Action)
		}
	}
	p := payloadOf(t, f, "pull_request", "edited")
	if dig(p, "changes", "body", "from") != "old body" || dig(p, "pull_request", "body") != "new body" || dig(p, "number") != float64(pr.Number()) {
		t.Errorf("pull_request.edited = changes %v body %v", p["changes"], dig(p, "pull_request", "body"))
	}
	// Through REST: the pulls route and the issues route both edit a PR.
	if _, _, err := c.PullRequests.Edit(ctx, "acme", "widgets", pr.Number(), &github.PullRequest{Title: github.String("Work 2")}); err != nil {
		t.Fatal(err)
	}
	p = payloadOf(t, f, "pull_request", "edited")
	if dig(p, "changes", "title", "from") != "Work" || dig(p, "changes", "body") != nil {
		t.Errorf("title edit changes = %v", p["changes"])
	}
	if _, _, err := c.Issues.Edit(ctx, "acme", "widgets", pr.Number(), &github.IssueRequest{Body: github.String("third")}); err != nil {
		t.Fatal(err)
	}
	p = payloadOf(t, f, "pull_request", "edited")
	if dig(p, "changes", "body", "from") != "new body" {
		t.Errorf("issues-route edit of a PR: changes = %v", p["changes"])
	}
	for _, d := range f.Deliveries() {
		if d.Event == "issues" {
			t.Errorf("editing a pull request emitted issues.%s", d.Action)
		}
	}
	// An issue's title edit names the title in changes.
	is := repo.OpenIssue("alice", "T1", "b")
	if _, _, err := c.Issues.Edit(ctx, "acme", "widgets", is.Number(), &github.IssueRequest{Title: github.String("T2")}); err != nil {
		t.Fatal(err)
	}
	p = payloadOf(t, f, "issues", "edited")
	if dig(p, "changes", "title", "from") != "T1" || dig(p, "changes", "body") != nil {
		t.Errorf("issue title edit changes = %v", p["changes"])
	}
}

func TestGraphQLErrorTypeTopLevel(t *testing.T) {
	f, _, tok := gqlStory(t)
	got := post(t, f, tok, `{ repository(owner: "acme", name: "widgets") { issue(number: 99) { title } } }`, nil)
	e := dig(got, "errors", 0)
	if dig(e, "type") != "NOT_FOUND" || dig(e, "path") == nil || dig(e, "locations") == nil ||
		dig(e, "message") != "Could not resolve to an Issue with the number of 99." {
		t.Errorf("error = %v", e)
	}
}

func TestPushCommitsListFiles(t *testing.T) {
	f, repo, app, _ := installed(t)
	repo.Commit("main", "seed", map[string]string{"keep.txt": "k\n", "gone.txt": "g\n", "dir/mod.txt": "1\n"})
	f.CollectWebhooks(secret, app)
	repo.Commit("main", "change", map[string]string{"new.txt": "n\n", "gone.txt": ghfake.Deleted, "dir/mod.txt": "2\n"})
	p := payloadOf(t, f, "push", "")
	want := map[string][]string{"added": {"new.txt"}, "removed": {"gone.txt"}, "modified": {"dir/mod.txt"}}
	for _, c := range []any{dig(p, "commits", 0), dig(p, "head_commit")} {
		for k, w := range want {
			if got := strs(dig(c, k)); strings.Join(got, ",") != strings.Join(w, ",") {
				t.Errorf("%s = %v, want %v (commit %v)", k, got, w, c)
			}
		}
		if dig(c, "distinct") != true || dig(c, "url") == nil || dig(c, "author", "username") != "acme" {
			t.Errorf("commit = %v", c)
		}
	}
}

func strs(v any) []string {
	l, ok := v.([]any)
	if !ok {
		return []string{"<not a list>"}
	}
	var out []string
	for _, x := range l {
		out = append(out, x.(string))
	}
	sort.Strings(out)
	return out
}

func TestPRCommitsSurviveBasePush(t *testing.T) {
	f, repo, tok := gqlStory(t)
	pr := repo.PR(3)
	head := pr.Head()
	q := `{ repository(owner: "acme", name: "widgets") { pullRequest(number: 3) { commits(last: 1) { totalCount nodes { commit { oid } } } } } }`
	last := func() (any, any) {
		got := post(t, f, tok, q, nil)
		if errs := got["errors"]; errs != nil {
			t.Fatalf("errors: %v", errs)
		}
		c := dig(got, "data", "repository", "pullRequest", "commits")
		return dig(c, "nodes", 0, "commit", "oid"), dig(c, "totalCount")
	}
	if oid, n := last(); oid != head || n != float64(1) {
		t.Fatalf("before: last commit %v of %v, want %s of 1", oid, n, head)
	}
	repo.Commit("main", "other work", map[string]string{"other.txt": "o\n"})
	if oid, n := last(); oid != head || n != float64(1) {
		t.Errorf("after a push to main: last commit %v of %v, want %s of 1", oid, n, head)
	}
	// The PR's head pushed to main too (a fast-forward outside the PR).
	c := client(t, f, tok)
	if _, _, err := c.Git.UpdateRef(ctx, "acme", "widgets", &github.Reference{Ref: github.String("refs/heads/main"), Object: &github.GitObject{SHA: github.String(head)}}, true); err != nil {
		t.Fatal(err)
	}
	if oid, _ := last(); oid != head {
		t.Errorf("after main moved to include the head: last commit %v, want %s", oid, head)
	}
}

func TestIssueMethodsOnPREmitPullRequest(t *testing.T) {
	f, repo, app, _ := installed(t)
	repo.Branch("feature", "main")
	repo.CommitBy("alice", "feature", "work", map[string]string{"a.txt": "a\n"})
	pr := repo.OpenPR("alice", "feature", "main", "Work", "body")
	ms := repo.CreateMilestone("M", "")
	f.CollectWebhooks(secret, app)
	pr.EditTitle("alice", "Work 2")
	pr.AddLabels("alice", "product")
	pr.SetMilestone("alice", ms)
	pr.Close("alice")
	pr.Reopen("alice")
	var got []string
	for _, d := range f.Deliveries() {
		got = append(got, d.Event+"."+d.Action)
	}
	want := "pull_request.edited,pull_request.labeled,pull_request.milestoned,pull_request.closed,pull_request.reopened"
	if strings.Join(got, ",") != want {
		t.Errorf("deliveries = %v, want %s", got, want)
	}
	if p := payloadOf(t, f, "pull_request", "edited"); dig(p, "changes", "title", "from") != "Work" {
		t.Errorf("changes = %v", p["changes"])
	}
}
