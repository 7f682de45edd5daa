package gh

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/google/go-github/v62/github"

	"github.com/aepgate/aepgate/protocol/refusal"
	"github.com/aepgate/aepgate/protocol/releaserules"
	"github.com/aepgate/aepgate/protocol/snapshot"
)

// ReleaseClosure is a release-closure verdict as the App reports it.
type ReleaseClosure struct {
	// Result is the verdict (release.Verify over what GitHub holds).
	Result releaserules.Result
	// Commit is the commit the tag points at: an annotated tag's target,
	// or a lightweight tag's own commit (closure refuses those, and the App
	// says so there). Empty when the tag could not be read.
	Commit string
}

// VerifyReleaseClosure is VerifyRelease with the installation's token, for
// the App. The App has no working directory: the manifest at
// opts.ManifestPath on the default branch head stands for the local
// manifest (opts.LocalManifest is ignored); when the tag peels to that
// head it is the file already read at the tag, so it costs no request.
//
// A read that fails with a rate limit, a server error (5xx) or no answer at
// all makes it return that error, so the job waits or is retried instead of
// posting a failure that only says GitHub was busy; any other failed read
// counts as absent and earns its refusal token, as in VerifyRelease.
func (in *Installation) VerifyReleaseClosure(ctx context.Context, opts ReleaseOptions) (ReleaseClosure, error) {
	if res, stop := releaserules.Early(opts.Tag, opts.Repo, true); stop {
		return ReleaseClosure{Result: res}, nil
	}
	opts.Repo, _ = releaserules.ParseRepository(opts.Repo)
	owner, name, _ := strings.Cut(opts.Repo, "/")
	w := &transientWatch{}
	r := &releaseReader{c: in.releaseClient(w), owner: owner, repo: name, dl: w.client(opts.DownloadClient)}
	snap := r.snapshot(ctx, opts)
	snap.LocalManifest = r.defaultBranchManifest(ctx, snap)
	if err := ctx.Err(); err != nil {
		return ReleaseClosure{}, fmt.Errorf("verify release %s: %w", opts.Tag, err)
	}
	if err := w.first(); err != nil {
		return ReleaseClosure{}, fmt.Errorf("verify release %s: %w", opts.Tag, err)
	}
	res := releaserules.Verify(snap)
	res.Notes = r.notes
	res.Refusals = standIn(res.Refusals, snap.ManifestPath)
	return ReleaseClosure{Result: res, Commit: taggedCommit(snap)}, nil
}

// releaseClient is a go-github client of its own over the installation's
// transport (token, pacing, rate limits, ETags), watched by w: go-github's
// asset download swaps the client's redirect policy while it runs, which
// must not touch the client other evaluations share.
func (in *Installation) releaseClient(w *transientWatch) *github.Client {
	c := github.NewClient(&http.Client{Transport: w.wrap(in.hc.Transport)})
	c.BaseURL, c.UploadURL = in.rest.BaseURL, in.rest.UploadURL
	return c
}

// defaultBranchManifest is the manifest on the default branch head: the
// file read at the tag when the tag peels to that head, else one read.
func (r *releaseReader) defaultBranchManifest(ctx context.Context, s releaserules.Snapshot) []byte {
	if s.MainSha == "" {
		return nil
	}
	f, done := s.Files[s.ManifestPath]
	if !done || s.PeeledSha != s.MainSha {
		f = r.file(ctx, s.ManifestPath, s.MainSha)
	}
	if !f.Found {
		return nil
	}
	return f.Content
}

// standIn rewrites what local-manifest-invalid expected: in the App the
// default branch's manifest is the local one.
func standIn(rs []refusal.Refusal, manifest string) []refusal.Refusal {
	for i, r := range rs {
		if r.Token == releaserules.TokenLocalManifest {
			rs[i].Expected = "a valid " + manifest + " on the default branch head (the App's stand-in for the local manifest)"
		}
	}
	return rs
}

// taggedCommit is the commit the tag points at, when the snapshot shows one.
func taggedCommit(s releaserules.Snapshot) string {
	switch {
	case s.TagObjectType == "tag" && s.PeeledType == "commit":
		return s.PeeledSha
	case s.TagObjectType == "commit":
		return s.TagObjectSha
	}
	return ""
}

// DownloadClient is the client the App downloads release assets with: its
// transport without the installation's token (GitHub redirects downloads
// to signed storage URLs), 60 s per download.
func (c *Clients) DownloadClient() *http.Client {
	return &http.Client{Transport: c.auth.base, Timeout: 60 * time.Second}
}

// AppCheckRuns lists this App's newest check runs named name on sha, 100 a
// page, as the publisher finds them (filter=latest).
//
// https://docs.github.com/rest/checks/runs#list-check-runs-for-a-git-reference
func (in *Installation) AppCheckRuns(ctx context.Context, owner, repo, sha, name string) ([]snapshot.ExistingRun, error) {
	opts := &github.ListCheckRunsOptions{CheckName: github.String(name), Filter: github.String("latest"),
		AppID: github.Int64(in.appID), ListOptions: github.ListOptions{PerPage: 100}}
	var out []snapshot.ExistingRun
	for {
		res, resp, err := in.rest.Checks.ListCheckRunsForRef(ctx, owner, repo, sha, opts)
		if err != nil {
			return nil, classify(fmt.Sprintf("list check runs %q on %s", name, sha), err)
		}
		for _, cr := range res.CheckRuns {
			if cr.GetName() == name && cr.GetHeadSHA() == sha {
				out = append(out, existingRun(cr))
			}
		}
		if resp.NextPage == 0 {
			return out, nil
		}
		opts.Page = resp.NextPage
	}
}

// LatestReleaseTag is the tag of owner/repo's Latest release, "" when it
// has none (GitHub answers 404).
//
// https://docs.github.com/rest/releases/releases#get-the-latest-release
func (in *Installation) LatestReleaseTag(ctx context.Context, owner, repo string) (string, error) {
	rel, resp, err := in.rest.Repositories.GetLatestRelease(ctx, owner, repo)
	if resp != nil && resp.StatusCode == http.StatusNotFound {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("read the latest release of %s/%s: %w", owner, repo, err)
	}
	return rel.GetTagName(), nil
}
