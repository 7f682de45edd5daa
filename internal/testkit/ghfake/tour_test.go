package ghfake_test

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/aepgate/aepgate/internal/testkit/ghfake"
	"github.com/google/go-github/v62/github"
)

// must fails the test on err, naming the step.
func must(t *testing.T, step string, err error) {
	t.Helper()
	if err != nil {
		t.Fatalf("%s: %v", step, err)
	}
}

func TestIssueRoutesTour(t *testing.T) {
	f, repo, _, c := installed(t)
	f.CollectWebhooks(secret, nil)
	ms, _, err := c.Issues.CreateMilestone(ctx, "acme", "widgets", &github.Milestone{Title: github.String("M1")})
	must(t, "CreateMilestone", err)
	_, _, err = c.Issues.CreateLabel(ctx, "acme", "widgets", &github.Label{Name: github.String("product"), Color: github.String("00ff00")})
	must(t, "CreateLabel", err)
	if _, _, err := c.Issues.CreateLabel(ctx, "acme", "widgets", &github.Label{Name: github.String("Product")}); status(err) != 422 {
		t.Errorf("duplicate label: %v", err)
	}
	is, _, err := c.Issues.Create(ctx, "acme", "widgets", &github.IssueRequest{Title: github.String("T"), Body: github.String("B"), Milestone: ms.Number, Labels: &[]string{"product"}})
	must(t, "Create", err)
	if is.GetUser().GetLogin() != "app-42[bot]" || is.GetMilestone().GetNumber() != ms.GetNumber() {
		t.Errorf("created issue = %+v", is)
	}
	labels, _, err := c.Issues.AddLabelsToIssue(ctx, "acme", "widgets", is.GetNumber(), []string{"risk:low"})
	must(t, "AddLabelsToIssue", err)
	if len(labels) != 2 {
		t.Errorf("labels = %d, want 2", len(labels))
	}
	_, err = c.Issues.RemoveLabelForIssue(ctx, "acme", "widgets", is.GetNumber(), "product")
	must(t, "RemoveLabelForIssue", err)
	all, _, err := c.Issues.ListLabels(ctx, "acme", "widgets", nil)
	must(t, "ListLabels", err)
	if len(all) != 2 {
		t.Errorf("repo labels = %d, want 2", len(all))
	}
	closed, _, err := c.Issues.Edit(ctx, "acme", "widgets", is.GetNumber(), &github.IssueRequest{State: github.String("closed"), StateReason: github.String("not_planned")})
	must(t, "Edit close", err)
	if closed.GetState() != "closed" || closed.GetStateReason() != "not_planned" {
		t.Errorf("closed = %s %s", closed.GetState(), closed.GetStateReason())
	}
	open, _, err := c.Issues.Edit(ctx, "acme", "widgets", is.GetNumber(), &github.IssueRequest{State: github.String("open"), Body: github.String("B2")})
	must(t, "Edit reopen", err)
	if open.GetState() != "open" || open.GetBody() != "B2" {
		t.Errorf("reopened = %s %q", open.GetState(), open.GetBody())
	}
	_, _, err = c.Issues.EditMilestone(ctx, "acme", "widgets", ms.GetNumber(), &github.Milestone{State: github.String("closed")})
	must(t, "EditMilestone", err)
	open2, _, _ := c.Issues.ListMilestones(ctx, "acme", "widgets", nil)
	closed2, _, _ := c.Issues.ListMilestones(ctx, "acme", "widgets", &github.MilestoneListOptions{State: "closed"})
	if len(open2) != 0 || len(closed2) != 1 {
		t.Errorf("milestones open %d closed %d", len(open2), len(closed2))
	}
	cm, _, err := c.Issues.CreateComment(ctx, "acme", "widgets", is.GetNumber(), &github.IssueComment{Body: github.String("x")})
	must(t, "CreateComment", err)
	_, _, err = c.Issues.EditComment(ctx, "acme", "widgets", cm.GetID(), &github.IssueComment{Body: github.String("y")})
	must(t, "EditComment", err)
	repoComments, _, err := c.Issues.ListComments(ctx, "acme", "widgets", 0, nil)
	must(t, "ListComments repo-wide", err)
	if len(repoComments) != 1 || repoComments[0].GetBody() != "y" {
		t.Errorf("repo comments = %+v", repoComments)
	}
	_, err = c.Issues.DeleteComment(ctx, "acme", "widgets", cm.GetID())
	must(t, "DeleteComment", err)
	r, _, err := c.Reactions.CreateIssueReaction(ctx, "acme", "widgets", is.GetNumber(), "+1")
	must(t, "CreateIssueReaction", err)
	rs, _, err := c.Reactions.ListIssueReactions(ctx, "acme", "widgets", is.GetNumber(), nil)
	must(t, "ListIssueReactions", err)
	if len(rs) != 1 {
		t.Errorf("reactions = %d", len(rs))
	}
	_, err = c.Reactions.DeleteIssueReaction(ctx, "acme", "widgets", is.GetNumber(), r.GetID())
	must(t, "DeleteIssueReaction", err)
	events := map[string]bool{}
	for _, d := range f.Deliveries() {
		events[d.Event+"."+d.Action] = true
	}
	for _, want := range []string{"milestone.created", "label.created", "issues.opened", "issues.labeled", "issues.unlabeled",
		"issues.closed", "issues.reopened", "issues.edited", "milestone.closed", "issue_comment.deleted"} {
		if !events[want] {
			t.Errorf("no %s delivery", want)
		}
	}
	_ = repo
}

