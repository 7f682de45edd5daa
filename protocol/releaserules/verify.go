package releaserules

import (
	"crypto/sha256"
	"encoding/hex"
	"regexp"
	"strings"
	"sync"

	"github.com/aepgate/aepgate/protocol/refusal"
)

// Closure refusal tokens (§2.1, §8.2).
const (
	TokenVersionInvalid      = "version-invalid"
	TokenIdentityUnreadable  = "github-origin-identity-unreadable"
	TokenTokenUnavailable    = "github-auth-token-file-unavailable"
	TokenMainUnreadable      = "remote-main-unreadable"
	TokenTagUnreadable       = "remote-annotated-tag-missing-or-unreadable"
	TokenTagNotMain          = "remote-tag-does-not-peel-exactly-to-remote-main"
	TokenReleaseMissing      = "github-release-object-missing"
	TokenReleaseMismatch     = "github-release-object-mismatch"
	TokenReleaseNotPublished = "github-release-freshness-missing"
	TokenReleaseNotLatest    = "github-release-not-latest"
	TokenReleaseTarget       = "github-release-target-mismatch"
	TokenAssetMismatch       = "github-release-asset-hash-mismatch:"
	TokenLocalManifest       = "local-manifest-invalid"
	TokenRemoteManifestGone  = "remote-manifest-missing"
	TokenRemoteManifestBad   = "remote-manifest-invalid"
	TokenCoverage            = "remote-manifest-coverage-mismatch"
	TokenManifestMismatch    = "remote-manifest-mismatch:"
)

var (
	sha40    = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[0-9a-f]{40}$`) })
	repoName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^([A-Za-z0-9_.-]+)/([A-Za-z0-9_.-]+?)$`) })
	repoURL  = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^(?:https://github\.com/|git@github\.com:)([A-Za-z0-9_.-]+)/([A-Za-z0-9_.-]+?)(?:\.git)?/?$`)
	})
)

// ParseRepository returns "owner/name" for "owner/name" or a github.com
// remote URL as craft accepts them (https://github.com/o/r[.git][/],
// git@github.com:o/r[.git][/]); anything else — another host, an API
// override — is github-origin-identity-unreadable.
func ParseRepository(r string) (string, bool) {
	for _, re := range []*regexp.Regexp{repoName(), repoURL()} {
		if m := re.FindStringSubmatch(r); m != nil && m[1] != "." && m[1] != ".." && m[2] != "." && m[2] != ".." {
			return m[1] + "/" + m[2], true
		}
	}
	return "", false
}

// Early returns the result for a request that fails before any request to
// GitHub: a bad tag (version-invalid, alone), a bad repository or no usable
// token. ok is false when the request may go ahead.
func Early(tag, repo string, tokenOK bool) (Result, bool) {
	version, valid := ParseTag(tag)
	res := Result{Version: version, Tag: tag, Repository: repo, Errors: []string{}}
	if name, ok := ParseRepository(repo); ok {
		res.Repository = name
	}
	if !valid {
		res.Refusals = []refusal.Refusal{{Token: TokenVersionInvalid, Expected: "a tag v<major>.<minor>.<patch>", Seen: tag}}
	} else {
		if _, ok := ParseRepository(repo); !ok {
			res.Refusals = append(res.Refusals, refusal.Refusal{Token: TokenIdentityUnreadable, Expected: "--repo owner/name", Seen: repo})
		}
		if !tokenOK {
			res.Refusals = append(res.Refusals, refusal.Refusal{Token: TokenTokenUnavailable, Expected: "a token file owned by you, mode 0600, 1–4096 characters, no NUL", Seen: "no usable token"})
		}
	}
	res.Errors = refusal.Tokens(res.Refusals)
	return res, len(res.Refusals) > 0
}

// Verify decides release closure from a snapshot (§2.1 steps 5–7, §8.2).
func Verify(s Snapshot) Result { return verify(s, allProtections()) }

