package app_test

import (
	"bytes"
	"context"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/aepgate/aepgate/internal/store"
	"github.com/aepgate/aepgate/internal/testkit/appkit"
	"github.com/aepgate/aepgate/internal/testkit/pgtest"
)

// child is a serve process started from the test binary.
type child struct {
	cmd  *exec.Cmd
	base string
}

func startChild(t *testing.T, w *appkit.World, database string) *child {
	t.Helper()
	return startChildWith(t, w, childConfig{Database: database, Pipeline: true})
}

// startChildWith is startChild with more of the child's settings.
func startChildWith(t *testing.T, w *appkit.World, c childConfig) *child {
	t.Helper()
	addrFile := filepath.Join(t.TempDir(), "addr")
	keyPEM := pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(appkit.Key(t))})
	c.GitHubURL, c.AddrFile, c.KeyPEM = w.F.URL(), addrFile, string(keyPEM)
	if c.Pipeline {
		c.Done = appkit.SeededUnits(w.F.URL())
	}
	cfg, _ := json.Marshal(c)
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childEnv+"="+string(cfg))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
		if testing.Verbose() && stderr.Len() > 0 {
			t.Logf("child stderr:\n%s", stderr.String())
		}
	})
	ch := &child{cmd: cmd}
	appkit.WaitFor(t, 20*time.Second, "child to listen", func() bool {
		b, err := os.ReadFile(addrFile)
		ch.base = string(b)
		return err == nil && len(b) > 0
	})
	return ch
}

// sendAll delivers n pull_request events, retrying each (same delivery
// ID, as GitHub's redelivery does) until some server answers 2xx.
func sendAll(w *appkit.World, base *atomic.Value, n int, sent *atomic.Int32) error {
	client := &http.Client{Timeout: 5 * time.Second}
	for i := range n {
		body := w.PREvent("opened", 1000+i, "Work-unit: #1")
		deadline := time.Now().Add(30 * time.Second)
		for {
			req, _ := http.NewRequest(http.MethodPost, base.Load().(string)+"/webhook", bytes.NewReader(body))
			req.Header.Set("X-GitHub-Event", "pull_request")
			req.Header.Set("X-GitHub-Delivery", fmt.Sprintf("k-%d", i))
			req.Header.Set("X-Hub-Signature-256", appkit.Sign(appkit.Secret, body))
			resp, err := client.Do(req)
			if err == nil {
				resp.Body.Close()
				if resp.StatusCode == 200 || resp.StatusCode == 202 {
					break
				}
			}
			if time.Now().After(deadline) {
				return fmt.Errorf("delivery %d never accepted: %v", i, err)
			}
			time.Sleep(20 * time.Millisecond)
		}
		sent.Add(1)
	}
	return nil
}

func TestE2EKilledMidwayLosesNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("reliability test: runs without -short")
	}
	runKillTest(t, "sqlite:"+filepath.Join(t.TempDir(), "aepgate.db"), 1)
}

// runKillTest sends 500 deliveries to replicas serve processes sharing
// database, SIGKILLs the first halfway, restarts it, and checks every
// delivery was judged with exactly one write each.
func runKillTest(t *testing.T, database string, replicas int) {
	const n = 500
	begin := time.Now()
	w := appkit.NewWorld(t)
	w.AddPRs(n)
	w.EnforceLimits(appkit.Limits())
	// A slow GitHub keeps jobs in flight when the process dies, so the
	// rescue of jobs a dead process left running is exercised.
	w.SlowGraphQL(20 * time.Millisecond)
	t.Logf("%v: %d pull requests on the fake", time.Since(begin).Round(time.Millisecond), n)
	first := startChild(t, w, database)
	for range replicas - 1 {
		startChild(t, w, database)
	}
	var base atomic.Value
	base.Store(first.base)
	var sent atomic.Int32
	errc := make(chan error, 1)
	go func() { errc <- sendAll(w, &base, n, &sent) }()
	appkit.WaitFor(t, 30*time.Second, "half the deliveries", func() bool { return sent.Load() >= n/2 })
	if err := first.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	first.cmd.Wait()
	t.Logf("%v: killed the serve process after %d deliveries", time.Since(begin).Round(time.Millisecond), sent.Load())
	second := startChild(t, w, database)
	base.Store(second.base)
	if err := <-errc; err != nil {
		t.Fatal(err)
	}
	appkit.WaitFor(t, 90*time.Second, "every pull request judged", w.AllJudged(n))
	t.Logf("%v: every pull request judged; the fake's limits: %+v", time.Since(begin).Round(time.Millisecond), w.F.LimitStats())
	checkExactlyOnce(t, w, database, n)
}

// checkExactlyOnce checks that each of the n pull requests got exactly one
// check run and the ledger holds a decision for each, once the queue has
// had half a second to show any duplicate.
func checkExactlyOnce(t *testing.T, w *appkit.World, database string, n int) {
	t.Helper()
	begin := time.Now()
	time.Sleep(500 * time.Millisecond)
	if d := w.Duplicates(); len(d) > 0 {
		t.Errorf("duplicated writes: %v", d)
	}
	if _, writes, _ := w.Counts(); writes != n {
		t.Errorf("%d writes for %d deliveries, want exactly one each:\n%s", writes, n, w.WriteLog())
	}
	if got := w.F.Calls("POST /repos/{owner}/{repo}/check-runs"); got != n {
		t.Errorf("%d check runs created for %d deliveries, want exactly one each:\n%s", got, n, w.WriteLog())
	}
	db, err := store.Open(context.Background(), database)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var res store.VerifyResult
	appkit.WaitFor(t, 30*time.Second, "a ledger decision for every delivery", func() bool {
		res, err = db.VerifyLedger(context.Background())
		return err != nil || !res.OK() || res.Rows >= int64(n)
	})
	if err != nil || !res.OK() {
		t.Errorf("ledger after the crash: %+v %v", res, err)
	}
	t.Logf("%v: ledger: %d decisions recorded for %d deliveries", time.Since(begin).Round(time.Millisecond), res.Rows, n)
}

func TestE2EPostgresTwoReplicasKilledMidway(t *testing.T) {
	if testing.Short() {
		t.Skip("reliability test: runs without -short")
	}
	runKillTest(t, pgtest.Start(t), 2)
}
