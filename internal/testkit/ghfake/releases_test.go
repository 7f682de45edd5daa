package ghfake_test

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"github.com/aepgate/aepgate/internal/testkit/ghfake"
	"github.com/google/go-github/v62/github"
)

func TestReleaseAssetsDigestAndDownload(t *testing.T) {
	_, repo, _, c := installed(t)
	repo.Tag("v1.0.0", "main", "v1.0.0\n")
	data := []byte("binary bytes\x00\x01")
	rel := repo.PublishRelease("v1.0.0", ghfake.ReleaseOptions{Name: "1.0.0", Assets: map[string][]byte{"aepgate_linux_amd64.tar.gz": data}})

	got, _, err := c.Repositories.GetReleaseByTag(ctx, "acme", "widgets", "v1.0.0")
	if err != nil {
		t.Fatalf("GetReleaseByTag: %v", err)
	}
	if got.GetID() != rel.ID() || got.GetPublishedAt().IsZero() || got.GetTargetCommitish() != "main" {
		t.Errorf("release = id %d published %v target %q", got.GetID(), got.GetPublishedAt(), got.GetTargetCommitish())
	}
	latest, _, err := c.Repositories.GetLatestRelease(ctx, "acme", "widgets")
	if err != nil || latest.GetID() != rel.ID() {
		t.Errorf("latest = %d, %v; want %d", latest.GetID(), err, rel.ID())
	}

	// go-github v62 has no Digest field: read the raw JSON as the project must.
	req, _ := c.NewRequest("GET", "repos/acme/widgets/releases/assets/"+itoa(got.Assets[0].GetID()), nil)
	var raw struct {
		Digest string `json:"digest"`
		Size   int    `json:"size"`
	}
	if _, err := c.Do(ctx, req, &raw); err != nil {
		t.Fatalf("raw asset: %v", err)
	}
	sum := sha256.Sum256(data)
	if want := "sha256:" + hex.EncodeToString(sum[:]); raw.Digest != want || raw.Size != len(data) {
		t.Errorf("digest = %q size %d, want %q size %d", raw.Digest, raw.Size, want, len(data))
	}

	rc, redirect, err := c.Repositories.DownloadReleaseAsset(ctx, "acme", "widgets", got.Assets[0].GetID(), nil)
	if err != nil || rc != nil || redirect == "" {
		t.Fatalf("download without following = %v, %q, %v; want a redirect URL", rc, redirect, err)
	}
	rc, _, err = c.Repositories.DownloadReleaseAsset(ctx, "acme", "widgets", got.Assets[0].GetID(), http.DefaultClient)
	if err != nil {
		t.Fatalf("download following: %v", err)
	}
	body, _ := io.ReadAll(rc)
	rc.Close()
	if string(body) != string(data) {
		t.Errorf("downloaded %q, want %q", body, data)
	}
}

func TestReleaseLifecycleThroughAPI(t *testing.T) {
	_, repo, _, c := installed(t)
	draft, _, err := c.Repositories.CreateRelease(ctx, "acme", "widgets", &github.RepositoryRelease{
		TagName: github.String("v2.0.0"), TargetCommitish: github.String("main"), Draft: github.Bool(true),
	})
	if err != nil {
		t.Fatalf("CreateRelease: %v", err)
	}
	if _, _, err := c.Repositories.GetReleaseByTag(ctx, "acme", "widgets", "v2.0.0"); status(err) != 404 {
		t.Errorf("draft by tag: err = %v, want 404", err)
	}
	if repo.Head("v2.0.0") != "" {
		t.Errorf("a draft must not create its tag")
	}
	file := filepath.Join(t.TempDir(), "checksums.txt")
	if err := os.WriteFile(file, []byte("abc  x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	fh, _ := os.Open(file)
	a, _, err := c.Repositories.UploadReleaseAsset(ctx, "acme", "widgets", draft.GetID(), &github.UploadOptions{Name: "checksums.txt"}, fh)
	if err != nil || a.GetSize() != 7 {
		t.Fatalf("UploadReleaseAsset = %d bytes, %v", a.GetSize(), err)
	}
	fh2, _ := os.Open(file)
	defer fh2.Close()
	if _, _, err := c.Repositories.UploadReleaseAsset(ctx, "acme", "widgets", draft.GetID(), &github.UploadOptions{Name: "checksums.txt"}, fh2); status(err) != 422 {
		t.Errorf("duplicate asset name: err = %v, want 422", err)
	}
	pub, _, err := c.Repositories.EditRelease(ctx, "acme", "widgets", draft.GetID(), &github.RepositoryRelease{Draft: github.Bool(false)})
	if err != nil || pub.GetDraft() || pub.PublishedAt == nil {
		t.Fatalf("publish = draft %v published %v, %v", pub.GetDraft(), pub.PublishedAt, err)
	}
	ref, _, err := c.Git.GetRef(ctx, "acme", "widgets", "tags/v2.0.0")
	if err != nil || ref.GetObject().GetType() != "commit" {
		t.Errorf("publishing creates a lightweight tag: %v, %v", ref.GetObject().GetType(), err)
	}
	if _, _, err := c.Repositories.CreateRelease(ctx, "acme", "widgets", &github.RepositoryRelease{TagName: github.String("v2.0.0")}); status(err) != 422 {
		t.Errorf("second release of a tag: err = %v, want 422", err)
	}
}

func itoa(n int64) string { return string(appendInt(nil, n)) }

func appendInt(b []byte, n int64) []byte {
	if n >= 10 {
		b = appendInt(b, n/10)
	}
	return append(b, byte('0'+n%10))
}