// verify is Verify under p.
func verify(s Snapshot, p protections) Result {
	version, _ := ParseTag(s.Tag)
	res := Result{Version: version, Tag: s.Tag, Repository: s.Repository}
	var rs []refusal.Refusal
	if sha40().MatchString(s.MainSha) {
		res.RemoteMainSha = &s.MainSha
	} else {
		rs = append(rs, refusal.Refusal{Token: TokenMainUnreadable, Expected: "the default branch head as 40 hex", Seen: show(s.MainSha)})
	}
	peeled := ""
	if !p.annotatedTag && s.TagObjectType == "commit" {
		s.PeeledType, s.PeeledSha = "commit", s.TagObjectSha
	}
	if (s.TagObjectType == "tag" || !p.annotatedTag) && sha40().MatchString(s.TagObjectSha) && s.PeeledType == "commit" && sha40().MatchString(s.PeeledSha) {
		peeled = s.PeeledSha
		res.TagSha = &peeled
		if p.tagAtMain && res.RemoteMainSha != nil && peeled != s.MainSha {
			rs = append(rs, refusal.Refusal{Token: TokenTagNotMain, Expected: "tag peeled to the default branch head " + s.MainSha, Seen: peeled})
		}
	} else {
		rs = append(rs, refusal.Refusal{Token: TokenTagUnreadable, Expected: "an annotated tag peeling to a commit",
			Seen: "ref object " + show(s.TagObjectType) + " " + show(s.TagObjectSha) + ", target " + show(s.PeeledType) + " " + show(s.PeeledSha)})
	}
	final, releaseRs := checkRelease(s, peeled, p.assetHashes)
	rs = append(rs, releaseRs...)
	if peeled != "" {
		rs = append(rs, checkManifests(s)...)
		if final {
			rs = append(rs, CheckReceipt(s.Release.Body, version, s.Tag, peeled)...)
		}
	}
	res.Refusals = rs
	res.Errors = refusal.Tokens(rs)
	res.Closed = len(rs) == 0
	return res
}

// checkRelease applies §2.1 step 6, comparing asset hashes when
// assetHashes is set; final reports a final release (right tag, not draft,
// not prerelease, published, Latest).
func checkRelease(s Snapshot, peeled string, assetHashes bool) (final bool, rs []refusal.Refusal) {
	r := s.Release
	if r == nil {
		return false, []refusal.Refusal{{Token: TokenReleaseMissing, Expected: "a release for " + s.Tag, Seen: "none"}}
	}
	if r.TagName != s.Tag || r.Draft || r.Prerelease {
		rs = append(rs, refusal.Refusal{Token: TokenReleaseMismatch, Expected: "release for " + s.Tag + ", not draft, not prerelease",
			Seen: "tag " + show(r.TagName) + draftText(r)})
	}
	if strings.TrimSpace(r.PublishedAt) == "" {
		rs = append(rs, refusal.Refusal{Token: TokenReleaseNotPublished, Expected: "published_at set", Seen: "empty"})
	}
	latest, notLatest := checkLatest(s, r)
	rs = append(rs, notLatest...)
	if targetMismatch(r.TargetCommitish, peeled, s.DefaultBranch) {
		rs = append(rs, refusal.Refusal{Token: TokenReleaseTarget, Expected: "target_commitish " + show(peeled) + " or " + show(s.DefaultBranch), Seen: show(r.TargetCommitish)})
	}
	if assetHashes {
		rs = append(rs, checkAssets(s, peeled)...)
	}
	final = r.TagName == s.Tag && !r.Draft && !r.Prerelease && strings.TrimSpace(r.PublishedAt) != "" && latest
	return final, rs
}

// checkLatest reports whether r is the repository's Latest release, with
// the refusal when it is not.
func checkLatest(s Snapshot, r *Object) (bool, []refusal.Refusal) {
	if s.Latest != nil && s.Latest.ID == r.ID && s.Latest.TagName == s.Tag {
		return true, nil
	}
	seen := "no latest release"
	if s.Latest != nil {
		seen = "latest is " + show(s.Latest.TagName)
	}
	return false, []refusal.Refusal{{Token: TokenReleaseNotLatest, Expected: s.Tag + " as the Latest release", Seen: seen}}
}

// targetMismatch reports a target_commitish that is neither the peeled tag
// commit nor the default branch. A commit SHA is not judged when the tag
// did not peel: there is nothing to compare it with, and the tag's own
// refusal is the cause.
func targetMismatch(target, peeled, defaultBranch string) bool {
	switch {
	case target == "":
		return true
	case target == peeled || target == defaultBranch:
		return false
	}
	return peeled != "" || !sha40().MatchString(target)
}

func draftText(r *Object) string {
	out := ""
	if r.Draft {
		out += ", draft"
	}
	if r.Prerelease {
		out += ", prerelease"
	}
	return out
}

func show(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

// Sum returns the lowercase hex SHA-256 of b.
func Sum(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}
