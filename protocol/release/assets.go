package release

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

// checkAssets downloads' hashes must equal the file at the tag, the
// manifest entry (unless the asset is the manifest) and GitHub's digest
// when it reports one (§8.2).
func checkAssets(s Snapshot) []refusal.Refusal {
	manifest, _ := remoteManifest(s)
	var rs []refusal.Refusal
	for _, name := range s.AssetNames {
		if problem := assetProblem(s, manifest, name); problem != "" {
			rs = append(rs, refusal.Refusal{Token: TokenAssetMismatch + name, Expected: "asset " + name + " identical to the file at the tag and the manifest", Seen: problem})
		}
	}
	return rs
}

func assetProblem(s Snapshot, manifest Manifest, name string) string {
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
	f := s.Files[name]
	if !f.Found {
		return "no file " + name + " at the tag"
	}
	if at := Sum(f.Content); at != got {
		return "file at the tag sha256:" + at + ", downloaded sha256:" + got
	}
	if name == s.ManifestPath {
		return ""
	}
	if manifest == nil {
		return "no valid manifest at the tag to compare with"
	}
	if want, ok := manifest[name]; !ok {
		return "no manifest entry for " + name
	} else if want != got {
		return "manifest sha256:" + want + ", downloaded sha256:" + got
	}
	return ""
}
