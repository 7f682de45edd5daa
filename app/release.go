package app

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"

	"github.com/aepgate/aepgate/app/writer"
	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/internal/store"
	"github.com/aepgate/aepgate/protocol/config"
	craft "github.com/aepgate/aepgate/protocol/refusal"
	"github.com/aepgate/aepgate/protocol/release"
	"github.com/aepgate/aepgate/protocol/snapshot"
)

// releaseActions are the release actions that can change whether a
// release is closed. GitHub sends no event when an asset is uploaded,
// replaced or deleted; the reconcile sweep re-verifies the Latest release.
var releaseActions = []string{"published", "released", "prereleased", "edited", "unpublished", "deleted"}

// tokenReleaseConfig is aepgate's own refusal (not craft's): the repository
// config that says what to verify cannot be used.
const tokenReleaseConfig = "config-invalid"

// releaseSource reads what a release evaluation needs (gh.Installation).
type releaseSource interface {
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

var _ releaseSource = (*gh.Installation)(nil)

// releaseJudge keeps aepgate/release for one installation. It writes the
// check run and the ledger row, and nothing else.
type releaseJudge struct {
	src      releaseSource
	w        writer.Writer
	download *http.Client
	locks    prLocker
	log      *slog.Logger
}

// releaseInput is one release evaluation's context.
type releaseInput struct {
	delivery, event, owner, repo string
	// tag is the release's tag; "" asks for the Latest release's.
	tag string
}

// judgeRelease verifies the closure of tag's release (the Latest release's
// when tag is "") and keeps aepgate/release on its tagged commit.
func (a *App) judgeRelease(ctx context.Context, w where, tag string, log *slog.Logger) error {
	in, err := a.clients.Installation(w.installation)
	if err != nil {
		return err
	}
	r := &releaseJudge{src: in, w: a.writer(in.CheckPublisher()), download: a.clients.DownloadClient(),
		locks: a.db, log: log}
	return r.judge(ctx, releaseInput{delivery: w.delivery, event: w.event, owner: w.owner, repo: w.repo, tag: tag})
}

// judge reads the config on the default branch, verifies the release with
// its inputs, records the decision and writes the run unless the commit
// already shows it (checks.Unchanged). A tag that is not vX.Y.Z is not
// read at all, and a tag that points at no commit leaves nothing to post
// on: either way the decision is recorded and nothing is written.
func (r *releaseJudge) judge(ctx context.Context, in releaseInput) error {
	if in.tag == "" {
		tag, err := r.src.LatestReleaseTag(ctx, in.owner, in.repo)
		if err != nil || tag == "" {
			return err
		}
		in.tag = tag
	}
	if res, stop := release.Early(in.tag, in.owner+"/"+in.repo, true); stop {
		// Not vX.Y.Z (a pre-release tag, say): not a release closure
		// judges, and no commit read to post on.
		r.log.Info("release tag is not vX.Y.Z; nothing verified", "tag", in.tag)
		return r.w.Record(ctx, releaseEntry(in, releaseConfig{}, gh.ReleaseClosure{Result: res}, checks.Run{}, false))
	}
	unlock, err := r.locks.Lock(ctx, fmt.Sprintf("%s/%s release %s", in.owner, in.repo, in.tag))
	if err != nil {
		return err
	}
	defer unlock()
	return r.verify(ctx, in)
}

// verify reads the config, verifies the release with its inputs and
// posts the verdict on the tagged commit; the caller holds the tag's lock.
func (r *releaseJudge) verify(ctx context.Context, in releaseInput) error {
	cfg, err := r.config(ctx, in)
	if err != nil {
		return err
	}
	closure, err := r.src.VerifyReleaseClosure(ctx, gh.ReleaseOptions{Repo: in.owner + "/" + in.repo, Tag: in.tag,
		ManifestPath: cfg.inputs.Manifest, AssetNames: cfg.inputs.Assets, DownloadClient: r.download})
	if err != nil {
		return err
	}
	closure.Result = withConfigProblem(closure.Result, cfg.problem)
	if closure.Commit == "" {
		r.log.Info("release tag points at no commit; nothing to post on", "tag", in.tag, "errors", closure.Result.Errors)
		return r.w.Record(ctx, releaseEntry(in, cfg, closure, checks.Run{}, false))
	}
	return r.post(ctx, in, cfg, closure)
}

// post records the decision, then writes the run when it changed.
func (r *releaseJudge) post(ctx context.Context, in releaseInput, cfg releaseConfig, closure gh.ReleaseClosure) error {
	run := checks.AppReleaseRun(closure.Commit, closure.Result, cfg.inputs)
	runs, err := r.src.AppCheckRuns(ctx, in.owner, in.repo, closure.Commit, run.Name)
	if err != nil {
		return err
	}
	old := newestRun(runs, run.ExternalID)
	write := old == nil || !checks.Unchanged(*old, run)
	if err := r.w.Record(ctx, releaseEntry(in, cfg, closure, run, write)); err != nil {
		return err
	}
	r.log.Info("release judged", "tag", in.tag, "commit", closure.Commit, "conclusion", run.Conclusion, "write", write)
	if _, err := r.w.Publish(ctx, in.owner, in.repo, run, write, old == nil); err != nil {
		return fmt.Errorf("publish %s for %s/%s %s: %w", run.Name, in.owner, in.repo, in.tag, err)
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

// releaseEntry is a release decision's ledger row.
func releaseEntry(in releaseInput, cfg releaseConfig, c gh.ReleaseClosure, run checks.Run, write bool) store.Entry {
	return store.Entry{
		Kind: "check_run:" + checks.NameAppRelease, DeliveryID: in.delivery,
		Subject: fmt.Sprintf("%s/%s@%s", in.owner, in.repo, in.tag),
		Body: map[string]any{
			"event": in.event, "repository": in.owner + "/" + in.repo, "tag": in.tag, "commit": c.Commit,
			"config_commit": cfg.commit, "config_valid": cfg.problem == "", "manifest": cfg.inputs.Manifest,
			"assets": cfg.inputs.Assets, "closed": c.Result.Closed, "errors": c.Result.Errors,
			"conclusion": run.Conclusion, "title": run.Title, "write": write,
		},
	}
}

// withConfigProblem adds the refusal for an unusable config: the release
// was verified with the defaults, and cannot pass.
func withConfigProblem(res release.Result, problem string) release.Result {
	if problem == "" {
		return res
	}
	rf := craft.Refusal{Token: tokenReleaseConfig, Expected: "a valid " + config.DefaultPath + " on the default branch (aepgate/config on a pull request lists its errors)", Seen: problem}
	res.Refusals = append([]craft.Refusal{rf}, res.Refusals...)
	res.Errors = craft.Tokens(res.Refusals)
	res.Closed = false
	return res
}