func TestPullRoutesTour(t *testing.T) {
	_, repo, _, c := installed(t)
	repo.Grant("auditor", "write")
	repo.Branch("feat", "main")
	repo.CommitBy("alice", "feat", "one", map[string]string{"x/a.txt": "a\n"})
	pr, _, err := c.PullRequests.Create(ctx, "acme", "widgets", &github.NewPullRequest{Title: github.String("P"), Head: github.String("acme:feat"), Base: github.String("main"), Draft: github.Bool(true)})
	must(t, "Create", err)
	if _, _, err := c.PullRequests.Create(ctx, "acme", "widgets", &github.NewPullRequest{Title: github.String("P"), Head: github.String("feat"), Base: github.String("main")}); status(err) != 422 {
		t.Errorf("duplicate PR: %v", err)
	}
	if _, _, err := c.PullRequests.Merge(ctx, "acme", "widgets", pr.GetNumber(), "", nil); status(err) != 405 {
		t.Errorf("merging a draft: %v", err)
	}
	list, _, err := c.PullRequests.List(ctx, "acme", "widgets", &github.PullRequestListOptions{Head: "acme:feat"})
	must(t, "List", err)
	if len(list) != 1 || !list[0].GetDraft() {
		t.Errorf("list = %+v", list)
	}
	files, _, err := c.PullRequests.ListFiles(ctx, "acme", "widgets", pr.GetNumber(), nil)
	must(t, "ListFiles", err)
	if len(files) != 1 || files[0].GetFilename() != "x/a.txt" {
		t.Errorf("files = %+v", files)
	}
	_, _, err = c.PullRequests.Edit(ctx, "acme", "widgets", pr.GetNumber(), &github.PullRequest{Title: github.String("P2")})
	must(t, "Edit", err)
	_, _, err = c.PullRequests.RequestReviewers(ctx, "acme", "widgets", pr.GetNumber(), github.ReviewersRequest{Reviewers: []string{"auditor"}})
	must(t, "RequestReviewers", err)
	reqd, _, err := c.PullRequests.ListReviewers(ctx, "acme", "widgets", pr.GetNumber(), nil)
	must(t, "ListReviewers", err)
	if len(reqd.Users) != 1 {
		t.Errorf("requested = %+v", reqd)
	}
	_, err = c.PullRequests.RemoveReviewers(ctx, "acme", "widgets", pr.GetNumber(), github.ReviewersRequest{Reviewers: []string{"auditor"}})
	must(t, "RemoveReviewers", err)
	rv, _, err := c.PullRequests.CreateReview(ctx, "acme", "widgets", pr.GetNumber(), &github.PullRequestReviewRequest{Event: github.String("COMMENT"), Body: github.String("note")})
	must(t, "CreateReview", err)
	got, _, err := c.PullRequests.GetReview(ctx, "acme", "widgets", pr.GetNumber(), rv.GetID())
	must(t, "GetReview", err)
	if got.GetState() != "COMMENTED" || got.GetCommitID() != pr.GetHead().GetSHA() {
		t.Errorf("review = %s at %s", got.GetState(), got.GetCommitID())
	}
	_, _, err = c.PullRequests.DismissReview(ctx, "acme", "widgets", pr.GetNumber(), rv.GetID(), &github.PullRequestReviewDismissalRequest{Message: github.String("stale")})
	must(t, "DismissReview", err)
	repo.PR(pr.GetNumber()).MarkReady("alice")
	merged, _, _ := c.PullRequests.IsMerged(ctx, "acme", "widgets", pr.GetNumber())
	if merged {
		t.Errorf("IsMerged before merge")
	}
	res, _, err := c.PullRequests.Merge(ctx, "acme", "widgets", pr.GetNumber(), "custom message", &github.PullRequestOptions{MergeMethod: "rebase"})
	must(t, "Merge rebase", err)
	if merged, _, _ := c.PullRequests.IsMerged(ctx, "acme", "widgets", pr.GetNumber()); !merged {
		t.Errorf("IsMerged after merge = false")
	}
	prs, _, err := c.PullRequests.ListPullRequestsWithCommit(ctx, "acme", "widgets", res.GetSHA(), nil)
	must(t, "ListPullRequestsWithCommit", err)
	if len(prs) != 1 {
		t.Errorf("PRs with the merge commit = %d, want 1", len(prs))
	}
}

