package releaserules

import "github.com/aepgate/aepgate/protocol/refusal"

// protections are the release-closure rules verify applies. Verify applies
// all of them (allProtections); the negative-control test turns one off at a
// time to show that each is what stops its attack.
type protections struct {
	// assetHashes: every asset matches the file at the tag, the manifest
	// and GitHub's digest.
	assetHashes bool
	// annotatedTag: the tag is an annotated tag object, not a lightweight
	// ref to a commit.
	annotatedTag bool
	// tagAtMain: the tag peels to the default branch head.
	tagAtMain bool
}

// allProtections is every rule on: what Verify applies.
func allProtections() protections {
	return protections{assetHashes: true, annotatedTag: true, tagAtMain: true}
}

// checkAssets compares each asset's downloaded hash with GitHub's digest
// when it reports one, with the file at the tag when the tag peeled, and
// with the manifest entry (unless the asset is the manifest) when the
// manifest at the tag is valid (§8.2). Only what could be read is compared:
// an unpeeled tag or a missing or invalid manifest is its own refusal, not
// one more per asset.
func checkAssets(s Snapshot, peeled string) []refusal.Refusal {
	var manifest Manifest
	if peeled != "" {
		manifest, _ = remoteManifest(s)
	}
	var rs []refusal.Refusal
	for _, name := range s.AssetNames {
		if problem := assetProblem(s, peeled != "", manifest, name); problem != "" {
			rs = append(rs, refusal.Refusal{Token: TokenAssetMismatch + name, Expected: assetExpected(name, peeled != "", manifest != nil), Seen: problem})
		}
	}
	return rs
}

// assetExpected says what an asset was compared with.
func assetExpected(name string, atTag, withManifest bool) string {
	switch {
	case !atTag:
		return "asset " + name + " downloadable and matching GitHub's digest"
	case !withManifest:
		return "asset " + name + " identical to the file at the tag"
	}
	return "asset " + name + " identical to the file at the tag and the manifest"
}

// assetProblem says how the named asset fails its comparisons, or "".
// atTag says the tag peeled (Files hold the files at the tag); manifest is
// nil when the manifest at the tag is missing or invalid.
func assetProblem(s Snapshot, atTag bool, manifest Manifest, name string) string {
	var asset *Asset
	for i := range s.Release.Assets {
		if s.Release.Assets[i].Name == name {
			asset = &s.Release.Assets[i]
		}
	}
	if asset == nil {
		return "no such release asset"
	}
	dl := s.Downloads[name]
	if !dl.OK {
		return "the asset could not be downloaded"
	}
	got := dl.Sha256
	if asset.Digest != "" && asset.Digest != "sha256:"+got {
		return "GitHub digest " + asset.Digest + ", downloaded sha256:" + got
	}
	if !atTag {
		return ""
	}
	f := s.Files[name]
	if !f.Found {
		return "no file " + name + " at the tag"
	}
	if at := Sum(f.Content); at != got {
		return "file at the tag sha256:" + at + ", downloaded sha256:" + got
	}
	if name == s.ManifestPath || manifest == nil {
		return ""
	}
	if want, ok := manifest[name]; !ok {
		return "no manifest entry for " + name
	} else if want != got {
		return "manifest sha256:" + want + ", downloaded sha256:" + got
	}
	return ""
}
