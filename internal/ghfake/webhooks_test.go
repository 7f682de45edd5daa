package ghfake_test

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/aepgate/aepgate/internal/ghfake"
	"github.com/aepgate/aepgate/internal/sharedfix"
	"github.com/google/go-github/v62/github"
)

const secret = "s3cret"

// story drives a repository through the events the App listens to and
// returns the deliveries collected.
func story(t *testing.T) (*ghfake.Fake, []ghfake.Delivery) {
	t.Helper()
	f, repo, app, c := installed(t)
	f.CollectWebhooks(secret, app)
	repo.Grant("auditor", "write")
	repo.Label("product", "0e8a16")
	ms := repo.CreateMilestone("Increment 1", "")
	is := repo.OpenIssue("alice", "Story", "```yaml\ngoal: g\n```", ghfake.InMilestone(ms))
	is.AddLabels("alice", "product")
	cm := is.Comment("owner", "/aep hold wait")
	cm.Edit("owner", "/aep hold edited")
	repo.Branch("feature", "main")
	repo.CommitBy("alice", "feature", "work", map[string]string{"a.txt": "a\n"})
	pr := repo.OpenPR("alice", "feature", "main", "Work", "Work-unit: #1")
	pr.RequestReviewers("alice", "auditor")
	pr.Commit("more", map[string]string{"b.txt": "b\n"})
	pr.SubmitReview("auditor", "APPROVED", "ok")
	if _, _, err := c.Checks.CreateCheckRun(ctx, "acme", "widgets", github.CreateCheckRunOptions{Name: "aepgate/merge", HeadSHA: pr.Head(), Conclusion: github.String("success")}); err != nil {
		t.Fatal(err)
	}
	repo.CompleteWorkflowRun(ghfake.RunOptions{Name: "ci", SHA: pr.Head(), Branch: "feature", Event: "pull_request"})
	runs := repo.CheckRuns(pr.Head())
	repo.RerequestCheckRun("alice", runs[0].ID)
	repo.RequestAction("owner", runs[0].ID, "recheck")
	merge := pr.Merge(ghfake.MergeCommit)
	repo.Tag("v1.0.0", merge, "v1.0.0")
	repo.PublishRelease("v1.0.0", ghfake.ReleaseOptions{Assets: map[string][]byte{"a.tar.gz": []byte("x")}})
	ms.Close()
	is.Close("owner")
	return f, f.Deliveries()
}

func TestWebhooksVerifyAndParse(t *testing.T) {
	_, ds := story(t)
	seen := map[string]bool{}
	for _, d := range ds {
		key := d.Event + "." + d.Action
		seen[key] = true
		req, err := d.Request("http://receiver.invalid/webhook")
		if err != nil {
			t.Fatal(err)
		}
		payload, err := github.ValidatePayload(req, []byte(secret))
		if err != nil {
			t.Errorf("%s: signature does not verify: %v", key, err)
			continue
		}
		if _, err := github.ValidatePayload(mustReq(t, d), []byte("wrong")); err == nil {
			t.Errorf("%s: verified with the wrong secret", key)
		}
		if github.DeliveryID(req) != d.GUID || len(d.GUID) != 36 {
			t.Errorf("%s: delivery ID %q", key, github.DeliveryID(req))
		}
		ev, err := github.ParseWebHook(github.WebHookType(req), payload)
		if err != nil {
			t.Errorf("%s: ParseWebHook: %v", key, err)
			continue
		}
		checkTyped(t, key, ev)
	}
	for _, want := range []string{
		"issues.opened", "issues.milestoned", "issues.labeled", "issues.closed", "issue_comment.created", "issue_comment.edited",
		"milestone.created", "milestone.closed", "pull_request.opened", "pull_request.review_requested",
		"pull_request.synchronize", "pull_request.closed", "pull_request_review.submitted", "check_run.created",
		"check_run.completed", "check_run.rerequested", "check_run.requested_action", "check_suite.completed", "label.created", "workflow_run.completed", "push.", "create.", "release.published", "release.released",
	} {
		if !seen[want] {
			t.Errorf("no %s delivery was emitted", want)
		}
	}
}

