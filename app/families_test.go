package app

import (
	"context"
	"fmt"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// workCmp compares typed work, whose fields are unexported.
var workCmp = cmp.Exporter(func(reflect.Type) bool { return true })

// routeOf is what the App's family table makes of a delivery.
func routeOf(t testing.TB, event string, body []byte) []work {
	t.Helper()
	_, ws, err := families(defaultFamilies()).route(event, body, testAppID)
	if err != nil {
		t.Fatal(err)
	}
	return ws
}

// installed gives a bare payload an installation and a repository.
func installed(payload string) []byte {
	if payload == "{" {
		return []byte(payload)
	}
	return []byte(`{"installation":{"id":9},"repository":{"name":"app","owner":{"login":"acme"},"default_branch":"main"},` + payload[1:])
}

// readbackWork is the readback work among ws.
func readbackWork(ws []work) []work {
	var out []work
	for _, w := range ws {
		if _, ok := w.(readBack); ok {
			out = append(out, w)
		}
	}
	return out
}

// judged is the pull request judgements among ws.
func judged(ws []work) []judgePR {
	var out []judgePR
	for _, w := range ws {
		if j, ok := w.(judgePR); ok {
			out = append(out, j)
		}
	}
	return out
}

// TestFamiliesAreDisjoint: each event belongs to exactly one family, so
// the table alone decides what a delivery asks for.
func TestFamiliesAreDisjoint(t *testing.T) {
	seen := map[string]string{}
	for _, f := range defaultFamilies() {
		if f.view == nil || f.work == nil || len(f.events) == 0 {
			t.Errorf("family %q lacks a view, work or events", f.name)
		}
		for e := range f.events {
			if other, dup := seen[e]; dup {
				t.Errorf("event %s in families %q and %q", e, other, f.name)
			}
			seen[e] = f.name
		}
	}
}

// toyWork records the repository it ran for.
type toyWork struct{ ran chan<- string }

func (t toyWork) run(_ context.Context, _ *App, _ *evaluator, w where) error {
	t.ran <- w.owner + "/" + w.repo
	return nil
}

// TestToyFamily: adding an event-triggered feature is one family in the
// table. Registered, its event is in the manifest's subscription list and
// the edge queues it; delivered, its work runs. Without it (the negative
// control) the same delivery is acknowledged and starts nothing.
func TestToyFamily(t *testing.T) {
	ran := make(chan string, 1)
	toy := family{name: "toy", events: map[string][]string{"star": {"created"}}, view: func() any { return new(struct{}) },
		work: func(string, envelope, []byte, int64) ([]work, error) { return []work{toyWork{ran}}, nil }}
	body := []byte(`{"action":"created","installation":{"id":9},"repository":{"name":"app","owner":{"login":"acme"}}}`)
	for _, registered := range []bool{true, false} {
		fs := families(defaultFamilies())
		if registered {
			fs = append(fs, toy)
		}
		if got := slices.Contains(fs.events(), "star"); got != registered {
			t.Fatalf("registered %v: star in the subscribed events = %v", registered, got)
		}
		o := testOptions(t, nil, "")
		o.families = fs
		_, base := startApp(t, o)
		deliver(t, base, "star", fmt.Sprintf("toy-%v", registered), body)
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
