package releaserules

import (
	"sort"
	"strings"

	"github.com/aepgate/aepgate/protocol/refusal"
)

// remoteManifest parses the manifest at the tag; nil when absent or
// invalid, with the refusal that says which.
func remoteManifest(s Snapshot) (Manifest, *refusal.Refusal) {
	f := s.Files[s.ManifestPath]
	if !f.Found {
		return nil, &refusal.Refusal{Token: TokenRemoteManifestGone, Expected: s.ManifestPath + " at " + s.Tag, Seen: "absent or not strict base64"}
	}
	m, err := ParseManifest(f.Content)
	if err != nil {
		return nil, &refusal.Refusal{Token: TokenRemoteManifestBad, Expected: "a valid manifest at " + s.Tag, Seen: err.Error()}
	}
	return m, nil
}

// checkManifests applies §2.3: the local manifest must be valid (else only
// local-manifest-invalid), the manifest at the tag must exist, be valid and
// list exactly the same paths and digests, and each path's bytes at the tag
// must hash to its digest.
func checkManifests(s Snapshot) []refusal.Refusal {
	local, err := ParseManifest(s.LocalManifest)
	if s.LocalManifest == nil || err != nil {
		seen := "missing"
		if err != nil && s.LocalManifest != nil {
			seen = err.Error()
		}
		return []refusal.Refusal{{Token: TokenLocalManifest, Expected: "a valid " + s.ManifestPath + " in the working directory", Seen: seen}}
	}
	remote, bad := remoteManifest(s)
	if bad != nil {
		return []refusal.Refusal{*bad}
	}
	if diff := coverageDiff(local, remote); diff != "" {
		return []refusal.Refusal{{Token: TokenCoverage, Expected: "the manifest at the tag identical to the local one", Seen: diff}}
	}
	var failed []string
	for _, p := range remote.Paths() {
		f := s.Files[p]
		if !f.Found || Sum(f.Content) != remote[p] {
			failed = append(failed, p)
		}
	}
	if len(failed) == 0 {
		return nil
	}
	sort.Strings(failed)
	shown := failed
	if len(shown) > 4 {
		shown = shown[:4]
	}
	return []refusal.Refusal{{Token: TokenManifestMismatch + strings.Join(shown, ","), Expected: "each listed file at the tag to match its digest",
		Seen: strings.Join(failed, ", ") + " differ or are missing"}}
}

func coverageDiff(local, remote Manifest) string {
	var parts []string
	for _, p := range local.Paths() {
		if d, ok := remote[p]; !ok {
			parts = append(parts, "omits "+p)
		} else if d != local[p] {
			parts = append(parts, "digest of "+p+" differs")
		}
	}
	for _, p := range remote.Paths() {
		if _, ok := local[p]; !ok {
			parts = append(parts, "extra "+p)
		}
	}
	return strings.Join(parts, "; ")
}