func TestRepoRoutesTour(t *testing.T) {
	f, repo, app, c := installed(t)
	repo.Commit("main", "docs", map[string]string{"docs/a.md": "a\n"})
	repo.Commit("main", "code", map[string]string{"main.go": "package main\n"})
	repo.Tag("v1", "main", "v1")
	branches, _, err := c.Repositories.ListBranches(ctx, "acme", "widgets", nil)
	must(t, "ListBranches", err)
	tags, _, err := c.Repositories.ListTags(ctx, "acme", "widgets", nil)
	must(t, "ListTags", err)
	if len(branches) != 1 || len(tags) != 1 || tags[0].GetCommit().GetSHA() != repo.Head("main") {
		t.Errorf("branches %d tags %+v", len(branches), tags)
	}
	b, _, err := c.Repositories.GetBranch(ctx, "acme", "widgets", "main", 0)
	must(t, "GetBranch", err)
	if b.GetCommit().GetSHA() != repo.Head("main") {
		t.Errorf("branch head = %s", b.GetCommit().GetSHA())
	}
	commits, _, err := c.Repositories.ListCommits(ctx, "acme", "widgets", &github.CommitsListOptions{Path: "docs"})
	must(t, "ListCommits", err)
	if len(commits) != 1 || commits[0].GetCommit().GetMessage() != "docs" {
		t.Errorf("commits touching docs = %+v", commits)
	}
	fc, _, err := c.Repositories.CreateFile(ctx, "acme", "widgets", "new.txt", &github.RepositoryContentFileOptions{Message: github.String("add"), Content: []byte("n\n")})
	must(t, "CreateFile", err)
	_, _, err = c.Repositories.UpdateFile(ctx, "acme", "widgets", "new.txt", &github.RepositoryContentFileOptions{Message: github.String("edit"), Content: []byte("m\n"), SHA: github.String("wrong")})
	if status(err) != http.StatusConflict {
		t.Errorf("update with a stale sha: %v", err)
	}
	_, _, err = c.Repositories.UpdateFile(ctx, "acme", "widgets", "new.txt", &github.RepositoryContentFileOptions{Message: github.String("edit"), Content: []byte("m\n"), SHA: fc.Content.SHA})
	must(t, "UpdateFile", err)
	file, _, _, err := c.Repositories.GetContents(ctx, "acme", "widgets", "new.txt", nil)
	must(t, "GetContents", err)
	resp, err := http.Get(file.GetDownloadURL())
	must(t, "download_url", err)
	raw, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(raw) != "m\n" {
		t.Errorf("download_url served %q", raw)
	}
	tag, _, err := c.Git.CreateTag(ctx, "acme", "widgets", &github.Tag{Tag: github.String("v2"), Message: github.String("v2"),
		Object: &github.GitObject{Type: github.String("commit"), SHA: github.String(repo.Head("main"))}})
	must(t, "CreateTag", err)
	if tag.GetObject().GetSHA() != repo.Head("main") {
		t.Errorf("tag object = %s", tag.GetObject().GetSHA())
	}
	ac := client(t, f, app.JWT())
	a, _, err := ac.Apps.Get(ctx, "")
	must(t, "Apps.Get", err)
	insts, _, err := ac.Apps.ListInstallations(ctx, nil)
	must(t, "ListInstallations", err)
	repos, _, err := c.Apps.ListRepos(ctx, nil)
	must(t, "ListRepos", err)
	if a.GetID() != 42 || len(insts) != 1 || repos.GetTotalCount() != 1 {
		t.Errorf("app %d installations %d repos %d", a.GetID(), len(insts), repos.GetTotalCount())
	}
	if !strings.HasPrefix(string(ghfake.KeyPEM(testKey())), "-----BEGIN RSA PRIVATE KEY-----") {
		t.Errorf("KeyPEM is not a PKCS#1 PEM")
	}
	if f.Installation(insts[0].GetID()) == nil {
		t.Errorf("f.Installation(%d) = nil", insts[0].GetID())
	}
}

