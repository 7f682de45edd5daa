package gh_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/internal/testkit/ghfake"
)

// hookWorld is an App whose webhook answers with status, and three issues
// opened while it did.
func hookWorld(t *testing.T, status int) (*ghfake.Fake, *gh.Clients, []ghfake.Delivery) {
	t.Helper()
	recv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(status) }))
	t.Cleanup(recv.Close)
	f := ghfake.New(t)
	repo := f.CreateRepo("acme/widgets")
	key := ghfake.NewAppKey()
	app := f.App(32, key)
	app.Install("acme", ghfake.Permissions{"issues": "read"})
	f.SendWebhooks(recv.URL, "s3cret", app)
	for _, title := range []string{"a", "b", "c"} {
		repo.OpenIssue("alice", title, "")
	}
	return f, gh.NewClients(gh.NewAppAuth(32, key, f.URL(), nil), f.URL()), f.Deliveries()
}

func TestHookDeliveriesPagesNewestFirst(t *testing.T) {
	_, clients, sent := hookWorld(t, http.StatusServiceUnavailable)
	ctx := context.Background()
	var got []gh.HookDelivery
	cursor, pages := "", 0
	for {
		page, next, err := clients.HookDeliveries(ctx, cursor, 2)
		if err != nil {
			t.Fatal(err)
		}
		got, pages = append(got, page...), pages+1
		if next == "" {
			break
		}
		cursor = next
	}
	var want []gh.HookDelivery
	for i := len(sent) - 1; i >= 0; i-- {
		d := sent[i]
		want = append(want, gh.HookDelivery{ID: d.ID, GUID: d.GUID, StatusCode: http.StatusServiceUnavailable, Event: "issues", Action: "opened"})
	}
	if diff := cmp.Diff(want, got, cmp.Comparer(func(a, b time.Time) bool { return true })); diff != "" {
		t.Errorf("deliveries (-want +got):\n%s", diff)
	}
	if pages != 2 {
		t.Errorf("%d pages of 2 for 3 deliveries, want 2", pages)
	}
	for _, d := range got {
		if d.DeliveredAt.IsZero() {
			t.Errorf("delivery %d has no time", d.ID)
		}
	}
}

func TestRedeliverHookKeepsTheGUID(t *testing.T) {
	f, clients, sent := hookWorld(t, http.StatusServiceUnavailable)
	if err := clients.RedeliverHook(context.Background(), sent[1].ID); err != nil {
		t.Fatal(err)
	}
	all := f.Deliveries()
	if got := len(all); got != 4 {
		t.Fatalf("%d deliveries after one redelivery, want 4", got)
	}
	if last := all[3]; last.GUID != sent[1].GUID || !last.Redelivery {
		t.Errorf("redelivery = GUID %s redelivery %v, want GUID %s redelivery true", last.GUID, last.Redelivery, sent[1].GUID)
	}
	if err := clients.RedeliverHook(context.Background(), 999_999); err == nil {
		t.Error("redelivering an unknown delivery: no error, want GitHub's 404")
	}
}

func TestHookDeliveryCallsReportRateLimits(t *testing.T) {
	f, clients, sent := hookWorld(t, http.StatusServiceUnavailable)
	f.InjectFault("POST /app/hook/deliveries/{delivery_id}/attempts", ghfake.Fault{Kind: ghfake.FaultSecondary, RetryAfter: 90})
	f.InjectFault("GET /app/hook/deliveries", ghfake.Fault{Kind: ghfake.FaultSecondary, RetryAfter: 30})
	now := time.Now()
	err := clients.RedeliverHook(context.Background(), sent[0].ID)
	if wait, ok := gh.RetryWait(err, now); !ok || wait != 90*time.Second {
		t.Errorf("redeliver under a secondary limit: RetryWait(%v) = %v, %v; want 1m30s, true", err, wait, ok)
	}
	_, _, err = clients.HookDeliveries(context.Background(), "", 100)
	if wait, ok := gh.RetryWait(err, now); !ok || wait != 30*time.Second {
		t.Errorf("list under a secondary limit: RetryWait(%v) = %v, %v; want 30s, true", err, wait, ok)
	}
}
