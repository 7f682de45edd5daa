package gh_test

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/internal/testkit/ghfake"
)

// TestSnapshotReadsAnnotationCounts: the snapshot reads how many
// annotations each of the App's runs at the head carries, so an update
// over it (CheckPublisher.PublishOver) still knows when GitHub holds
// annotations the new run no longer has. Updated over what the snapshot
// read, the run is written with one request and no look-up.
func TestSnapshotReadsAnnotationCounts(t *testing.T) {
	ghfake.RequireGraphQL(t)
	f, repo, in, _ := installation(t, readbackPerms)
	ctx := context.Background()
	repo.Branch("f", "main")
	repo.Commit("f", "feature", map[string]string{"x.go": "package x\n"})
	pr := repo.OpenPR("bob", "f", "main", "Feature", "Work-unit: #1")
	pub := in.CheckPublisher()
	run := func(problems int) checks.Run {
		r := checks.Run{Name: "aep/lint", HeadSHA: pr.Head(), ExternalID: "lint", Conclusion: checks.ConclusionFailure, Title: "problems", Summary: "summary"}
		for i := range problems {
			r.Annotations = append(r.Annotations, checks.Annotation{Path: "x.go", StartLine: i + 1, Level: checks.LevelFailure, Message: "problem"})
		}
		return r
	}
	if _, err := pub.PublishNew(ctx, "acme", "widgets", run(2)); err != nil {
		t.Fatal(err)
	}
	if _, err := pub.PublishNew(ctx, "acme", "widgets", checks.Run{Name: "aep/other", HeadSHA: pr.Head(), Conclusion: checks.ConclusionSuccess, Title: "fine", Summary: "fine"}); err != nil {
		t.Fatal(err)
	}
	s, err := in.Snapshot(ctx, gh.SnapshotRequest{Owner: "acme", Repo: "widgets", PR: pr.Number()})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]int{}
	for _, r := range s.Pull.Runs {
		if !r.AnnotationsKnown {
			t.Errorf("run %s: annotation count not read", r.Name)
		}
		got[r.Name] = r.Annotations
	}
	if diff := cmp.Diff(map[string]int{"aep/lint": 2, "aep/other": 0}, got); diff != "" {
		t.Errorf("annotation counts (-want +got):\n%s", diff)
	}
	f.ResetLog()
	next := run(2)
	next.Conclusion, next.Title = checks.ConclusionSuccess, "waived"
	if _, err := pub.PublishOver(ctx, "acme", "widgets", next, *s.Pull.Latest("aep/lint")); err != nil {
		t.Fatal(err)
	}
	want := map[string]int{"GET /repos/{owner}/{repo}/check-runs/{check_run_id}/annotations": 1, "PATCH /repos/{owner}/{repo}/check-runs/{check_run_id}": 1}
	if diff := cmp.Diff(want, f.Stats().ByRoute); diff != "" {
		t.Errorf("requests of an update over the snapshot's run (-want +got):\n%s", diff)
	}
}