func TestChecksAndRunsTour(t *testing.T) {
	f, repo, _, c := installed(t)
	f.CollectWebhooks(secret, nil)
	sha := repo.Head("main")
	run, _, err := c.Checks.CreateCheckRun(ctx, "acme", "widgets", github.CreateCheckRunOptions{Name: "a", HeadSHA: sha})
	must(t, "CreateCheckRun", err)
	suite, _, err := c.Checks.GetCheckSuite(ctx, "acme", "widgets", run.GetCheckSuite().GetID())
	must(t, "GetCheckSuite", err)
	if suite.GetStatus() != "queued" || suite.GetHeadBranch() != "main" {
		t.Errorf("suite = %s on %s", suite.GetStatus(), suite.GetHeadBranch())
	}
	runs, _, err := c.Checks.ListCheckRunsCheckSuite(ctx, "acme", "widgets", suite.GetID(), nil)
	must(t, "ListCheckRunsCheckSuite", err)
	if runs.GetTotal() != 1 {
		t.Errorf("suite runs = %d", runs.GetTotal())
	}
	_, err = c.Checks.ReRequestCheckRun(ctx, "acme", "widgets", run.GetID())
	must(t, "ReRequestCheckRun", err)
	_, err = c.Checks.ReRequestCheckSuite(ctx, "acme", "widgets", suite.GetID())
	must(t, "ReRequestCheckSuite", err)
	wr := repo.StartWorkflowRun(ghfake.RunOptions{Name: "ci"})
	wr.Complete("cancelled")
	byWorkflow, _, err := c.Actions.ListWorkflowRunsByFileName(ctx, "acme", "widgets", "ci.yml", nil)
	must(t, "ListWorkflowRunsByFileName", err)
	if byWorkflow.GetTotalCount() != 1 || byWorkflow.WorkflowRuns[0].GetConclusion() != "cancelled" {
		t.Errorf("runs by workflow = %+v", byWorkflow)
	}
	var seen []string
	for _, d := range f.Deliveries() {
		seen = append(seen, d.Event+"."+d.Action)
	}
	joined := strings.Join(seen, " ")
	for _, want := range []string{"check_run.rerequested", "check_suite.rerequested", "workflow_run.in_progress", "workflow_run.completed"} {
		if !strings.Contains(joined, want) {
			t.Errorf("no %s in %s", want, joined)
		}
	}
}

func TestReleaseRoutesTour(t *testing.T) {
	_, repo, _, c := installed(t)
	rel := repo.PublishRelease("v1", ghfake.ReleaseOptions{Prerelease: true, Assets: map[string][]byte{"a": []byte("a"), "b": []byte("b")}})
	if _, _, err := c.Repositories.GetLatestRelease(ctx, "acme", "widgets"); status(err) != 404 {
		t.Errorf("latest with only a prerelease: %v", err)
	}
	assets, _, err := c.Repositories.ListReleaseAssets(ctx, "acme", "widgets", rel.ID(), nil)
	must(t, "ListReleaseAssets", err)
	a, _, err := c.Repositories.EditReleaseAsset(ctx, "acme", "widgets", assets[0].GetID(), &github.ReleaseAsset{Label: github.String("A")})
	must(t, "EditReleaseAsset", err)
	if a.GetLabel() != "A" {
		t.Errorf("label = %q", a.GetLabel())
	}
	_, err = c.Repositories.DeleteReleaseAsset(ctx, "acme", "widgets", assets[1].GetID())
	must(t, "DeleteReleaseAsset", err)
	got, _, _ := c.Repositories.GetRelease(ctx, "acme", "widgets", rel.ID())
	if len(got.Assets) != 1 {
		t.Errorf("assets after delete = %d", len(got.Assets))
	}
	_, err = c.Repositories.DeleteRelease(ctx, "acme", "widgets", rel.ID())
	must(t, "DeleteRelease", err)
	if _, _, err := c.Repositories.GetRelease(ctx, "acme", "widgets", rel.ID()); status(err) != 404 {
		t.Errorf("deleted release: %v", err)
	}
}
