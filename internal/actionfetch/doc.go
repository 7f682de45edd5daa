// Package actionfetch holds fetch.sh, the step of action.yml that gives the
// Action its release's binary. A ref that names a release — an exact tag
// vX.Y.Z, or a moving tag vX or vX.Y, which the release workflow keeps on
// the commit of the newest final release it names — resolves (through git
// ls-remote) to that release, and fetch.sh downloads
// aepgate_X.Y.Z_<os>_<arch> from it, verifies checksums.txt against its
// signature checksums.txt.sig by the release key (release-signing.pub,
// beside the script; the release workflow signs with the private half),
// checks the archive against checksums.txt and unpacks it. A commit SHA or
// a branch downloads nothing: the action builds its own source and the log
// says so. The package's tests run the script against a local fake
// release host (HTTP for the assets, a git repository for the tags).
package actionfetch
