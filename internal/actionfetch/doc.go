// Package actionfetch holds fetch.sh, the step of action.yml that gives the
// Action its release's binary: when the action's ref is a release tag
// vX.Y.Z, it downloads aepgate_X.Y.Z_<os>_<arch> from that release, checks
// it against the release's checksums.txt and unpacks it. The package's
// test runs the script against a local HTTP server serving a fake release.
package actionfetch
