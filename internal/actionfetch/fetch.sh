#!/usr/bin/env bash
# action.yml's fetch step: the release binary for a ref that names a
# release, verified; nothing for a commit SHA or a branch (the action then
# builds its own source). Environment:
#   ACTION_REF    the action's ref (github.action_ref)
#   RUNNER_OS     Linux, macOS or Windows; RUNNER_ARCH X64 or ARM64
#   DEST          the folder to unpack the binary into
#   REPO_URL      the action's repository, for git ls-remote
#                 (default https://github.com/aepgate/aepgate)
#   RELEASES_URL  where releases are downloaded from
#                 (default $REPO_URL/releases/download)
#   GITHUB_OUTPUT where "bin=<path>" is written when a binary is ready
#
# Refs: vX.Y.Z is that release. A moving tag vX or vX.Y names the release
# whose tag vX.Y.Z (the highest, final releases only) points at the same
# commit, as the release workflow leaves them (git ls-remote reads the
# tags; no API call, no token). Anything else is a commit SHA or a branch.
#
# Verification, all or nothing: checksums.txt must carry a valid signature
# (checksums.txt.sig, ECDSA P-256 over SHA-256, DER) by the release key
# beside this script (release-signing.pub), and the archive must hash to
# its line in checksums.txt. A missing or wrong signature, an archive that
# checksums.txt does not list or that hashes to something else, and a
# moving tag that names no release each fail the step. An aepgate on PATH
# is used only when "aepgate version" prints the resolved release tag.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
key="$here/release-signing.pub"
ref=${ACTION_REF:-}
repo=${REPO_URL:-https://github.com/aepgate/aepgate}
base=${RELEASES_URL:-$repo/releases/download}

fail() { echo "::error::aepgate: $*"; exit 1; }
build() { echo "aepgate: $*; building the action's source instead of downloading a release binary"; exit 0; }

# peeled prints the commit tag $1 points at, from git ls-remote output $2.
peeled() {
  awk -v t="refs/tags/$1" '$2 == t "^{}" { p = $1 } $2 == t { l = $1 } END { print (p != "" ? p : l) }' <<<"$2"
}

# resolve sets tag to the release tag vX.Y.Z that moving tag $1 points at.
resolve() {
  local tags target t best=""
  tags=$(git ls-remote --tags "$repo") || fail "cannot list the tags of $repo (git ls-remote) to resolve $1"
  target=$(peeled "$1" "$tags")
  [ -n "$target" ] || fail "$repo has no tag $1"
  for t in $(awk '{ sub("refs/tags/", "", $2); sub("\\^\\{\\}$", "", $2); print $2 }' <<<"$tags" | sort -u); do
    [[ $t =~ ^v[0-9]+\.[0-9]+\.[0-9]+$ && $t == "$1".* ]] || continue
    [ "$(peeled "$t" "$tags")" = "$target" ] || continue
    best=$(printf '%s\n%s\n' "$best" "$t" | sed '/^$/d' | sort -t. -k1.2,1n -k2,2n -k3,3n | tail -n1)
  done
  [ -n "$best" ] || fail "$1 points at $target, which no release tag ${1}.N names; pin a release (vX.Y.Z) or a commit SHA"
  tag=$best
}

if [[ $ref =~ ^v[0-9]+\.[0-9]+\.[0-9]+$ ]]; then
  tag=$ref
elif [[ $ref =~ ^v[0-9]+(\.[0-9]+)?$ ]]; then
  resolve "$ref"
  echo "aepgate: $ref is release $tag"
else
  build "ref '${ref}' is a commit SHA or a branch, not a release"
fi
version=${tag#v}

if bin=$(command -v aepgate) && [ "$("$bin" version 2>/dev/null || true)" = "aepgate $tag" ]; then
  echo "aepgate: using $bin ($tag) from PATH"
  echo "bin=$bin" >> "$GITHUB_OUTPUT"
  exit 0
fi

# Until the maintainers commit the release key (docs/releasing.md) no
# release binary can be verified: say so once, as a notice, and build.
if [ ! -f "$key" ]; then
  echo "::notice title=aepgate builds from source::aepgate $tag is built from the action's source on this runner, not downloaded: this copy of the action carries no release signing key (internal/actionfetch/release-signing.pub), so a release binary could not be verified, and an unverified binary is never run. The build takes about a minute once per runner and version, then comes from the cache."
  build "no release key to verify $tag with"
fi

case "${RUNNER_OS:-}" in
  Linux) os=linux ;; macOS) os=darwin ;; Windows) os=windows ;; *) os="" ;;
esac
case "${RUNNER_ARCH:-}" in
  X64) arch=amd64 ;; ARM64) arch=arm64 ;; *) arch="" ;;
esac
ext=tar.gz exe=aepgate
if [ "$os" = windows ]; then ext=zip exe=aepgate.exe; fi
if [ -z "$os" ] || [ -z "$arch" ] || { [ "$ext" = zip ] && ! command -v unzip >/dev/null; }; then
  build "no release binary for ${RUNNER_OS:-?}/${RUNNER_ARCH:-?}"
fi
if ! command -v openssl >/dev/null; then
  build "openssl is not installed, so the signature of $tag's checksums.txt cannot be verified"
fi

archive="aepgate_${version}_${os}_${arch}.${ext}"
mkdir -p "$DEST"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
get() { curl -fsSL --show-error --retry 3 -o "$tmp/$1" "$base/$tag/$1"; }
get checksums.txt || fail "cannot download checksums.txt of $tag"
get checksums.txt.sig || fail "$tag has no checksums.txt.sig: its checksums are not signed by the release workflow, so nothing from it is run"
if ! openssl dgst -sha256 -verify "$key" -signature "$tmp/checksums.txt.sig" "$tmp/checksums.txt" >/dev/null 2>&1; then
  fail "the signature of $tag's checksums.txt does not verify against the release key (internal/actionfetch/release-signing.pub): the checksums were not written by the release workflow"
fi
get "$archive" || fail "cannot download $archive of $tag"

want=$(awk -v f="$archive" '$2 == f || $2 == "*" f { print $1 }' "$tmp/checksums.txt")
if command -v sha256sum >/dev/null; then
  got=$(sha256sum "$tmp/$archive" | cut -d' ' -f1)
else
  got=$(shasum -a 256 "$tmp/$archive" | cut -d' ' -f1)
fi
[ -n "$want" ] || fail "checksums.txt of $tag lists no $archive (downloaded file hashes to $got)"
if [ "$want" != "$got" ]; then
  fail "checksum mismatch for $archive of $tag: checksums.txt says $want, the downloaded file hashes to $got"
fi

if [ "$ext" = zip ]; then
  unzip -o -q "$tmp/$archive" "$exe" -d "$DEST"
else
  tar -xzf "$tmp/$archive" -C "$DEST" "$exe"
fi
chmod +x "$DEST/$exe"
echo "aepgate: downloaded $archive of $tag ($got), checksums.txt signed by the release key"
echo "bin=$DEST/$exe" >> "$GITHUB_OUTPUT"
