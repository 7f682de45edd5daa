package webhook

import (
	"bytes"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"
)

// childEnv names the file a child test process writes its address to:
// set, the test binary serves the edge alone instead of running tests.
const childEnv = "AEPGATE_EDGE_CHILD_ADDR"

func TestMain(m *testing.M) {
	if path := os.Getenv(childEnv); path != "" {
		os.Exit(serveChild(path))
	}
	os.Exit(m.Run())
}

// serveChild serves the edge on an in-memory queue behind a server with
// the App's timeouts, writes its address to path and returns on SIGTERM.
func serveChild(path string) int {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, syscall.SIGTERM)
	// The four deliveries come from GitHub's (loopback) address, which
	// may use the whole budget.
	h := newEdge(&memQueue{})
	h.admit.hooks = loopbackHooks{}
	h.admit.budget = newByteBudget(MaxBuffered, true)
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 60 * time.Second}
	go srv.Serve(ln)
	if err := os.WriteFile(path, []byte("http://"+ln.Addr().String()), 0o600); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	<-stop
	srv.Close()
	return 0
}

// TestEdgeMemoryFourLargeDeliveries runs the edge alone in a child
// process, sends it four signed 25 MiB deliveries at once and reports the
// child's peak resident memory, which must stay under 200 MB: bodies
// past 1 MiB are spooled to disk while they arrive, so only verified
// ones are read back, each once.
func TestEdgeMemoryFourLargeDeliveries(t *testing.T) {
	if testing.Short() {
		t.Skip("memory test: starts a child process and sends 100 MiB; runs without -short")
	}
	if raceDetector {
		t.Skip("memory test: the race detector multiplies memory; the 200 MB bound is measured without it")
	}
	cmd, base := startChild(t)
	body := bigPush(MaxPayload)
	var wg sync.WaitGroup
	codes := make([]int, 4)
	for i := range codes {
		wg.Go(func() {
			req, _ := http.NewRequest(http.MethodPost, base+"/webhook", bytes.NewReader(body))
			req.Header.Set("X-GitHub-Event", "push")
			req.Header.Set("X-GitHub-Delivery", fmt.Sprintf("mem-%d", i))
			req.Header.Set("X-Hub-Signature-256", sign("current", body))
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Errorf("delivery %d: %v", i, err)
				return
			}
			resp.Body.Close()
			codes[i] = resp.StatusCode
		})
	}
	wg.Wait()
	cmd.Process.Signal(syscall.SIGTERM)
	cmd.Wait()
	for i, code := range codes {
		if code != http.StatusAccepted {
			t.Errorf("delivery %d: status %d, want 202", i, code)
		}
	}
	peak := cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss << 10
	t.Logf("edge child: peak resident memory %d MB after four %d-byte deliveries at once", peak>>20, len(body))
	if peak >= 200<<20 {
		t.Errorf("peak resident memory %d MB, want under 200 MB", peak>>20)
	}
}

// startChild starts the test binary as a child serving the edge and
// returns it with its base URL; it is killed when the test ends.
func startChild(t *testing.T) (*exec.Cmd, string) {
	t.Helper()
	addrFile := filepath.Join(t.TempDir(), "addr")
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childEnv+"="+addrFile)
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		if b, err := os.ReadFile(addrFile); err == nil && len(b) > 0 {
			return cmd, string(b)
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatal("child did not listen within 20 s")
	return nil, ""
}
