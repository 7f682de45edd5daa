package ghfake_test

import (
	"testing"
	"time"

	"github.com/aepgate/aepgate/internal/testkit/ghfake"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-github/v62/github"
)

// snapshotQuery is the query internal/gh sends to build one pull-request
// snapshot for the App; the fake must resolve every field of it.
const snapshotQuery = `query($owner: String!, $name: String!) { repository(owner: $owner, name: $name) {
  nameWithOwner
  defaultBranchRef { name target { ... on Commit { oid file(path: ".github/aepgate.yml") { object { ... on Blob { text isTruncated } } } } } }
  pullRequest(number: 3) {
    number body state headRefOid baseRefName createdAt author { __typename login }
    commits(last: 100) { totalCount nodes { commit { oid author { name email user { login } } committer { name email user { login } } } } }
    files(first: 100) { totalCount nodes { path changeType } }
    comments(first: 100) { totalCount nodes { databaseId url body createdAt updatedAt lastEditedAt author { __typename login } } }
    reviews(first: 100) { totalCount nodes { databaseId url body state createdAt submittedAt updatedAt lastEditedAt author { __typename login } commit { oid } } }
    reviewRequests(first: 50) { nodes { requestedReviewer { __typename ... on User { login } } } }
    headCommit: commits(last: 1) { nodes { commit { oid checkSuites(first: 50) { nodes { app { databaseId slug } workflowRun { databaseId runNumber event url workflow { name } } checkRuns(first: 50) { nodes { databaseId name status conclusion title summary text externalId detailsUrl } } } } } } }
  }
  control: issues(labels: ["aepgate:control"], states: OPEN, first: 1, orderBy: {field: CREATED_AT, direction: ASC}) { nodes { number url comments(last: 100) { totalCount nodes { databaseId url body createdAt updatedAt lastEditedAt author { __typename login } } } } }
  u1: issueOrPullRequest(number: 1) { __typename ... on Issue { number title body state url comments(last: 100) { totalCount nodes { databaseId url body createdAt updatedAt lastEditedAt author { __typename login } } } } }
} }`

// snapStory is what the snapshot scenario made, for the expected answer.
type snapStory struct {
	f                          *ghfake.Fake
	repo                       *ghfake.Repo
	tok                        string
	c                          *github.Client
	config, c1, c2             string // default-branch head, the PR's two commits
	unitCm, ctlCm, userCm      int64
	botCm                      int64
	approved, commented, runID int64
	ciRun, mergeRun            int64 // Actions' check run and the App's
	inst                       int64 // the App's installation
}

var t0 = time.Date(2025, 3, 1, 9, 0, 0, 0, time.UTC)

