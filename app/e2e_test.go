package app

import (
	"strings"
	"testing"
	"time"
)

func TestE2EWorkUnitCheck(t *testing.T) {
	fake := newFakeGitHub(t, testAppID, &appKey(t).PublicKey)
	seed(fake)
	fake.addPR(10, "Implements the export.\n\nWork-unit: #1")
	fake.addPR(11, "No unit named here.")
	_, base := startApp(t, testOptions(t, fake, ""))

	if got := deliver(t, base, "pull_request", "d-10", prEvent("opened", 10, "Work-unit: #1")); got != 202 {
		t.Fatalf("status %d, want 202", got)
	}
	deliver(t, base, "pull_request", "d-11", prEvent("opened", 11, "No unit named here."))
	waitFor(t, 5*time.Second, "both check runs", func() bool {
		return fake.run(WorkUnitCheck, sha(10)) != nil && fake.run(WorkUnitCheck, sha(11)) != nil
	})
	if r := fake.run(WorkUnitCheck, sha(10)); r.Conclusion != "success" || r.Title != "Work unit #1: Export reports" {
		t.Errorf("PR 10: %s %q\n%s", r.Conclusion, r.Title, r.Summary)
	}
	if r := fake.run(WorkUnitCheck, sha(11)); r.Conclusion != "failure" || !strings.Contains(r.Summary, "names no work unit") {
		t.Errorf("PR 11: %s %q\n%s", r.Conclusion, r.Title, r.Summary)
	}

	// A dependency reopens: the issues event re-evaluates PR 10.
	fake.mu.Lock()
	fake.issues[2].Open = true
	fake.mu.Unlock()
	deliver(t, base, "issues", "d-i2", issueEvent("reopened", 2))
	waitFor(t, 5*time.Second, "PR 10 to fail", func() bool { return fake.run(WorkUnitCheck, sha(10)).Conclusion == "failure" })
	if r := fake.run(WorkUnitCheck, sha(10)); !strings.Contains(r.Summary, "dependency #2 is still open") {
		t.Errorf("PR 10 summary:\n%s", r.Summary)
	}
	if d := fake.duplicates(); len(d) > 0 {
		t.Errorf("duplicate check runs: %v", d)
	}
}

func TestE2EBrokenConfigFailsClosed(t *testing.T) {
	fake := newFakeGitHub(t, testAppID, &appKey(t).PublicKey)
	seed(fake)
	bad := "version: 1\nno_such_key: true\n"
	fake.config = &bad
	fake.addPR(10, "Work-unit: #1")
	_, base := startApp(t, testOptions(t, fake, ""))
	deliver(t, base, "pull_request", "d-1", prEvent("opened", 10, "Work-unit: #1"))
	waitFor(t, 5*time.Second, "config check", func() bool { return fake.run(ConfigCheck, sha(10)) != nil })
	if r := fake.run(ConfigCheck, sha(10)); r.Conclusion != "failure" || !strings.Contains(r.Summary, "no_such_key") {
		t.Errorf("config run: %s\n%s", r.Conclusion, r.Summary)
	}
	waitFor(t, 5*time.Second, "work-unit check", func() bool { return fake.run(WorkUnitCheck, sha(10)) != nil })
	if r := fake.run(WorkUnitCheck, sha(10)); r.Conclusion != "failure" {
		t.Errorf("work-unit with a broken config: %s", r.Conclusion)
	}
}

func TestE2EDuplicateDeliveryDoesNothing(t *testing.T) {
	fake := newFakeGitHub(t, testAppID, &appKey(t).PublicKey)
	seed(fake)
	fake.addPR(10, "Work-unit: #1")
	_, base := startApp(t, testOptions(t, fake, ""))
	body := prEvent("opened", 10, "Work-unit: #1")
	if got := deliver(t, base, "pull_request", "same", body); got != 202 {
		t.Fatalf("first: %d", got)
	}
	if got := deliver(t, base, "pull_request", "same", body); got != 200 {
		t.Fatalf("redelivery: %d, want 200", got)
	}
	waitFor(t, 5*time.Second, "check run", func() bool { return fake.run(WorkUnitCheck, sha(10)) != nil })
	time.Sleep(200 * time.Millisecond)
	reads, writes, _ := fake.counts()
	// One evaluation: the snapshot query and the publisher's lookup; one write.
	if reads > 2 || writes != 1 {
		t.Errorf("reads=%d writes=%d, want ≤2 and 1", reads, writes)
	}
}
