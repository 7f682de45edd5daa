package gh

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/aepgate/aepgate/checks"
)

// requestKinds names each request of f from the n-th on: "find" (the
// look-up of a head's runs), "annotations" (an earlier run's annotations
// listed), "create" or "update".
func requestKinds(f *checksFake, n int) []string {
	var out []string
	for _, r := range f.requests[n:] {
		method, path, _ := strings.Cut(r, " ")
		switch {
		case method == "GET" && strings.HasSuffix(path, "/annotations"):
			out = append(out, "annotations")
		case method == "GET":
			out = append(out, "find")
		case method == "POST":
			out = append(out, "create")
		default:
			out = append(out, "update")
		}
	}
	return out
}

// TestPublishOverSavesTheLookup: over a run the caller has just read
// (with its annotation count) PublishOver updates by ID without listing
// the head's runs, still lists the earlier annotations when there are
// some (GitHub cannot delete them: a stale one needs a fresh run), and
// looks the run up as Publish does when the count or the run is not the
// one it would update.
func TestPublishOverSavesTheLookup(t *testing.T) {
	tests := []struct {
		name      string
		problems  int // annotations of the first run
		second    func(checks.Run) checks.Run
		countRead bool
		wantReqs  []string
		wantRuns  int
	}{
		{"no annotations: one update, no look-up", 0, newConclusion, true, []string{"update"}, 1},
		{"unchanged: nothing", 0, func(r checks.Run) checks.Run { return r }, true, nil, 1},
		{"annotations carried: listed, then one update", 3, newConclusion, true, []string{"annotations", "update"}, 1},
		{"stale annotations: a fresh run", 3, func(r checks.Run) checks.Run {
			r.Annotations = r.Annotations[1:]
			return r
		}, true, []string{"annotations", "create"}, 2},
		{"count not read: looked up", 0, newConclusion, false, []string{"find", "update"}, 1},
		{"another external id: looked up", 0, func(r checks.Run) checks.Run {
			r.ExternalID = "other"
			return r
		}, true, []string{"find", "create"}, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, p := newTestPublisher(t)
			ctx := context.Background()
			first := lintRun(tt.problems)
			if _, err := p.Publish(ctx, "o", "r", first); err != nil {
				t.Fatal(err)
			}
			old := existingRun(&f.runs[0].run)
			old.Annotations, old.AnnotationsKnown = len(f.runs[0].anns), tt.countRead
			n := len(f.requests)
			if _, err := p.PublishOver(ctx, "o", "r", tt.second(first), old); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.wantReqs, requestKinds(f, n)); diff != "" {
				t.Errorf("requests (-want +got):\n%s", diff)
			}
			if len(f.runs) != tt.wantRuns {
				t.Errorf("runs = %d, want %d", len(f.runs), tt.wantRuns)
			}
		})
	}
}

func newConclusion(r checks.Run) checks.Run {
	r.Conclusion, r.Title = checks.ConclusionSuccess, "fixed"
	return r
}