// snapshotStory builds a unit issue (#1) with a comment edited through
// REST, a control issue (#2), and PR #3 with two commits, two changed
// files, a user's edited comment and a bot's, an APPROVED review at the
// first commit and a COMMENTED one at the head, a requested reviewer, an
// Actions workflow run and the App's own check run at the head.
func snapshotStory(t *testing.T) snapStory {
	t.Helper()
	ghfake.RequireGraphQL(t)
	var s snapStory
	s.f = ghfake.New(t)
	s.f.SetNow(t0)
	s.repo = s.f.CreateRepo("acme/widgets")
	inst := s.f.App(42, testKey()).Install("acme", ghfake.Permissions{
		"checks": "write", "contents": "read", "issues": "write", "pull_requests": "write", "actions": "read"})
	s.tok, s.inst = inst.Token(), inst.ID
	s.c = client(t, s.f, s.tok)
	s.config = s.repo.Commit("main", "config", map[string]string{".github/aepgate.yml": "owners: [olivia]\n"})
	unit := s.repo.OpenIssue("olivia", "Story A", "```yaml\ngoal: a\n```")
	s.unitCm = unit.Comment("olivia", "/aep gate g1 open").ID()
	s.ctlCm = s.repo.OpenIssue("olivia", "aepgate control", "", ghfake.WithLabels("aepgate:control")).Comment("olivia", "/aep hold freeze").ID()
	s.repo.Branch("feature", "main")
	s.c1 = s.repo.CommitBy("alice", "feature", "add a", map[string]string{"a.txt": "a\n"})
	pr := s.repo.OpenPR("alice", "feature", "main", "Work", "Work-unit: #1")
	s.repo.Grant("auditor", "write")
	s.repo.Grant("bob", "write")
	s.f.Advance(time.Minute)
	s.c2 = pr.Commit("readme", map[string]string{"README.md": "# widgets\nmore\n"})
	s.approved = pr.SubmitReviewAt("auditor", "APPROVED", "", s.c1)
	s.commented = pr.SubmitReview("auditor", "COMMENTED", "audit notes")
	pr.RequestReviewers("alice", "bob")
	user := pr.Comment("alice", "ready")
	s.userCm = user.ID()
	bot, _, err := s.c.Issues.CreateComment(ctx, "acme", "widgets", 3, &github.IssueComment{Body: github.String("aepgate: blocked")})
	must(t, "CreateComment", err)
	s.botCm = bot.GetID()
	s.f.Advance(time.Minute)
	user.Edit("alice", "ready for review")
	_, _, err = s.c.Issues.EditComment(ctx, "acme", "widgets", s.unitCm, &github.IssueComment{Body: github.String("/aep gate g1 open — edited")})
	must(t, "EditComment", err)
	s.runID = s.repo.CompleteWorkflowRun(ghfake.RunOptions{Name: "ci", SHA: s.c2, Branch: "feature", Event: "pull_request"}).ID()
	s.ciRun = s.repo.CheckRuns(s.c2)[0].ID
	merge, _, err := s.c.Checks.CreateCheckRun(ctx, "acme", "widgets", github.CreateCheckRunOptions{Name: "aepgate/merge", HeadSHA: s.c2,
		ExternalID: github.String("sha256:ab"), DetailsURL: github.String("https://aepgate.example/r/3"), Conclusion: github.String("success"),
		Output: &github.CheckRunOutput{Title: github.String("ready"), Summary: github.String("all clear"), Text: github.String("details")}})
	must(t, "CreateCheckRun", err)
	s.mergeRun = merge.GetID()
	return s
}

func TestGraphQLPullSnapshot(t *testing.T) {
	s := snapshotStory(t)
	got := post(t, s.f, s.tok, snapshotQuery, map[string]any{"owner": "acme", "name": "widgets"})
	if errs := got["errors"]; errs != nil {
		t.Fatalf("errors: %v", errs)
	}
	if diff := cmp.Diff(s.want(), dig(got, "data", "repository")); diff != "" {
		t.Errorf("snapshot (-want +got):\n%s", diff)
	}
}

type m = map[string]any

func num(n int64) float64 { return float64(n) }

func at(min int) string { return t0.Add(time.Duration(min) * time.Minute).Format(time.RFC3339) }

func actorOf(typ, login string) m { return m{"__typename": typ, "login": login} }

// comment is an expected IssueComment: created at minute made, edited at
// minute edited (-1: never).
func comment(id int64, url, body string, made, edited int, author m) m {
	c := m{"databaseId": num(id), "url": url, "body": body, "createdAt": at(made), "updatedAt": at(made),
		"lastEditedAt": nil, "author": author}
	if edited >= 0 {
		c["updatedAt"], c["lastEditedAt"] = at(edited), at(edited)
	}
	return c
}

func conn(nodes ...any) m { return m{"totalCount": float64(len(nodes)), "nodes": nodes} }