func mustReq(t *testing.T, d ghfake.Delivery) *http.Request {
	t.Helper()
	r, err := d.Request("http://receiver.invalid/webhook")
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// checkTyped asserts the fields the App reads are populated.
func checkTyped(t *testing.T, key string, ev any) {
	t.Helper()
	type common interface {
		GetRepo() *github.Repository
		GetInstallation() *github.Installation
		GetSender() *github.User
	}
	if p, ok := ev.(*github.PushEvent); ok {
		if p.GetRepo().GetFullName() != "acme/widgets" || p.GetInstallation().GetID() == 0 || p.GetRef() == "" || p.GetAfter() == "" {
			t.Errorf("%s: repo %q installation %d ref %q", key, p.GetRepo().GetFullName(), p.GetInstallation().GetID(), p.GetRef())
		}
		return
	}
	c, ok := ev.(common)
	if !ok {
		t.Errorf("%s: %T lacks repo/installation/sender", key, ev)
		return
	}
	if c.GetRepo().GetFullName() != "acme/widgets" || c.GetInstallation().GetID() == 0 || c.GetSender().GetLogin() == "" {
		t.Errorf("%s: repo %q installation %d sender %q", key, c.GetRepo().GetFullName(), c.GetInstallation().GetID(), c.GetSender().GetLogin())
	}
	bad := false
	switch e := ev.(type) {
	case *github.IssuesEvent:
		bad = e.GetIssue().GetNumber() == 0 || e.GetAction() == ""
	case *github.IssueCommentEvent:
		bad = e.GetComment().GetID() == 0 || e.GetComment().GetUser().GetLogin() == "" || e.GetIssue().GetNumber() == 0 || e.GetComment().GetCreatedAt().IsZero()
	case *github.PullRequestEvent:
		bad = e.GetPullRequest().GetHead().GetSHA() == "" || e.GetNumber() == 0 || e.GetPullRequest().GetBase().GetRef() != "main"
	case *github.PullRequestReviewEvent:
		bad = e.GetReview().GetCommitID() == "" || e.GetReview().GetState() == "" || e.GetPullRequest().GetNumber() == 0
	case *github.CheckRunEvent:
		bad = e.GetCheckRun().GetHeadSHA() == "" || e.GetCheckRun().GetApp().GetID() == 0 || e.GetCheckRun().GetCheckSuite().GetID() == 0 ||
			(e.GetAction() == "requested_action" && e.GetRequestedAction().Identifier != "recheck")
	case *github.WorkflowRunEvent:
		bad = e.GetWorkflowRun().GetID() == 0 || e.GetWorkflowRun().GetHeadSHA() == "" || e.GetWorkflowRun().GetRunAttempt() == 0
	case *github.ReleaseEvent:
		bad = e.GetRelease().GetTagName() == "" || len(e.GetRelease().Assets) == 0
	case *github.PushEvent:
		bad = e.GetRef() == "" || e.GetAfter() == ""
	case *github.MilestoneEvent:
		bad = e.GetMilestone().GetNumber() == 0
	}
	if bad {
		t.Errorf("%s: fields the App reads are missing in %T", key, ev)
	}
}

// TestWebhookShapesMatchFixtures compares each emitted payload's keys with
// GitHub's recorded payload for the same event and action: every key
// GitHub sends at the top level and in the event's main object must be there.
func TestWebhookShapesMatchFixtures(t *testing.T) {
	dir := sharedfix.Path(t, "fixtures/github/webhooks")
	_, ds := story(t)
	done := map[string]bool{}
	for _, d := range ds {
		name := d.Action + ".payload.json"
		if d.Action == "" {
			name = "payload.json"
		}
		path := filepath.Join(dir, d.Event, name)
		raw, err := os.ReadFile(path)
		if err != nil || done[path] {
			continue
		}
		done[path] = true
		var want, got map[string]any
		if err := json.Unmarshal(raw, &want); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if err := json.Unmarshal(d.Payload, &got); err != nil {
			t.Fatal(err)
		}
		if missing := missingKeys(want, got, "", 2); len(missing) > 0 {
			t.Errorf("%s.%s lacks keys GitHub sends: %s", d.Event, d.Action, strings.Join(missing, ", "))
		}
	}
	if len(done) < 10 {
		t.Errorf("only %d payloads had a fixture to compare with", len(done))
	}
}

// missingKeys lists keys of want absent from got, down to depth levels
// (enterprise and organization-only keys excepted, and issue.pull_request,
// which only a pull request's issue has).
func missingKeys(want, got map[string]any, prefix string, depth int) []string {
	var out []string
	for k, v := range want {
		if k == "enterprise" || (prefix == "" && k == "organization") || (prefix == "issue." && k == "pull_request") {
			continue
		}
		gv, ok := got[k]
		if !ok {
			out = append(out, prefix+k)
			continue
		}
		wm, wok := v.(map[string]any)
		gm, gok := gv.(map[string]any)
		if wok && gok && depth > 1 {
			out = append(out, missingKeys(wm, gm, prefix+k+".", depth-1)...)
		}
	}
	sort.Strings(out)
	return out
}

func TestWebhooksPostedToReceiver(t *testing.T) {
	var mu sync.Mutex
	var events []string
	recv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, err := github.ValidatePayload(r, []byte(secret)); err != nil {
			http.Error(w, err.Error(), http.StatusUnauthorized)
			return
		}
		_, _ = io.Copy(io.Discard, r.Body)
		mu.Lock()
		events = append(events, r.Header.Get("X-GitHub-Event"))
		mu.Unlock()
		w.WriteHeader(http.StatusAccepted)
	}))
	defer recv.Close()
	f := ghfake.New(t)
	repo := f.CreateRepo("acme/widgets")
	f.App(42, testKey()).Install("acme", ghfake.Permissions{"issues": "write"})
	f.SendWebhooks(recv.URL, secret, nil)
	repo.OpenIssue("alice", "x", "").Comment("bob", "hi")
	ds := f.Deliveries()
	if len(ds) != 2 || ds[0].Status != http.StatusAccepted || ds[1].Status != http.StatusAccepted {
		t.Fatalf("deliveries = %+v", ds)
	}
	mu.Lock()
	defer mu.Unlock()
	if strings.Join(events, ",") != "issues,issue_comment" {
		t.Errorf("receiver saw %v", events)
	}
}

