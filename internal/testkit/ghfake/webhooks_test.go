package ghfake_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/aepgate/aepgate/internal/testkit/fixtures"
	"github.com/aepgate/aepgate/internal/testkit/ghfake"
	"github.com/google/go-cmp/cmp"
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
	is.Reopen("owner")
	is.Edit("alice", "```yaml\ngoal: g2\n```")
	is.EditTitle("alice", "Story 2")
	if _, err := c.Issues.RemoveLabelForIssue(ctx, "acme", "widgets", is.Number(), "product"); err != nil {
		t.Fatal(err)
	}
	is.SetMilestone("owner", nil)
	repo.Branch("second", "main")
	repo.CommitBy("alice", "second", "more work", map[string]string{"c.txt": "c\n"})
	pr2 := repo.OpenPR("alice", "second", "main", "Second", "body")
	pr2.Edit("alice", "new body")
	pr2.AddLabels("alice", "product")
	pr2.ClosePR("alice")
	pr2.Reopen("alice")
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

// TestWebhookShapesMatchFixtures compares each emitted payload with every
// payload GitHub recorded for the same event and action (all variants):
// every key GitHub sends must be there, four levels deep (arrays through
// their first element), with the same JSON type where both are non-null.
func TestWebhookShapesMatchFixtures(t *testing.T) {
	fixtures.Webhooks(t)
	_, ds := story(t)
	done, kinds := map[string]bool{}, map[string]bool{}
	for _, d := range ds {
		for _, w := range fixtures.WebhooksFor(t, d.Event, d.Action) {
			if done[w.Name] || transferred(t, w) {
				continue
			}
			done[w.Name], kinds[w.Event+"."+w.Action] = true, true
			var want, got map[string]any
			if err := json.Unmarshal(w.Body, &want); err != nil {
				t.Fatalf("%s: %v", w.Name, err)
			}
			if err := json.Unmarshal(d.Payload, &got); err != nil {
				t.Fatal(err)
			}
			if missing := shapeDiff(want, got, "", 4); len(missing) > 0 {
				t.Errorf("%s.%s differs from %s: %s", d.Event, d.Action, w.Name, strings.Join(missing, ", "))
			}
		}
	}
	if len(done) < 30 {
		t.Errorf("only %d recorded payloads had a delivery to compare with", len(done))
	}
	for _, want := range []string{"pull_request.labeled", "pull_request.reopened",
		"issues.edited", "issues.unlabeled", "issues.demilestoned", "push.", "issues.reopened"} {
		if !kinds[want] {
			t.Errorf("the story emitted nothing to compare with a recorded %s", want)
		}
	}
}

// transferred reports whether w records an issue transferred from another
// repository, a situation the fake does not model.
func transferred(t *testing.T, w fixtures.Webhook) bool {
	var p struct {
		Changes struct {
			OldRepository json.RawMessage `json:"old_repository"`
		} `json:"changes"`
	}
	if err := json.Unmarshal(w.Body, &p); err != nil {
		t.Fatalf("%s: %v", w.Name, err)
	}
	return p.Changes.OldRepository != nil
}

// shapeDiff lists keys of want absent from got (and keys whose JSON type
// differs), down to depth levels; arrays compare their first elements.
// Keys that depend on the recording rather than on GitHub's shape are
// skipped: enterprise, top-level organization (org repos only), top-level
// requester (installations requested by a non-owner), issue.pull_request
// (pull requests' issues only), an App's permissions (what that App was
// granted), release.discussion_url (repos with discussions),
// check_suite.deployment and check_run.deployment (deployment-triggered
// suites and runs), and a repository's merge settings (allow_*_merge*,
// delete_branch_on_merge: in some recordings of a pull request's
// base.repo and head.repo only).
func shapeDiff(want, got any, prefix string, depth int) []string {
	if depth == 0 {
		return nil
	}
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			return nil
		}
		var out []string
		for k, v := range w {
			if recordingDependent(prefix, k) {
				continue
			}
			gv, ok := g[k]
			if !ok {
				out = append(out, prefix+k)
				continue
			}
			if wk, gk := jsonKind(v), jsonKind(gv); wk != "" && gk != "" && wk != gk {
				out = append(out, prefix+k+" (a "+gk+", GitHub sends a "+wk+")")
			}
			out = append(out, shapeDiff(v, gv, prefix+k+".", depth-1)...)
		}
		sort.Strings(out)
		return out
	case []any:
		g, ok := got.([]any)
		if !ok || len(w) == 0 || len(g) == 0 {
			return nil
		}
		return shapeDiff(w[0], g[0], prefix+"[].", depth)
	}
	return nil
}