func (s snapStory) want() m {
	return m{
		"nameWithOwner": "acme/widgets",
		"defaultBranchRef": m{"name": "main", "target": m{"oid": s.config,
			"file": m{"object": m{"text": "owners: [olivia]\n", "isTruncated": false}}}},
		"pullRequest": s.wantPull(),
		"control": m{"nodes": []any{m{"number": 2.0, "url": "https://github.com/acme/widgets/issues/2", "comments": conn(
			comment(s.ctlCm, "https://github.com/acme/widgets/issues/2#issuecomment-"+itoa(s.ctlCm), "/aep hold freeze", 0, -1, actorOf("User", "olivia")))}}},
		"u1": m{"__typename": "Issue", "number": 1.0, "title": "Story A", "body": "```yaml\ngoal: a\n```", "state": "OPEN",
			"url": "https://github.com/acme/widgets/issues/1", "comments": conn(
				comment(s.unitCm, "https://github.com/acme/widgets/issues/1#issuecomment-"+itoa(s.unitCm), "/aep gate g1 open — edited", 0, 2, actorOf("User", "olivia")))},
	}
}

func (s snapStory) wantPull() m {
	alice := m{"name": "alice", "email": itoa(s.f.UserID("alice")) + "+alice@users.noreply.github.com", "user": m{"login": "alice"}}
	pull := "https://github.com/acme/widgets/pull/3"
	return m{
		"number": 3.0, "body": "Work-unit: #1", "state": "OPEN", "headRefOid": s.c2, "baseRefName": "main", "createdAt": at(0),
		"author":  actorOf("User", "alice"),
		"commits": conn(m{"commit": m{"oid": s.c1, "author": alice, "committer": alice}}, m{"commit": m{"oid": s.c2, "author": alice, "committer": alice}}),
		"files":   conn(m{"path": "README.md", "changeType": "MODIFIED"}, m{"path": "a.txt", "changeType": "ADDED"}),
		"comments": conn(
			comment(s.userCm, pull+"#issuecomment-"+itoa(s.userCm), "ready for review", 1, 2, actorOf("User", "alice")),
			comment(s.botCm, pull+"#issuecomment-"+itoa(s.botCm), "aepgate: blocked", 1, -1, actorOf("Bot", "app-42"))),
		"reviews": conn(
			m{"databaseId": num(s.approved), "url": pull + "#pullrequestreview-" + itoa(s.approved), "body": "", "state": "APPROVED",
				"createdAt": at(1), "submittedAt": at(1), "updatedAt": at(1), "lastEditedAt": nil, "author": actorOf("User", "auditor"), "commit": m{"oid": s.c1}},
			m{"databaseId": num(s.commented), "url": pull + "#pullrequestreview-" + itoa(s.commented), "body": "audit notes", "state": "COMMENTED",
				"createdAt": at(1), "submittedAt": at(1), "updatedAt": at(1), "lastEditedAt": nil, "author": actorOf("User", "auditor"), "commit": m{"oid": s.c2}}),
		"reviewRequests": m{"nodes": []any{m{"requestedReviewer": actorOf("User", "bob")}}},
		"headCommit":     m{"nodes": []any{m{"commit": m{"oid": s.c2, "checkSuites": m{"nodes": s.wantSuites()}}}}},
	}
}

func (s snapStory) wantSuites() []any {
	run := "https://github.com/acme/widgets/actions/runs/" + itoa(s.runID)
	return []any{
		m{"app": m{"databaseId": num(ghfake.ActionsAppID), "slug": "github-actions"},
			"workflowRun": m{"databaseId": num(s.runID), "runNumber": 1.0, "event": "pull_request", "url": run, "workflow": m{"name": "ci"}},
			"checkRuns": m{"nodes": []any{m{"databaseId": num(s.ciRun), "name": "ci", "status": "COMPLETED", "conclusion": "SUCCESS",
				"title": nil, "summary": nil, "text": nil, "externalId": nil, "detailsUrl": run}}}},
		m{"app": m{"databaseId": 42.0, "slug": "app-42"}, "workflowRun": nil,
			"checkRuns": m{"nodes": []any{m{"databaseId": num(s.mergeRun), "name": "aepgate/merge", "status": "COMPLETED", "conclusion": "SUCCESS",
				"title": "ready", "summary": "all clear", "text": "details", "externalId": "sha256:ab", "detailsUrl": "https://aepgate.example/r/3"}}}},
	}
}
