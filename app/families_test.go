package app_test

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/aepgate/aepgate/app/route"
	"github.com/aepgate/aepgate/app/webhook"
	"github.com/aepgate/aepgate/internal/testkit/appkit"
)

// toyWork records the repository it ran for.
type toyWork struct{ ran chan<- string }

func (t toyWork) Run(_ context.Context, _ route.Runner, w route.Where) error {
	t.ran <- w.FullName()
	return nil
}

// TestToyFamily: adding an event-triggered feature is one family in the
// table. Registered, its event is in the manifest's subscription list and
// the edge queues it; delivered, its work runs. Without it (the negative
// control) the same delivery is acknowledged and starts nothing.
func TestToyFamily(t *testing.T) {
	ran := make(chan string, 1)
	toy := route.Family{Name: "toy", Events: map[string][]string{"star": {"created"}}, View: func() any { return new(struct{}) },
		Derive: func(string, webhook.Envelope, []byte, int64) ([]route.Work, error) {
			return []route.Work{toyWork{ran}}, nil
		}}
	body := []byte(`{"action":"created","installation":{"id":9},"repository":{"name":"app","owner":{"login":"acme"}}}`)
	for _, registered := range []bool{true, false} {
		fs := route.Defaults()
		if registered {
			fs = append(fs, toy)
		}
		if got := slices.Contains(fs.Events(), "star"); got != registered {
			t.Fatalf("registered %v: star in the subscribed events = %v", registered, got)
		}
		o := appkit.Options(t, nil, "")
		o.Seams.Families = fs
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
