// Package release keeps aepgate/release: it verifies a release's closure
// (craft §2) against the repository config on the default branch, records
// every decision in the ledger and writes the check run on the tagged
// commit when it changed. It takes the GitHub reads it needs (Source), a
// lock (Locker) and the App's one writer.Writer.
package release

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"

	"github.com/aepgate/aepgate/app/writer"
	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/protocol/releaserules"
	"github.com/aepgate/aepgate/protocol/snapshot"
)

// Actions are the release actions that can change whether a release is
// closed. GitHub sends no event when an asset is uploaded, replaced or
// deleted; the reconcile sweep re-verifies the Latest release.
var Actions = []string{"published", "released", "prereleased", "edited", "unpublished", "deleted"}

// Source reads what a release evaluation needs (gh.Installation).
type Source interface {
	// Snapshot, asked for no pull request, reads the repository config on
	// the default branch.
	Snapshot(ctx context.Context, req gh.SnapshotRequest) (*snapshot.PR, error)
	// VerifyReleaseClosure applies the release verify rules, read-only.
	VerifyReleaseClosure(ctx context.Context, opts gh.ReleaseOptions) (gh.ReleaseClosure, error)
	// AppCheckRuns lists the App's runs called name on sha.
	AppCheckRuns(ctx context.Context, owner, repo, sha, name string) ([]snapshot.ExistingRun, error)
	// LatestReleaseTag is the Latest release's tag, "" for none.
	LatestReleaseTag(ctx context.Context, owner, repo string) (string, error)
}

var _ Source = (*gh.Installation)(nil)

// Locker serialises the evaluations of one tag (store.DB is one).
type Locker interface {
	// Lock holds key until unlock is called.
	Lock(ctx context.Context, key string) (unlock func(), err error)
}

// Judge keeps aepgate/release for one installation. It writes the check
// run and the ledger row, and nothing else.
type Judge struct {
	// Src reads the config, the release and the runs already written.
	Src Source
	// W publishes the run and records the decision.
	W writer.Writer
	// Download fetches the release's assets.
	Download *http.Client
	// Locks serialises the evaluations of one tag.
	Locks Locker
	// Log receives what was judged.
	Log *slog.Logger
}

// Input is one release evaluation's context.
type Input struct {
	// Delivery and Event name what asked for the evaluation.
	Delivery, Event string
	// Owner and Repo name the repository.
	Owner, Repo string
	// Tag is the release's tag; "" asks for the Latest release's.
	Tag string
}

// Run reads the config on the default branch, verifies the release with
// its inputs, records the decision and writes the run unless the commit
// already shows it (checks.Unchanged). A tag that is not vX.Y.Z is not
// read at all, and a tag that points at no commit leaves nothing to post
// on: either way the decision is recorded and nothing is written.
func (j *Judge) Run(ctx context.Context, in Input) error {
	if in.Tag == "" {
		tag, err := j.Src.LatestReleaseTag(ctx, in.Owner, in.Repo)
		if err != nil || tag == "" {
			return err
		}
		in.Tag = tag
	}
	if res, stop := releaserules.Early(in.Tag, in.Owner+"/"+in.Repo, true); stop {
		// Not vX.Y.Z (a pre-release tag, say): not a release closure
		// judges, and no commit read to post on.
		j.Log.Info("release tag is not vX.Y.Z; nothing verified", "tag", in.Tag)
		return j.W.Record(ctx, entry(in, repoConfig{}, gh.ReleaseClosure{Result: res}, checks.Run{}, false))
	}
	unlock, err := j.Locks.Lock(ctx, fmt.Sprintf("%s/%s release %s", in.Owner, in.Repo, in.Tag))
	if err != nil {
		return err
	}
	defer unlock()
	return j.verify(ctx, in)
}

// verify reads the config, verifies the release with its inputs and
// posts the verdict on the tagged commit; the caller holds the tag's lock.
func (j *Judge) verify(ctx context.Context, in Input) error {
	cfg, err := j.config(ctx, in)
	if err != nil {
		return err
	}
	closure, err := j.Src.VerifyReleaseClosure(ctx, gh.ReleaseOptions{Repo: in.Owner + "/" + in.Repo, Tag: in.Tag,
		ManifestPath: cfg.inputs.Manifest, AssetNames: cfg.inputs.Assets, DownloadClient: j.Download})
	if err != nil {
		return err
	}
	closure.Result = withConfigProblem(closure.Result, cfg.problem)
	if closure.Commit == "" {
		j.Log.Info("release tag points at no commit; nothing to post on", "tag", in.Tag, "errors", closure.Result.Errors)
		return j.W.Record(ctx, entry(in, cfg, closure, checks.Run{}, false))
	}
	return j.post(ctx, in, cfg, closure)
}

// post records the decision, then writes the run when it changed.
func (j *Judge) post(ctx context.Context, in Input, cfg repoConfig, closure gh.ReleaseClosure) error {
	run := checks.AppReleaseRun(closure.Commit, closure.Result, cfg.inputs)
	runs, err := j.Src.AppCheckRuns(ctx, in.Owner, in.Repo, closure.Commit, run.Name)
	if err != nil {
		return err
	}
	old := newestRun(runs, run.ExternalID)
	write := old == nil || !checks.Unchanged(*old, run)
	if err := j.W.Record(ctx, entry(in, cfg, closure, run, write)); err != nil {
		return err
	}
	j.Log.Info("release judged", "tag", in.Tag, "commit", closure.Commit, "conclusion", run.Conclusion, "write", write)
	if _, err := j.W.Publish(ctx, in.Owner, in.Repo, run, write, old == nil); err != nil {
		return fmt.Errorf("publish %s for %s/%s %s: %w", run.Name, in.Owner, in.Repo, in.Tag, err)
	}
	return nil
}

// newestRun is the newest of runs with externalID, or nil.
func newestRun(runs []snapshot.ExistingRun, externalID string) *snapshot.ExistingRun {
	var found *snapshot.ExistingRun
	for i, r := range runs {
		if r.ExternalID == externalID && (found == nil || r.ID > found.ID) {
			found = &runs[i]
		}
	}
	return found
}
