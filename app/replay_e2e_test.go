package app_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/aepgate/aepgate/app"
	"github.com/aepgate/aepgate/internal/testkit/appkit"
	"github.com/google/go-cmp/cmp"
)

// TestReplayedBodyQueuedOnce: one signed body sent under four new delivery
// IDs at once (one batch of four) and then under a fifth (a batch of its
// own) is answered 202 once and 200 otherwise and has one job: the batch
// writer records the body's SHA-256 in the transaction that records the
// delivery IDs and inserts the jobs. Its negative control remembers no
// bodies (app.Options.noReplays): every ID is queued.
func TestReplayedBodyQueuedOnce(t *testing.T) {
	for _, tt := range []struct {
		name      string
		noReplays bool
		codes     []int
		jobs      int
	}{
		{"remembered", false, []int{200, 200, 200, 200, 202}, 1},
		{"broken: no body record", true, []int{202, 202, 202, 202, 202}, 5},
	} {
		t.Run(tt.name, func(t *testing.T) {
			o := appkit.Options(t, nil, "")
			o.BatchSize, o.BatchWait = 4, 5*time.Second
			o.Seams.NoReplays = tt.noReplays
			a, err := app.New(context.Background(), o)
			if err != nil {
				t.Fatal(err)
			}
			defer a.Close()
			srv := httptest.NewServer(a.Handler())
			defer srv.Close()
			body := []byte(`{"ref":"refs/heads/x","after":"` + fmt.Sprintf("%040x", 7) + `","commits":[],"installation":{"id":1},"repository":{"name":"app","owner":{"login":"acme"}},"pusher":{"name":"p"}}`)
			var mu sync.Mutex
			var codes []int
			var wg sync.WaitGroup
			for i := range 4 {
				wg.Go(func() {
					code := appkit.Deliver(t, srv.URL, "push", fmt.Sprintf("r-%d", i), body)
					mu.Lock()
					defer mu.Unlock()
					codes = append(codes, code)
				})
			}
			wg.Wait()
			codes = append(codes, appkit.Deliver(t, srv.URL, "push", "r-late", body))
			slices.Sort(codes)
			if diff := cmp.Diff(tt.codes, codes); diff != "" {
				t.Errorf("answers (-want +got):\n%s", diff)
			}
			n := 0
			for _, c := range deliveryJobs(t, a) {
				n += c
			}
			if n != tt.jobs {
				t.Errorf("%d delivery jobs, want %d", n, tt.jobs)
			}
		})
	}
}
