package release

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/protocol/releaserules"
	"github.com/aepgate/aepgate/protocol/snapshot"
)

const commit = "0123456789abcdef0123456789abcdef01234567"

// shown is the run GitHub shows after run was written.
func shown(run checks.Run) snapshot.ExistingRun {
	run = checks.Fit(run)
	return snapshot.ExistingRun{ID: 7, Name: run.Name, Status: string(run.EffectiveStatus()), Conclusion: string(run.Conclusion),
		Title: checks.OutputTitle(run), Summary: run.Summary, Text: run.Text, ExternalID: run.ExternalID}
}

func TestRun(t *testing.T) {
	closed := gh.ReleaseClosure{Commit: commit, Result: releaserules.Result{Closed: true, Version: "1.2.3", Repository: "o/r"}}
	valid := snapshot.ConfigFile{Found: true, CommitSHA: "c0", Text: "version: 1\nrelease:\n  assets: [install.sh]\n"}
	unchanged := checks.AppReleaseRun(commit, releaserules.Result{Closed: true, Version: "1.2.3", Repository: "o/r", Tag: "v1.2.3"},
		checks.ReleaseInputs{Manifest: "manifest.sha256", Assets: []string{"install.sh"}, ConfigFound: true})
	tests := []struct {
		name     string
		tag      string
		src      fakeSource
		calls    []string
		verified []string // tags verified
		closed   []bool   // each ledger row's verdict
		conclude string   // the written run's conclusion, "" for none
	}{
		{name: "fresh run created", tag: "v1.2.3", src: fakeSource{config: valid, closure: closed},
			calls: []string{"lock", "record", "create", "unlock"}, verified: []string{"v1.2.3"}, closed: []bool{true}, conclude: "success"},
		{name: "changed run updated", tag: "v1.2.3", src: fakeSource{config: valid, closure: closed, runs: []snapshot.ExistingRun{{ID: 3, ExternalID: unchanged.ExternalID}}},
			calls: []string{"lock", "record", "publish", "unlock"}, verified: []string{"v1.2.3"}, closed: []bool{true}, conclude: "success"},
		{name: "unchanged run not written", tag: "v1.2.3", src: fakeSource{config: valid, closure: closed, runs: []snapshot.ExistingRun{shown(unchanged)}},
			calls: []string{"lock", "record", "unlock"}, verified: []string{"v1.2.3"}, closed: []bool{true}},
		{name: "latest release", src: fakeSource{latest: "v2.0.0", config: valid, closure: closed},
			calls: []string{"lock", "record", "create", "unlock"}, verified: []string{"v2.0.0"}, closed: []bool{true}, conclude: "success"},
		{name: "no latest release", src: fakeSource{config: valid, closure: closed}},
		{name: "pre-release tag not read", tag: "v1.2.3-rc.1", src: fakeSource{config: valid, closure: closed},
			calls: []string{"record"}, closed: []bool{false}},
		{name: "tag on no commit", tag: "v1.2.3", src: fakeSource{config: valid, closure: gh.ReleaseClosure{Result: releaserules.Result{Errors: []string{"tag-missing"}}}},
			calls: []string{"lock", "record", "unlock"}, verified: []string{"v1.2.3"}, closed: []bool{false}},
		{name: "broken config fails a closed release", tag: "v1.2.3", src: fakeSource{config: snapshot.ConfigFile{Found: true, Text: "version: 1\nrelease: [\n"}, closure: closed},
			calls: []string{"lock", "record", "create", "unlock"}, verified: []string{"v1.2.3"}, closed: []bool{false}, conclude: "failure"},
		{name: "unreadable config fails a closed release", tag: "v1.2.3", src: fakeSource{config: snapshot.ConfigFile{Unreadable: "Resource not accessible by integration"}, closure: closed},
			calls: []string{"lock", "record", "create", "unlock"}, verified: []string{"v1.2.3"}, closed: []bool{false}, conclude: "failure"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src, sink := tt.src, &fakeSink{}
			if err := newJudge(&src, sink).Run(context.Background(), Input{Delivery: "d1", Event: "release", Owner: "o", Repo: "r", Tag: tt.tag}); err != nil {
				t.Fatal(err)
			}
			var verified []string
			for _, v := range src.verified {
				verified = append(verified, v.Tag)
			}
			var closedRows []bool
			for _, e := range sink.entries {
				closedRows = append(closedRows, e.Body.(map[string]any)["closed"].(bool))
			}
			var conclude string
			if len(sink.written) == 1 {
				conclude = string(sink.written[0].Conclusion)
			}
			got := []any{sink.calls, verified, closedRows, conclude}
			want := []any{tt.calls, tt.verified, tt.closed, tt.conclude}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("calls, verified, closed, conclusion (-want +got):\n%s", diff)
			}
		})
	}
}

// TestRunVerifiesWithConfig: the manifest and assets the config names are
// what the release is verified against, and the ledger row says so.
func TestRunVerifiesWithConfig(t *testing.T) {
	src := &fakeSource{config: snapshot.ConfigFile{Found: true, CommitSHA: "c0",
		Text: "version: 1\nrelease:\n  manifest: SUMS\n  assets: [SUMS, a.tgz]\n"}, closure: gh.ReleaseClosure{Commit: commit}}
	sink := &fakeSink{}
	if err := newJudge(src, sink).Run(context.Background(), Input{Delivery: "d1", Event: "release", Owner: "o", Repo: "r", Tag: "v1.0.0"}); err != nil {
		t.Fatal(err)
	}
	body := sink.entries[0].Body.(map[string]any)
	got := []any{src.verified[0].Repo, src.verified[0].ManifestPath, src.verified[0].AssetNames,
		sink.entries[0].Subject, body["config_commit"], body["config_valid"]}
	want := []any{"o/r", "SUMS", []string{"SUMS", "a.tgz"}, "o/r@v1.0.0", "c0", true}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("verified with, recorded (-want +got):\n%s", diff)
	}
}
