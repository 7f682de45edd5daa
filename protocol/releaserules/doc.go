// Package releaserules holds the release-closure rules (craft-rules §2, §8.2):
// the version and tag, strict base64 for Contents payloads, the
// manifest.sha256 format and its path-safety rules, the release-body
// adoption receipt, and Verify, which decides closure from a snapshot of
// what GitHub holds. It is pure; internal/gh gathers the snapshot.
package releaserules
