package action

import (
	"context"
	"errors"
	"io/fs"
	"path/filepath"

	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/internal/readfile"
	"github.com/aepgate/aepgate/protocol/refusal"
	"github.com/aepgate/aepgate/protocol/releaserules"
)

// releaseRun verifies release closure for the tag (the tag input, else the
// event's) through the step's ReleaseVerifier, read-only, and builds
// aep/release-closure on the tag's commit. The local manifest is the file
// at the manifest path in the workspace (the release workflow's checkout).
// Without a token, or with a tag that is not vX.Y.Z, no request is made
// and the refusal says why.
func (r *runner) releaseRun(ctx context.Context) checks.Run {
	tag := r.in.Tag
	if tag == "" {
		tag = r.ev.Tag
	}
	repo := r.ev.Owner + "/" + r.ev.Repo
	res, stop := releaserules.Early(tag, repo, r.api.Releases != nil)
	if !stop {
		res = r.verifyRelease(ctx, repo, tag)
	}
	if !res.Closed {
		r.problems += max(len(res.Errors), 1)
	}
	sha := r.ev.SHA
	if res.TagSha != nil && *res.TagSha != "" {
		sha = *res.TagSha
	}
	run := checks.ReleaseRun(sha, res)
	run.DetailsURL = r.ev.RunURL
	return run
}

func (r *runner) verifyRelease(ctx context.Context, repo, tag string) releaserules.Result {
	opts := gh.ReleaseOptions{Repo: repo, Tag: tag, ManifestPath: r.in.Manifest, AssetNames: r.in.Assets}
	for _, p := range append([]string{r.in.Manifest}, r.in.Assets...) {
		if err := releaserules.SafePath(p); err != nil {
			return releaserules.Result{Tag: tag, Repository: repo, Errors: []string{"local-manifest-invalid"},
				Refusals: []refusal.Refusal{{Token: "local-manifest-invalid", Expected: "a path inside the repository", Seen: err.Error()}}}
		}
	}
	local, err := readfile.File(ctx, filepath.Join(r.ev.Workspace, filepath.FromSlash(r.in.Manifest)), readfile.Manifest)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		r.notes = append(r.notes, "Local manifest: "+err.Error())
	}
	opts.LocalManifest = local
	res, err := r.api.Releases.VerifyRelease(ctx, opts)
	if err != nil {
		return releaserules.Result{Tag: tag, Repository: repo, Errors: []string{"verification-interrupted"},
			Refusals: []refusal.Refusal{{Token: "verification-interrupted", Expected: "a finished verification", Seen: err.Error()}}}
	}
	return res
}
