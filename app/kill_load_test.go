package app_test

import (
	"bytes"
	"flag"
	"fmt"
	"net/http"
	"path/filepath"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/aepgate/aepgate/internal/testkit/appkit"
	"github.com/aepgate/aepgate/internal/testkit/pgtest"
)

// The open-loop kill test's rate and length: small by default so the
// suite stays quick; docs/app.md gives the measured run (-kill.rate 1000
// -kill.seconds 3).
var (
	killRate    = flag.Int("kill.rate", 150, "deliveries per second TestE2EKilledUnderLoad sends, open loop")
	killSeconds = flag.Float64("kill.seconds", 2, "seconds TestE2EKilledUnderLoad sends for")
)

// TestE2EKilledUnderLoad SIGKILLs `serve` halfway through an open-loop
// burst (one pull_request delivery every 1/rate s, each of its own pull
// request, sent whether or not earlier ones were answered), restarts it,
// then redelivers what was not answered 2xx under the same delivery ID, as
// GitHub's redelivery does. Every delivery must then have been judged
// exactly once: one check run per pull request, none twice, and a ledger
// row for each. A delivery answered 2xx before the kill is in a committed
// batch (group commit acknowledges only after the commit), so the kill
// loses none of them; one committed whose answer the kill cut is
// redelivered and deduplicated.
func TestE2EKilledUnderLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("reliability test: runs without -short")
	}
	t.Run("sqlite", func(t *testing.T) {
		runKillUnderLoad(t, "sqlite:"+filepath.Join(t.TempDir(), "aepgate.db"))
	})
	t.Run("postgres", func(t *testing.T) { runKillUnderLoad(t, pgtest.Start(t)) })
}

func runKillUnderLoad(t *testing.T, database string) {
	n := int(float64(*killRate) * *killSeconds)
	begin := time.Now()
	w := appkit.NewWorld(t)
	w.AddPRs(n)
	w.EnforceLimits(appkit.Limits())
	first := startChild(t, w, database)
	var base atomic.Value
	base.Store(first.base)
	bodies := make([][]byte, n)
	for i := range n {
		bodies[i] = w.PREvent("opened", 1000+i, "Work-unit: #1")
	}
	acked := make([]bool, n)
	var sent atomic.Int32
	done := make(chan struct{})
	go func() { // the open-loop sender: it never waits for an answer, nor for the restart
		defer close(done)
		var wg sync.WaitGroup
		client := &http.Client{Timeout: 10 * time.Second}
		start := time.Now()
		for i := range n {
			time.Sleep(time.Until(start.Add(time.Duration(i) * time.Second / time.Duration(*killRate))))
			wg.Go(func() { acked[i] = deliverOnce(client, base.Load().(string), i, bodies[i]) })
			sent.Add(1)
		}
		wg.Wait()
	}()
	appkit.WaitFor(t, 60*time.Second, "half the deliveries sent", func() bool { return int(sent.Load()) >= n/2 })
	if err := first.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	first.cmd.Wait()
	t.Logf("%v: killed the serve process after %d deliveries were sent", time.Since(begin).Round(time.Millisecond), sent.Load())
	base.Store(startChild(t, w, database).base)
	<-done
	before := 0
	for _, ok := range acked {
		if ok {
			before++
		}
	}
	t.Logf("%v: %d of %d deliveries answered 2xx during the burst; redelivering the rest", time.Since(begin).Round(time.Millisecond), before, n)
	client := &http.Client{Timeout: 10 * time.Second}
	for i := range n {
		for deadline := time.Now().Add(30 * time.Second); !acked[i]; time.Sleep(20 * time.Millisecond) {
			if acked[i] = deliverOnce(client, base.Load().(string), i, bodies[i]); !acked[i] && time.Now().After(deadline) {
				t.Fatalf("delivery %d never accepted", i)
			}
		}
	}
	appkit.WaitFor(t, 180*time.Second, "every pull request judged", w.AllJudged(n))
	t.Logf("%v: every pull request judged; the fake's limits: %+v", time.Since(begin).Round(time.Millisecond), w.F.LimitStats())
	checkExactlyOnce(t, w, database, n)
}

// deliverOnce sends delivery i's body once and reports whether it was
// answered 2xx.
func deliverOnce(client *http.Client, base string, i int, body []byte) bool {
	req, err := http.NewRequest(http.MethodPost, base+"/webhook", bytes.NewReader(body))
	if err != nil {
		return false
	}
	req.Header.Set("X-GitHub-Event", "pull_request")
	req.Header.Set("X-GitHub-Delivery", fmt.Sprintf("l-%d", i))
	req.Header.Set("X-Hub-Signature-256", appkit.Sign(appkit.Secret, body))
	resp, err := client.Do(req)
	if err != nil {
		return false
	}
	resp.Body.Close()
	return resp.StatusCode/100 == 2
}
