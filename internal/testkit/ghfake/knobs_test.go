package ghfake_test

import (
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/aepgate/aepgate/internal/testkit/ghfake"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-github/v62/github"
)

func TestRequestLogAndCounters(t *testing.T) {
	f, repo, _, c := installed(t)
	f.ResetLog()
	sha := repo.Head("main")
	if _, _, err := c.Repositories.Get(ctx, "acme", "widgets"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := c.Checks.CreateCheckRun(ctx, "acme", "widgets", github.CreateCheckRunOptions{Name: "a", HeadSHA: sha}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := c.Checks.ListCheckRunsForRef(ctx, "acme", "widgets", sha, nil); err != nil {
		t.Fatal(err)
	}
	st := f.Stats()
	if st.Total != 3 || st.Reads != 2 || st.Writes != 1 {
		t.Errorf("stats = %+v, want 3 total, 2 reads, 1 write", st)
	}
	if n := f.Calls("GET /repos/{owner}/{repo}/commits/{ref}/check-runs"); n != 1 {
		t.Errorf("check-runs-for-ref calls = %d, want 1", n)
	}
	for id, n := range st.ByInstallation {
		if n != 3 || id == 0 {
			t.Errorf("installation %d made %d calls, want 3", id, n)
		}
	}
	if diff := cmp.Diff("POST /repos/acme/widgets/check-runs -> 201\n", f.WriteLog()); diff != "" {
		t.Errorf("write log (-want +got):\n%s", diff)
	}
}

func TestETagNotModifiedIsFree(t *testing.T) {
	f, _, _, c := installed(t)
	_, resp, err := c.Repositories.Get(ctx, "acme", "widgets")
	if err != nil {
		t.Fatal(err)
	}
	etag := resp.Header.Get("ETag")
	remaining := resp.Rate.Remaining
	req, _ := c.NewRequest("GET", "repos/acme/widgets", nil)
	req.Header.Set("If-None-Match", etag)
	resp, err = c.Do(ctx, req, nil)
	if resp == nil || resp.StatusCode != http.StatusNotModified {
		t.Fatalf("conditional GET = %v, %v; want 304", resp, err)
	}
	if resp.Rate.Remaining != remaining {
		t.Errorf("remaining after 304 = %d, want unchanged %d", resp.Rate.Remaining, remaining)
	}
	if f.Stats().NotModified != 1 {
		t.Errorf("NotModified = %d, want 1", f.Stats().NotModified)
	}
}

func TestRateLimitBudget(t *testing.T) {
	f, _, _, c := installed(t)
	f.SetRateLimit(2, 1000, 5000)
	for i := 0; i < 2; i++ {
		if _, _, err := c.Repositories.Get(ctx, "acme", "widgets"); err != nil {
			t.Fatalf("call %d: %v", i, err)
		}
	}
	_, _, err := c.Repositories.Get(ctx, "acme", "widgets")
	var rl *github.RateLimitError
	if !errors.As(err, &rl) {
		t.Fatalf("third call: err = %v, want RateLimitError", err)
	}
	if rl.Rate.Remaining != 0 || rl.Rate.Reset.Time.Before(f.Now()) {
		t.Errorf("rate = %+v", rl.Rate)
	}
}

func TestInjectedFaults(t *testing.T) {
	f, _, _, c := installed(t)
	pattern := "GET /repos/{owner}/{repo}"
	f.InjectFault(pattern, ghfake.Fault{Kind: ghfake.FaultStatus, Status: 503, Times: 1})
	f.InjectFault(pattern, ghfake.Fault{Kind: ghfake.FaultSecondary, RetryAfter: 30, Times: 1})
	f.InjectFault(pattern, ghfake.Fault{Kind: ghfake.FaultDrop, Times: 1})
	f.InjectFault(pattern, ghfake.Fault{Kind: ghfake.FaultLatency, Delay: 20 * time.Millisecond, Times: 1})

	if _, _, err := c.Repositories.Get(ctx, "acme", "widgets"); status(err) != 503 {
		t.Errorf("first call: %v, want 503", err)
	}
	_, _, err := c.Repositories.Get(ctx, "acme", "widgets")
	var ab *github.AbuseRateLimitError
	if !errors.As(err, &ab) || ab.RetryAfter == nil || *ab.RetryAfter != 30*time.Second {
		t.Errorf("second call: %v, want AbuseRateLimitError with Retry-After 30s", err)
	}
	c2 := client(t, f, f.ActionsToken(f.Repo("acme/widgets"), ghfake.Permissions{"contents": "read"}))
	if _, _, err := c2.Repositories.Get(ctx, "acme", "widgets"); err == nil {
		t.Errorf("third call: dropped connection gave no error")
	}
	start := time.Now()
	if _, _, err := c2.Repositories.Get(ctx, "acme", "widgets"); err != nil {
		t.Errorf("fourth call: %v", err)
	}
	if time.Since(start) < 20*time.Millisecond {
		t.Errorf("latency fault not applied")
	}
	if got := f.Stats().Faults; got != 3 {
		t.Errorf("faults counted = %d, want 3", got)
	}
}

func TestFaultRateIsSeeded(t *testing.T) {
	run := func() []int {
		f, _, _, c := installed(t)
		f.Seed(7)
		f.InjectFault("*", ghfake.Fault{Kind: ghfake.FaultStatus, Status: 500, Rate: 0.5})
		var got []int
		for i := 0; i < 10; i++ {
			_, resp, _ := c.Repositories.Get(ctx, "acme", "widgets")
			got = append(got, resp.StatusCode)
		}
		return got
	}
	a, b := run(), run()
	if diff := cmp.Diff(a, b); diff != "" {
		t.Errorf("same seed, different faults (-first +second):\n%s", diff)
	}
}

func TestRateLimitStatus429(t *testing.T) {
	f, repo, _, _ := installed(t)
	f.SetRateLimit(5000, 1, 5000)
	f.SetRateLimitStatus(http.StatusTooManyRequests)
	tok := f.ActionsToken(repo, ghfake.Permissions{"contents": "read"})
	var got []int
	for i := 0; i < 2; i++ {
		got = append(got, send(t, f, "GET", f.URL()+"repos/acme/widgets", tok, nil))
	}
	if diff := cmp.Diff([]int{200, 429}, got); diff != "" {
		t.Errorf("statuses (-want +got):\n%s", diff)
	}
}

func TestLostResponseStillWrites(t *testing.T) {
	f, repo, _, c := installed(t)
	f.InjectFault("POST /repos/{owner}/{repo}/check-runs", ghfake.Fault{Kind: ghfake.FaultLostResponse, Times: 1})
	sha := repo.Head("main")
	_, _, err := c.Checks.CreateCheckRun(ctx, "acme", "widgets", github.CreateCheckRunOptions{Name: "aepgate/merge", HeadSHA: sha})
	if status(err) != http.StatusBadGateway {
		t.Fatalf("err = %v, want 502", err)
	}
	if got := len(repo.CheckRuns(sha)); got != 1 {
		t.Errorf("check runs after a lost answer = %d, want 1 (the write happened)", got)
	}
	if got := len(f.Writes()); got != 1 {
		t.Errorf("Writes = %d, want 1", got)
	}
}

func TestContentCreationLimit(t *testing.T) {
	f, repo, _, tok := installedToken(t)
	c := client(t, f, tok)
	f.SetNow(time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC))
	f.SetContentLimit(2)
	is := repo.OpenIssue("alice", "x", "")
	comment := func() error {
		_, _, err := c.Issues.CreateComment(ctx, "acme", "widgets", is.Number(), &github.IssueComment{Body: github.String("hi")})
		return err
	}
	for i := 0; i < 2; i++ {
		if err := comment(); err != nil {
			t.Fatalf("comment %d: %v", i, err)
		}
	}
	var ab *github.AbuseRateLimitError
	if err := comment(); !errors.As(err, &ab) || ab.RetryAfter == nil {
		t.Fatalf("third comment in a minute: err = %v, want a secondary limit with Retry-After", err)
	}
	f.Advance(time.Minute)
	c = client(t, f, tok) // go-github itself waits out Retry-After on the wall clock
	if err := comment(); err != nil {
		t.Errorf("after a minute: %v", err)
	}
}
