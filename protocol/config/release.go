package config

import (
	"go.yaml.in/yaml/v3"

	"github.com/aepgate/aepgate/protocol/releaserules"
)

// Release says what the App's aepgate/release check verifies a release
// against: the inputs aepgate release verify takes as --manifest and
// --assets.
type Release struct {
	// Manifest is the manifest's path in the repository.
	Manifest string `json:"manifest"`
	// Assets are the release assets to download and compare with the files
	// at the tag and the manifest; each is also a path in the repository.
	// Empty means the manifest alone.
	Assets []string `json:"assets"`
}

// DefaultManifest is the manifest's path when the file names none.
const DefaultManifest = "manifest.sha256"

// MaxReleaseAssets bounds release.assets: each asset is downloaded on every
// verification.
const MaxReleaseAssets = 20

// release decodes the release mapping into r.
func (d *decoder) release(v *yaml.Node, field string, r *Release) {
	d.fields(v, field, fieldSetters{
		"manifest": func(v *yaml.Node, f string) {
			if s, ok := d.str(v, f); ok {
				r.Manifest = s
				d.check(v, f, d.releasePath(s))
			}
		},
		"assets": func(v *yaml.Node, f string) { r.Assets = d.releaseAssets(v, f) },
	})
}

// releaseAssets decodes release.assets: at most MaxReleaseAssets distinct
// paths.
func (d *decoder) releaseAssets(v *yaml.Node, field string) []string {
	seen := map[string]bool{}
	out := d.list(v, field, func(item *yaml.Node, f, s string) {
		d.check(item, f, d.releasePath(s))
		if seen[s] {
			d.errorf(item, f, "duplicate asset %q", s)
		}
		seen[s] = true
	})
	if len(out) > MaxReleaseAssets {
		d.errorf(v, field, "lists %d assets; at most %d", len(out), MaxReleaseAssets)
	}
	return out
}

// releasePath validates a manifest or asset path: a repository path (the
// decoder's rule) that is also normalised, as release verification reads
// it (no empty, "." or ".." segment, no control character).
func (d *decoder) releasePath(s string) string {
	if msg := d.pathRule(s, false); msg != "" {
		return msg
	}
	if err := releaserules.SafePath(s); err != nil {
		return err.Error()
	}
	return ""
}