func TestHookDeliveryLogAndRedelivery(t *testing.T) {
	var mu sync.Mutex
	var guids []string
	recv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		guids = append(guids, r.Header.Get("X-GitHub-Delivery"))
		mu.Unlock()
		w.WriteHeader(http.StatusServiceUnavailable) // the App was down
	}))
	defer recv.Close()
	f := ghfake.New(t)
	repo := f.CreateRepo("acme/widgets")
	app := f.App(42, testKey())
	app.Install("acme", ghfake.Permissions{"issues": "write"})
	f.SendWebhooks(recv.URL, secret, app)
	repo.OpenIssue("alice", "x", "")
	ac := client(t, f, app.JWT())
	list, _, err := ac.Apps.ListHookDeliveries(ctx, &github.ListCursorOptions{})
	if err != nil || len(list) != 1 || list[0].GetStatusCode() != http.StatusServiceUnavailable || list[0].GetEvent() != "issues" {
		t.Fatalf("ListHookDeliveries = %+v, %v", list, err)
	}
	full, _, err := ac.Apps.GetHookDelivery(ctx, list[0].GetID())
	if err != nil || full.GetRequest() == nil || len(full.GetRequest().GetRawPayload()) == 0 {
		t.Fatalf("GetHookDelivery = %+v, %v", full, err)
	}
	if _, _, err := ac.Apps.RedeliverHookDelivery(ctx, list[0].GetID()); err != nil {
		var accepted *github.AcceptedError
		if !errors.As(err, &accepted) {
			t.Fatalf("RedeliverHookDelivery: %v", err)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if len(guids) != 2 || guids[0] != guids[1] {
		t.Errorf("receiver saw GUIDs %v, want the same GUID twice", guids)
	}
	if ds := f.Deliveries(); len(ds) != 2 || !ds[1].Redelivery {
		t.Errorf("deliveries = %+v", ds)
	}
}

func TestCommitStatuses(t *testing.T) {
	f, repo, _, tok := installedToken(t)
	c := client(t, f, tok)
	f.CollectWebhooks(secret, nil)
	sha := repo.Head("main")
	repo.SetStatus(sha, "ci/legacy", "pending", "")
	repo.SetStatus(sha, "ci/legacy", "success", "https://ci.example/1")
	repo.SetStatus(sha, "ci/other", "success", "")
	combined, _, err := c.Repositories.GetCombinedStatus(ctx, "acme", "widgets", "main", nil)
	if err != nil || combined.GetState() != "success" || combined.GetTotalCount() != 2 {
		t.Errorf("combined = %s (%d), %v; want success over 2 contexts", combined.GetState(), combined.GetTotalCount(), err)
	}
	if len(f.Deliveries()) != 3 || f.Deliveries()[0].Event != "status" {
		t.Errorf("status deliveries = %d", len(f.Deliveries()))
	}
}

func TestInstallationCreatedDelivery(t *testing.T) {
	f := ghfake.New(t)
	f.CreateRepo("acme/widgets")
	f.CollectWebhooks(secret, nil)
	inst := f.App(42, testKey()).Install("acme", ghfake.Permissions{"checks": "write"})
	ds := f.Deliveries()
	if len(ds) != 1 {
		t.Fatalf("deliveries = %d, want 1", len(ds))
	}
	req := mustReq(t, ds[0])
	payload, err := github.ValidatePayload(req, []byte(secret))
	if err != nil {
		t.Fatal(err)
	}
	ev, err := github.ParseWebHook(github.WebHookType(req), payload)
	if err != nil {
		t.Fatal(err)
	}
	ie, ok := ev.(*github.InstallationEvent)
	if !ok || ie.GetAction() != "created" || ie.GetInstallation().GetID() != inst.ID || len(ie.Repositories) != 1 {
		t.Errorf("event = %T %+v", ev, ev)
	}
	if p, ok := sharedfixPath(t, "fixtures/github/webhooks/installation/created.payload.json"); ok {
		var want, got map[string]any
		raw, _ := os.ReadFile(p)
		_ = json.Unmarshal(raw, &want)
		_ = json.Unmarshal(ds[0].Payload, &got)
		if missing := missingKeys(want, got, "", 2); len(missing) > 0 {
			t.Errorf("installation.created lacks %v", missing)
		}
	}
}

// sharedfixPath finds a shared fixture without skipping the whole test.
func sharedfixPath(t *testing.T, rel string) (string, bool) {
	root, ok := sharedfix.Root()
	if !ok {
		return "", false
	}
	return filepath.Join(root, filepath.FromSlash(rel)), true
}
