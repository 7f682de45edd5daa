#!/usr/bin/env bash
# action.yml's fetch step. Environment:
#   ACTION_REF    the action's ref (github.action_ref); only vX.Y.Z fetches
#   RUNNER_OS     Linux, macOS or Windows; RUNNER_ARCH X64 or ARM64
#   DEST          the folder to unpack the binary into
#   RELEASES_URL  where releases are downloaded from
#                 (default https://github.com/aepgate/aepgate/releases/download)
#   GITHUB_OUTPUT where "bin=<path>" is written when a binary is ready
# An aepgate on PATH is used only when "aepgate version" prints the tag.
# Without a tag, or for an OS or architecture without a release binary,
# nothing is written and the action builds its own source. A checksum that
# does not match fails with both hashes.
set -euo pipefail

ref=${ACTION_REF:-}
base=${RELEASES_URL:-https://github.com/aepgate/aepgate/releases/download}
if [[ ! $ref =~ ^v([0-9]+\.[0-9]+\.[0-9]+)$ ]]; then
  echo "aepgate: ref '${ref}' is not a release tag; building the action's source"
  exit 0
fi
version=${BASH_REMATCH[1]}

if bin=$(command -v aepgate) && [ "$("$bin" version 2>/dev/null || true)" = "aepgate $ref" ]; then
  echo "aepgate: using $bin ($ref) from PATH"
  echo "bin=$bin" >> "$GITHUB_OUTPUT"
  exit 0
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
  echo "aepgate: no release binary for ${RUNNER_OS:-?}/${RUNNER_ARCH:-?}; building the action's source"
  exit 0
fi

archive="aepgate_${version}_${os}_${arch}.${ext}"
mkdir -p "$DEST"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
curl -fsSL --show-error --retry 3 -o "$tmp/checksums.txt" "$base/$ref/checksums.txt"
curl -fsSL --show-error --retry 3 -o "$tmp/$archive" "$base/$ref/$archive"

want=$(awk -v f="$archive" '$2 == f || $2 == "*" f { print $1 }' "$tmp/checksums.txt")
if command -v sha256sum >/dev/null; then
  got=$(sha256sum "$tmp/$archive" | cut -d' ' -f1)
else
  got=$(shasum -a 256 "$tmp/$archive" | cut -d' ' -f1)
fi
if [ -z "$want" ]; then
  echo "::error::aepgate: checksums.txt of $ref lists no $archive (downloaded file hashes to $got)"
  exit 1
fi
if [ "$want" != "$got" ]; then
  echo "::error::aepgate: checksum mismatch for $archive of $ref: checksums.txt says $want, the downloaded file hashes to $got"
  exit 1
fi

if [ "$ext" = zip ]; then
  unzip -o -q "$tmp/$archive" "$exe" -d "$DEST"
else
  tar -xzf "$tmp/$archive" -C "$DEST" "$exe"
fi
chmod +x "$DEST/$exe"
echo "aepgate: downloaded $archive ($got)"
echo "bin=$DEST/$exe" >> "$GITHUB_OUTPUT"