// recordingDependent reports whether the key k under prefix is one
// shapeDiff skips (see there).
func recordingDependent(prefix, k string) bool {
	switch {
	case k == "enterprise" || k == "discussion_url":
		return true
	case prefix == "":
		return k == "organization" || k == "requester"
	case prefix == "issue.":
		return k == "pull_request"
	case strings.HasSuffix(prefix, "app."):
		return k == "permissions"
	case strings.HasSuffix(prefix, "check_suite.") || strings.HasSuffix(prefix, "check_run."):
		return k == "deployment"
	case strings.HasSuffix(prefix, "repo."):
		return k == "allow_merge_commit" || k == "allow_rebase_merge" || k == "allow_squash_merge" || k == "delete_branch_on_merge"
	}
	return false
}

func jsonKind(v any) string {
	switch v.(type) {
	case map[string]any:
		return "object"
	case []any:
		return "array"
	case string:
		return "string"
	case float64:
		return "number"
	case bool:
		return "bool"
	}
	return ""
}

// missingKeys lists keys of want absent from got, down to depth levels
// (see shapeDiff).
func missingKeys(want, got map[string]any, prefix string, depth int) []string {
	return shapeDiff(want, got, prefix, depth)
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
	for _, w := range fixtures.WebhooksFor(t, "installation", "created") {
		var want, got map[string]any
		_ = json.Unmarshal(w.Body, &want)
		_ = json.Unmarshal(ds[0].Payload, &got)
		if missing := missingKeys(want, got, "", 2); len(missing) > 0 {
			t.Errorf("installation.created lacks %v (keys of %s)", missing, w.Name)
		}
	}
}

func TestHookDeliveryLogPagesByCursor(t *testing.T) {
	var answer atomic.Int32
	answer.Store(http.StatusServiceUnavailable)
	recv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(int(answer.Load()))
	}))
	defer recv.Close()
	f := ghfake.New(t)
	repo := f.CreateRepo("acme/widgets")
	app := f.App(42, testKey())
	app.Install("acme", ghfake.Permissions{"issues": "write"})
	f.SendWebhooks(recv.URL, secret, app)
	for i := range 5 {
		if i == 3 {
			answer.Store(http.StatusAccepted)
		}
		repo.OpenIssue("alice", fmt.Sprintf("issue %d", i), "")
	}
	ds := f.Deliveries()
	ac := client(t, f, app.JWT())
	for _, tc := range []struct {
		status string
		want   []int64 // delivery IDs, newest first
	}{
		{"", []int64{ds[4].ID, ds[3].ID, ds[2].ID, ds[1].ID, ds[0].ID}},
		{"failure", []int64{ds[2].ID, ds[1].ID, ds[0].ID}},
		{"success", []int64{ds[4].ID, ds[3].ID}},
	} {
		var got []int64
		opts, pages := &github.ListCursorOptions{PerPage: 2}, 0
		for {
			u := "app/hook/deliveries?per_page=2"
			if tc.status != "" {
				u += "&status=" + tc.status
			}
			if opts.Cursor != "" {
				u += "&cursor=" + opts.Cursor
			}
			req, _ := ac.NewRequest(http.MethodGet, u, nil)
			var page []*github.HookDelivery
			resp, err := ac.Do(ctx, req, &page)
			if err != nil {
				t.Fatalf("status %q: %v", tc.status, err)
			}
			pages++
			for _, d := range page {
				got = append(got, d.GetID())
			}
			if resp.Cursor == "" {
				break
			}
			opts.Cursor = resp.Cursor
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("status %q: IDs (-want +got):\n%s", tc.status, diff)
		}
		if want := max(1, (len(tc.want)+1)/2); pages != want {
			t.Errorf("status %q: %d pages, want %d", tc.status, pages, want)
		}
	}
	req, _ := ac.NewRequest(http.MethodGet, "app/hook/deliveries?cursor=nonsense", nil)
	if resp, err := ac.Do(ctx, req, nil); err == nil || resp.StatusCode != http.StatusBadRequest {
		t.Errorf("a bad cursor: %v, want 400", err)
	}
}
