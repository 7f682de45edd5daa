package release

import (
	"context"
	"io"
	"log/slog"

	"github.com/aepgate/aepgate/app/writer"
	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/internal/store"
	"github.com/aepgate/aepgate/protocol/snapshot"
)

// fakeSource is a Source with canned answers; it remembers what it was
// asked to verify.
type fakeSource struct {
	latest   string
	config   snapshot.ConfigFile
	closure  gh.ReleaseClosure
	runs     []snapshot.ExistingRun
	verified []gh.ReleaseOptions
}

func (f *fakeSource) Snapshot(context.Context, gh.SnapshotRequest) (*snapshot.PR, error) {
	return &snapshot.PR{Config: f.config}, nil
}

func (f *fakeSource) VerifyReleaseClosure(_ context.Context, opts gh.ReleaseOptions) (gh.ReleaseClosure, error) {
	f.verified = append(f.verified, opts)
	c := f.closure
	c.Result.Tag = opts.Tag
	return c, nil
}

func (f *fakeSource) AppCheckRuns(context.Context, string, string, string, string) ([]snapshot.ExistingRun, error) {
	return f.runs, nil
}

func (f *fakeSource) LatestReleaseTag(context.Context, string, string) (string, error) {
	return f.latest, nil
}

// fakeSink is the writer's publisher and ledger, and the judge's lock: it
// remembers each call as a word ("record", "publish", "create", "lock").
type fakeSink struct {
	calls   []string
	entries []store.Entry
	written []checks.Run
}

func (f *fakeSink) Publish(_ context.Context, _, _ string, run checks.Run) (int64, error) {
	f.calls, f.written = append(f.calls, "publish"), append(f.written, run)
	return 1, nil
}

func (f *fakeSink) PublishNew(_ context.Context, _, _ string, run checks.Run) (int64, error) {
	f.calls, f.written = append(f.calls, "create"), append(f.written, run)
	return 1, nil
}

func (f *fakeSink) Record(_ context.Context, e store.Entry) error {
	f.calls, f.entries = append(f.calls, "record"), append(f.entries, e)
	return nil
}

func (f *fakeSink) Has(context.Context, string) (bool, error) { return false, nil }

func (f *fakeSink) Lock(context.Context, string) (func(), error) {
	f.calls = append(f.calls, "lock")
	return func() { f.calls = append(f.calls, "unlock") }, nil
}

// newJudge is a Judge over src that writes to sink.
func newJudge(src *fakeSource, sink *fakeSink) *Judge {
	return &Judge{Src: src, W: writer.Writer{Pub: sink, Ledger: sink}, Locks: sink,
		Log: slog.New(slog.NewTextHandler(io.Discard, nil))}
}
