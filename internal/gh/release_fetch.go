package gh

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"net/url"
	"strings"

	"github.com/aepgate/aepgate/protocol/releaserules"
)

// defaultHead reads the repository's default branch and its head SHA.
func (r *releaseReader) defaultHead(ctx context.Context) (branch, sha string) {
	repo, _, err := r.c.Repositories.Get(ctx, r.owner, r.repo)
	if err != nil {
		r.note("read repository: %v", err)
		return "", ""
	}
	branch = repo.GetDefaultBranch()
	if branch == "" {
		r.note("read repository: no default branch")
		return "", ""
	}
	_, sha = r.ref(ctx, "heads/"+branch)
	return branch, sha
}

// ref reads refs/<ref> and returns its object type and SHA.
func (r *releaseReader) ref(ctx context.Context, ref string) (typ, sha string) {
	got, _, err := r.c.Git.GetRef(ctx, r.owner, r.repo, ref)
	if err != nil {
		r.note("read ref %s: %v", ref, err)
		return "", ""
	}
	// GetRef also answers a prefix match with the first of several refs;
	// only an exact answer counts.
	if got.GetRef() != "refs/"+ref {
		r.note("read ref %s: GitHub answered %s", ref, got.GetRef())
		return "", ""
	}
	return got.GetObject().GetType(), got.GetObject().GetSHA()
}

// peel reads an annotated tag object and returns its target.
func (r *releaseReader) peel(ctx context.Context, sha string) (typ, target string) {
	tag, _, err := r.c.Git.GetTag(ctx, r.owner, r.repo, sha)
	if err != nil {
		r.note("read tag object %s: %v", sha, err)
		return "", ""
	}
	return tag.GetObject().GetType(), tag.GetObject().GetSHA()
}

// rawRelease is a release's JSON; go-github v62 lacks assets' digest.
type rawRelease struct {
	ID              int64      `json:"id"`
	TagName         string     `json:"tag_name"`
	Draft           bool       `json:"draft"`
	Prerelease      bool       `json:"prerelease"`
	PublishedAt     *string    `json:"published_at"`
	TargetCommitish string     `json:"target_commitish"`
	Body            *string    `json:"body"`
	Assets          []rawAsset `json:"assets"`
}

type rawAsset struct {
	ID     int64   `json:"id"`
	Name   string  `json:"name"`
	Digest *string `json:"digest"`
}

func (r *releaseReader) getRelease(ctx context.Context, path string) (*rawRelease, error) {
	req, err := r.c.NewRequest("GET", fmt.Sprintf("repos/%s/%s/%s", r.owner, r.repo, path), nil)
	if err != nil {
		return nil, err
	}
	var rel rawRelease
	if _, err := r.c.Do(ctx, req, &rel); err != nil {
		return nil, err
	}
	return &rel, nil
}

func (r *releaseReader) releaseByTag(ctx context.Context, tag string) (*releaserules.Object, []rawAsset) {
	rel, err := r.getRelease(ctx, "releases/tags/"+url.PathEscape(tag))
	if err != nil {
		r.note("read release %s: %v", tag, err)
		return nil, nil
	}
	return toObject(rel), rel.Assets
}

func (r *releaseReader) latest(ctx context.Context) (*releaserules.Object, []rawAsset) {
	rel, err := r.getRelease(ctx, "releases/latest")
	if err != nil {
		r.note("read latest release: %v", err)
		return nil, nil
	}
	return toObject(rel), rel.Assets
}

func toObject(r *rawRelease) *releaserules.Object {
	o := &releaserules.Object{ID: r.ID, TagName: r.TagName, Draft: r.Draft, Prerelease: r.Prerelease,
		TargetCommitish: r.TargetCommitish}
	if r.PublishedAt != nil {
		o.PublishedAt = *r.PublishedAt
	}
	if r.Body != nil {
		o.Body = *r.Body
	}
	for _, a := range r.Assets {
		d := ""
		if a.Digest != nil {
			d = *a.Digest
		}
		o.Assets = append(o.Assets, releaserules.Asset{Name: a.Name, Digest: d})
	}
	return o
}

