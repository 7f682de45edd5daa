package gh

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/google/go-github/v62/github"

	"github.com/aepgate/aepgate/protocol/releaserules"
)

// ReleaseOptions says which release VerifyRelease checks.
type ReleaseOptions struct {
	// Repo is "owner/name".
	Repo string
	// Tag is "v<major>.<minor>.<patch>".
	Tag string
	// ManifestPath is the manifest's path in the repository; empty means
	// "manifest.sha256".
	ManifestPath string
	// AssetNames are the release assets to download and compare; empty
	// means the manifest alone. Each is also a path in the repository.
	AssetNames []string
	// LocalManifest is the working directory's manifest (nil when it is
	// missing, which is local-manifest-invalid).
	LocalManifest []byte
	// DownloadClient follows asset download redirects. It must not carry
	// the API token (GitHub redirects to signed storage URLs). Nil means a
	// plain client with a 60 s timeout.
	DownloadClient *http.Client
}

// DefaultManifestPath is the manifest's path when none is given.
const DefaultManifestPath = "manifest.sha256"

// VerifyRelease checks release closure for opts.Tag in opts.Repo through
// client, read-only (craft-rules §2, §8.2): the default branch head, the
// annotated tag peeled to a commit, the release and Latest, every listed
// asset downloaded and hashed against GitHub's digest, the file at the tag
// and the manifest (each only when it could be read: one refusal per
// cause), the manifest at the tag against the local one, and the
// release-body receipt. A GitHub read that fails counts as absent and earns its refusal
// token (fail closed); Result.Notes says what failed, and
// Result.Unreachable whether GitHub or the network did not answer. The only
// error is a cancelled context.
//
// GitHub API docs: https://docs.github.com/rest/git/refs#get-a-reference,
// https://docs.github.com/rest/releases/releases#get-a-release-by-tag-name,
// https://docs.github.com/rest/repos/contents#get-repository-content,
// https://docs.github.com/rest/releases/assets#get-a-release-asset
func VerifyRelease(ctx context.Context, client *github.Client, opts ReleaseOptions) (releaserules.Result, error) {
	if res, stop := releaserules.Early(opts.Tag, opts.Repo, client != nil); stop {
		return res, nil
	}
	opts.Repo, _ = releaserules.ParseRepository(opts.Repo)
	owner, name, _ := strings.Cut(opts.Repo, "/")
	r := &releaseReader{c: client, owner: owner, repo: name, dl: opts.DownloadClient}
	if r.dl == nil {
		r.dl = &http.Client{Timeout: 60 * time.Second}
	}
	snap := r.snapshot(ctx, opts)
	if err := ctx.Err(); err != nil {
		return releaserules.Result{}, fmt.Errorf("verify release: %w", err)
	}
	res := releaserules.Verify(snap)
	res.Notes, res.Unreachable = r.notes, r.unreachable
	return res, nil
}

// releaseReader gathers a release.Snapshot, noting each read that failed.
type releaseReader struct {
	c           *github.Client
	owner, repo string
	dl          *http.Client
	notes       []string
	// unreachable: a read failed with GitHub or the network not answering.
	unreachable bool
}

// note records a read that failed; an error among args that is Unreachable
// marks the whole verification as unreachable.
func (r *releaseReader) note(format string, args ...any) {
	for _, a := range args {
		if err, ok := a.(error); ok && Unreachable(err) {
			r.unreachable = true
		}
	}
	r.notes = append(r.notes, fmt.Sprintf(format, args...))
}

func (r *releaseReader) snapshot(ctx context.Context, opts ReleaseOptions) releaserules.Snapshot {
	s := releaserules.Snapshot{Repository: opts.Repo, Tag: opts.Tag, ManifestPath: opts.ManifestPath,
		LocalManifest: opts.LocalManifest, AssetNames: opts.AssetNames,
		Files: map[string]releaserules.File{}, Downloads: map[string]releaserules.Download{}}
	if s.ManifestPath == "" {
		s.ManifestPath = DefaultManifestPath
	}
	if len(s.AssetNames) == 0 {
		s.AssetNames = []string{s.ManifestPath}
	}
	s.DefaultBranch, s.MainSha = r.defaultHead(ctx)
	s.TagObjectType, s.TagObjectSha = r.ref(ctx, "tags/"+opts.Tag)
	if s.TagObjectType == "tag" {
		s.PeeledType, s.PeeledSha = r.peel(ctx, s.TagObjectSha)
	}
	var assets []rawAsset
	s.Release, assets = r.releaseByTag(ctx, opts.Tag)
	s.Latest, _ = r.latest(ctx)
	if s.PeeledType == "commit" && s.PeeledSha != "" {
		r.readFiles(ctx, &s)
	}
	if s.Release != nil {
		for _, n := range s.AssetNames {
			s.Downloads[n] = r.download(ctx, assets, n)
		}
	}
	return s
}

// readFiles reads, at the peeled commit, the manifest, every path it lists
// and every asset's path, each once.
func (r *releaseReader) readFiles(ctx context.Context, s *releaserules.Snapshot) {
	at := s.PeeledSha
	s.Files[s.ManifestPath] = r.file(ctx, s.ManifestPath, at)
	paths := append([]string{}, s.AssetNames...)
	if f := s.Files[s.ManifestPath]; f.Found {
		if m, err := releaserules.ParseManifest(f.Content); err == nil {
			paths = append(paths, m.Paths()...)
		}
	}
	for _, p := range paths {
		if _, done := s.Files[p]; !done {
			s.Files[p] = r.file(ctx, p, at)
		}
	}
}
