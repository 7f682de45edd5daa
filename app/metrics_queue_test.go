package app_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/aepgate/aepgate/app"
	"github.com/aepgate/aepgate/internal/testkit/appkit"
)

// scrapeHandler returns the App's /metrics text.
func scrapeHandler(t *testing.T, h http.Handler) string {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	b, _ := io.ReadAll(rec.Body)
	return string(b)
}

// metricValue is the value of the series line starting with name{labels}
// (or name alone), and whether it is there.
func metricValue(text, series string) (float64, bool) {
	m := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(series) + ` (\S+)$`).FindStringSubmatch(text)
	if m == nil {
		return 0, false
	}
	v, err := strconv.ParseFloat(m[1], 64)
	return v, err == nil
}

// TestMetricsPeopleAlertOn: at boot the rate-limit gauge is absent (not
// 0, which would page someone) and each queue reports 0 jobs; a queued
// delivery shows as one available job of the default queue with its age,
// and its commit as one batch of one; GitHub's first answer brings the
// rate-limit gauge.
func TestMetricsPeopleAlertOn(t *testing.T) {
	a, err := app.New(context.Background(), appkit.Options(t, nil, ""))
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	h := a.Handler()
	boot := scrapeHandler(t, h)
	if _, ok := metricValue(boot, "aepgate_github_rate_limit_remaining"); ok {
		t.Errorf("aepgate_github_rate_limit_remaining present before GitHub answered:\n%s", boot)
	}
	for _, s := range []string{`aepgate_queue_jobs{queue="default",state="available"}`, `aepgate_queue_jobs{queue="aepgate_board",state="running"}`, `aepgate_queue_oldest_job_age_seconds{queue="default"}`,
		"aepgate_webhook_busy", "aepgate_jobs_yielded_total", "aepgate_job_yield_seconds_total"} {
		if v, ok := metricValue(boot, s); !ok || v != 0 {
			t.Errorf("%s at boot = %v (present %v), want 0", s, v, ok)
		}
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	if code := appkit.Deliver(t, srv.URL, "check_run", "m-1", []byte(`{"action":"rerequested","check_run":{"pull_requests":[{"number":1}]},"installation":{"id":1},"repository":{"name":"w","owner":{"login":"acme"}}}`)); code != http.StatusAccepted {
		t.Fatalf("delivery answered %d", code)
	}
	time.Sleep(20 * time.Millisecond)
	got := scrapeHandler(t, h)
	want := map[string]float64{
		`aepgate_queue_jobs{queue="default",state="available"}`:   1,
		`aepgate_webhook_batch_size_count`:                        1,
		`aepgate_webhook_batch_size_sum`:                          1,
		`aepgate_webhook_batch_commit_seconds_count{result="ok"}`: 1,
	}
	for s, w := range want {
		if v, ok := metricValue(got, s); !ok || v != w {
			t.Errorf("%s = %v (present %v), want %v", s, v, ok, w)
		}
	}
	if v, ok := metricValue(got, `aepgate_queue_oldest_job_age_seconds{queue="default"}`); !ok || v <= 0 || v > 60 {
		t.Errorf("oldest job age = %v (present %v), want a few milliseconds", v, ok)
	}
	a.Metrics().GitHubCall(http.MethodGet, "/app/installations", 200, 4999, time.Millisecond)
	if v, ok := metricValue(scrapeHandler(t, h), "aepgate_github_rate_limit_remaining"); !ok || v != 4999 {
		t.Errorf("rate limit remaining after an answer = %v (present %v), want 4999", v, ok)
	}
}
