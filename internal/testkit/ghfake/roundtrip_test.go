package ghfake_test

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/aepgate/aepgate/internal/testkit/ghfake"
	"github.com/google/go-github/v62/github"
)

// TestAppLoop is the loop the App's end-to-end tests run: the fake sends a
// signed pull_request delivery to a receiver, which calls back the fake
// (inside its webhook handler) with an installation token to post a check
// run; the test then reads state and the write log.
func TestAppLoop(t *testing.T) {
	f := ghfake.New(t)
	repo := f.CreateRepo("acme/widgets")
	app := f.App(42, testKey())
	inst := app.Install("acme", ghfake.Permissions{"checks": "write", "pull_requests": "read"})
	c := client(t, f, inst.Token())
	recv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		payload, err := github.ValidatePayload(r, []byte(secret))
		if err != nil {
			http.Error(w, err.Error(), http.StatusUnauthorized)
			return
		}
		ev, err := github.ParseWebHook(github.WebHookType(r), payload)
		if pr, ok := ev.(*github.PullRequestEvent); ok && err == nil && pr.GetAction() == "opened" {
			_, _, err := c.Checks.CreateCheckRun(r.Context(), "acme", "widgets", github.CreateCheckRunOptions{
				Name: "aepgate/work-unit", HeadSHA: pr.GetPullRequest().GetHead().GetSHA(), Conclusion: github.String("failure"),
				Output: &github.CheckRunOutput{Title: github.String("no work unit"), Summary: github.String("name one with Work-unit: #N")},
			})
			if err != nil {
				t.Errorf("check run from the webhook handler: %v", err)
			}
		}
		w.WriteHeader(http.StatusAccepted)
	}))
	defer recv.Close()
	f.SendWebhooks(recv.URL, secret, app)

	repo.Branch("feature", "main")
	repo.CommitBy("alice", "feature", "work", map[string]string{"a.go": "package a\n"})
	f.ResetLog()
	pr := repo.OpenPR("alice", "feature", "main", "Work", "")

	runs := repo.CheckRuns(pr.Head())
	if len(runs) != 1 || runs[0].Conclusion != "failure" || runs[0].AppID != 42 {
		t.Fatalf("check runs = %+v", runs)
	}
	f.VerifyWrites(t, "POST /repos/{owner}/{repo}/check-runs")
	for _, d := range f.Deliveries() {
		if d.Status != http.StatusAccepted {
			t.Errorf("%s.%s answered %d", d.Event, d.Action, d.Status)
		}
	}
}
