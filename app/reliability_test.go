package app

import (
	"fmt"
	"testing"
	"time"
)

// allJudged reports whether each of prs 1000…1000+n−1 carries a
// successful work-unit run.
func allJudged(f *fakeGitHub, n int) func() bool {
	return func() bool {
		for i := range n {
			r := f.run(WorkUnitCheck, sha(1000+i))
			if r == nil || r.Conclusion != "success" {
				return false
			}
		}
		return true
	}
}

func addPRs(f *fakeGitHub, n int) {
	for i := range n {
		f.addPR(1000+i, "Work-unit: #1")
	}
}

func TestE2EFaultsEventuallyProcessedNoDuplicateWrites(t *testing.T) {
	if testing.Short() {
		t.Skip("reliability test")
	}
	const n = 100
	fake := newFakeGitHub(t, testAppID, &appKey(t).PublicKey)
	seed(fake)
	addPRs(fake, n)
	fake.setFaultRate(0.2)
	o := testOptions(t, fake, "")
	o.Workers = 16
	_, base := startApp(t, o)
	for i := range n {
		if got := deliver(t, base, "pull_request", fmt.Sprintf("f-%d", i), prEvent("opened", 1000+i, "Work-unit: #1")); got != 202 {
			t.Fatalf("delivery %d: %d", i, got)
		}
	}
	waitFor(t, 60*time.Second, "every pull request judged", allJudged(fake, n))
	_, _, faults := fake.counts()
	if faults == 0 {
		t.Fatal("no faults were injected")
	}
	if d := fake.duplicates(); len(d) > 0 {
		t.Errorf("duplicated writes: %v", d)
	}
	t.Logf("%d deliveries processed through %d injected faults", n, faults)
}
