// Package releaseflow holds the tests of the release workflow's scripts
// (.github/release: manifest.sh, sign.sh, receipt.sh, rehearse.sh), which
// .github/workflows/release.yml runs so that a tag releases, closes and
// moves its moving tags with no hand step: the committed manifest.sha256
// is what manifest.sh prints, the receipt receipt.sh writes passes release
// closure's receipt rule, and a signature sign.sh makes is one the
// Action's fetch step accepts. rehearse.sh runs every step against a fake
// release made from a GoReleaser snapshot (CI's goreleaser job runs it). The package
// has no code of its own.
package releaseflow
