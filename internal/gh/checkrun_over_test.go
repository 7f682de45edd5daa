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
		// count overrides the annotation count the caller read (-1: the
		// true one); the negative control says 0 while GitHub holds 3.
		count    int
		wantReqs []string
		wantRuns int
		wantAnns int // on the newest run
	}{
		{"no annotations: one update, no look-up", 0, newConclusion, true, -1, []string{"update"}, 1, 0},
		{"unchanged: nothing", 0, func(r checks.Run) checks.Run { return r }, true, -1, nil, 1, 0},
		{"annotations carried: listed, then one update", 3, newConclusion, true, -1, []string{"annotations", "update"}, 1, 3},
		{"stale annotations: a fresh run", 3, dropFirst, true, -1, []string{"annotations", "create"}, 2, 2},
		{"negative control: a count of 0 read wrongly keeps the stale annotation and appends the rest again", 3, dropFirst, true, 0, []string{"update"}, 1, 5},
		{"count not read: looked up", 0, newConclusion, false, -1, []string{"find", "update"}, 1, 0},
		{"another external id: looked up", 0, func(r checks.Run) checks.Run {
			r.ExternalID = "other"
			return r
		}, true, -1, []string{"find", "create"}, 2, 0},
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
			if tt.count >= 0 {
				old.Annotations = tt.count
			}
			n := len(f.requests)
			if _, err := p.PublishOver(ctx, "o", "r", tt.second(first), old); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.wantReqs, requestKinds(f, n)); diff != "" {
				t.Errorf("requests (-want +got):\n%s", diff)
			}
			if len(f.runs) != tt.wantRuns {
				t.Fatalf("runs = %d, want %d", len(f.runs), tt.wantRuns)
			}
			if n := len(f.runs[len(f.runs)-1].anns); n != tt.wantAnns {
				t.Errorf("annotations on the newest run = %d, want %d", n, tt.wantAnns)
			}
		})
	}
}

func newConclusion(r checks.Run) checks.Run {
	r.Conclusion, r.Title = checks.ConclusionSuccess, "fixed"
	return r
}

func dropFirst(r checks.Run) checks.Run {
	r.Annotations = r.Annotations[1:]
	return r
}
