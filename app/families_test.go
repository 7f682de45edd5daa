package app_test

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/aepgate/aepgate/app"
	"github.com/aepgate/aepgate/app/route"
	"github.com/aepgate/aepgate/app/webhook"
	"github.com/aepgate/aepgate/internal/testkit/appkit"
)

// toyWork is the toy family's work.
type toyWork struct{}

func (toyWork) WorkKind() string { return "toy" }

// TestToyFamily: adding an event-triggered feature is one family in the
// table and its handler. Registered, its event is in the manifest's subscription list and
// the edge queues it; delivered, its work runs. Without it (the negative
// control) the same delivery is acknowledged and starts nothing.
func TestToyFamily(t *testing.T) {
	ran := make(chan string, 1)
	toy := route.Family{Name: "toy", Events: map[string][]string{"star": {"created"}}, View: func() any { return new(struct{}) },
		Derive: func(string, webhook.Envelope, []byte, int64) ([]route.Work, error) {
			return []route.Work{toyWork{}}, nil
		}}
	body := []byte(`{"action":"created","installation":{"id":9},"repository":{"name":"app","owner":{"login":"acme"}}}`)
	for _, registered := range []bool{true, false} {
		fs := app.Families()
		if registered {
			fs = append(fs, toy)
		}
		if got := slices.Contains(fs.Events(), "star"); got != registered {
			t.Fatalf("registered %v: star in the subscribed events = %v", registered, got)
		}
		o := appkit.Options(t, nil, "")
		o.Seams.Families = fs
		o.Seams.Handlers = func(h *route.Handlers) {
			route.Handle(h, func(_ context.Context, w route.Where, _ toyWork) error {
				ran <- w.FullName()
				return nil
			})
		}
		_, base := appkit.Start(t, o)
		appkit.Deliver(t, base, "star", fmt.Sprintf("toy-%v", registered), body)
		select {
		case repo := <-ran:
			if !registered || repo != "acme/app" {
				t.Errorf("registered %v: toy work ran for %q", registered, repo)
			}
		case <-time.After(3 * time.Second):
			if registered {
				t.Error("the toy family's work did not run")
			}
		}
	}
}

// TestFamiliesAreDisjoint: each event belongs to exactly one family of
// the App's table, so the table alone decides what a delivery asks for.
func TestFamiliesAreDisjoint(t *testing.T) {
	seen := map[string]string{}
	for _, f := range app.Families() {
		if f.View == nil || f.Derive == nil || len(f.Events) == 0 {
			t.Errorf("family %q lacks a view, work or events", f.Name)
		}
		for e := range f.Events {
			if other, dup := seen[e]; dup {
				t.Errorf("event %s in families %q and %q", e, other, f.Name)
			}
			seen[e] = f.Name
		}
	}
}