// rawContent is the Contents API's answer for a file.
type rawContent struct {
	Type     string  `json:"type"`
	Encoding string  `json:"encoding"`
	Size     int64   `json:"size"`
	SHA      string  `json:"sha"`
	Content  *string `json:"content"`
}

// file reads path at commit through the Contents API, decoding its base64
// strictly; a file too large for inline content (encoding "none") is read
// as a git blob, also strict base64.
func (r *releaseReader) file(ctx context.Context, path, commit string) releaserules.File {
	if releaserules.SafePath(path) != nil {
		r.note("read %s: unsafe path", path)
		return releaserules.File{}
	}
	u := fmt.Sprintf("repos/%s/%s/contents/%s?ref=%s", r.owner, r.repo, escapePath(path), url.QueryEscape(commit))
	req, err := r.c.NewRequest("GET", u, nil)
	if err != nil {
		r.note("read %s: %v", path, err)
		return releaserules.File{}
	}
	var c rawContent
	if _, err := r.c.Do(ctx, req, &c); err != nil {
		r.note("read %s at %s: %v", path, commit, err)
		return releaserules.File{}
	}
	if c.Type != "file" || c.Content == nil {
		r.note("read %s at %s: not a file with content (type %q)", path, commit, c.Type)
		return releaserules.File{}
	}
	if c.Encoding == "none" || (*c.Content == "" && c.Size > 0) {
		return r.blob(ctx, path, c.SHA)
	}
	b, err := releaserules.DecodeContent(*c.Content)
	if err != nil {
		r.note("read %s at %s: %v", path, commit, err)
		return releaserules.File{}
	}
	return releaserules.File{Found: true, Content: b}
}

func (r *releaseReader) blob(ctx context.Context, path, sha string) releaserules.File {
	req, err := r.c.NewRequest("GET", fmt.Sprintf("repos/%s/%s/git/blobs/%s", r.owner, r.repo, url.PathEscape(sha)), nil)
	if err != nil {
		r.note("read %s blob: %v", path, err)
		return releaserules.File{}
	}
	var c rawContent
	if _, err := r.c.Do(ctx, req, &c); err != nil || c.Content == nil || c.Encoding != "base64" {
		r.note("read %s blob %s: %v", path, sha, err)
		return releaserules.File{}
	}
	b, err := releaserules.DecodeContent(*c.Content)
	if err != nil {
		r.note("read %s blob %s: %v", path, sha, err)
		return releaserules.File{}
	}
	return releaserules.File{Found: true, Content: b}
}

func escapePath(p string) string {
	segs := strings.Split(p, "/")
	for i, s := range segs {
		segs[i] = url.PathEscape(s)
	}
	return strings.Join(segs, "/")
}

// download fetches the named asset (following GitHub's redirect) and
// hashes its bytes as they stream.
func (r *releaseReader) download(ctx context.Context, assets []rawAsset, name string) releaserules.Download {
	var id int64
	for _, a := range assets {
		if a.Name == name {
			id = a.ID
		}
	}
	if id == 0 {
		r.note("download %s: no such release asset", name)
		return releaserules.Download{}
	}
	rc, _, err := r.c.Repositories.DownloadReleaseAsset(ctx, r.owner, r.repo, id, r.dl)
	if err != nil {
		r.note("download %s: %v", name, err)
		return releaserules.Download{}
	}
	defer rc.Close()
	h := sha256.New()
	if _, err := io.Copy(h, rc); err != nil {
		r.note("download %s: %v", name, err)
		return releaserules.Download{}
	}
	return releaserules.Download{OK: true, Sha256: hex.EncodeToString(h.Sum(nil))}
}
