package app_test

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/aepgate/aepgate/app"
	"github.com/aepgate/aepgate/internal/testkit/appkit"
	"github.com/aepgate/aepgate/internal/testkit/appkit/toyfeature"
)

// TestToyFeature: adding a feature (its event family, its work and its
// check) is one line, Seams.Features = append(app.Features(), …), here
// internal/testkit/appkit/toyfeature. With the line its event is in the
// subscribed events, the edge queues its delivery, its work runs and its
// check run appears on GitHub. Without it (the negative control) the event
// is not subscribed and the same delivery writes nothing.
func TestToyFeature(t *testing.T) {
	for _, registered := range []bool{true, false} {
		w := appkit.NewWorld(t)
		w.AddPR(10, "")
		o := appkit.Options(t, w, "")
		if registered {
			o.Seams.Features = append(app.Features(), toyfeature.Feature())
		}
		if got := slices.Contains(app.EventsOf(o.Seams.Features), "commit_comment"); got != registered {
			t.Fatalf("registered %v: commit_comment in the subscribed events = %v", registered, got)
		}
		_, base := appkit.Start(t, o)
		body := w.Payload("created", map[string]any{"comment": map[string]any{"id": 7, "commit_id": w.Heads[10], "user": map[string]any{"login": "carol"}}})
		if code := appkit.Deliver(t, base, "commit_comment", fmt.Sprintf("toy-%v", registered), body); code >= 300 {
			t.Fatalf("registered %v: delivery answered %d", registered, code)
		}
		ran := appkit.WaitUntil(3*time.Second, func() bool { return w.Run(toyfeature.CheckName, 10) != nil })
		if ran != registered {
			t.Fatalf("registered %v: the toy check run appeared = %v", registered, ran)
		}
		if registered {
			if r := w.Run(toyfeature.CheckName, 10); r.Conclusion != "success" || r.Title != "noted by carol" {
				t.Errorf("toy check run = %s %q, want success \"noted by carol\"", r.Conclusion, r.Title)
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
