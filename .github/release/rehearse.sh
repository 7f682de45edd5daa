#!/usr/bin/env bash
# Rehearses the release workflow locally against a fake release made from
# a GoReleaser snapshot, with a throwaway release key: snapshot, sign
# checksums.txt, check the assets against it, check manifest.sha256, write
# the receipt, then fetch the binary the way the Action does
# (internal/actionfetch/fetch.sh) for vX.Y.Z, the moving vX and vX.Y, and
# a commit SHA, and run it. Needs goreleaser (v2.15.1), git, openssl,
# curl. CI runs it (.github/workflows/ci.yml, job goreleaser).
#   bash .github/release/rehearse.sh [goreleaser]
# SINGLE_TARGET=1 builds only this machine's binary (minutes instead of a
# dozen targets), for a quick local run.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
goreleaser=${1:-goreleaser}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$root"

if [ "${SINGLE_TARGET:-}" = 1 ]; then
  # A quick rehearsal: only this machine's binary, archived as GoReleaser
  # names it (goreleaser build --single-target).
  echo "== goreleaser build --snapshot --single-target, archived as the release names it"
  mkdir "$work/bin"
  "$goreleaser" build --snapshot --clean --single-target --id aepgate --output "$work/bin/aepgate" >/dev/null
  snap=$(sed -n 's/.*"version":"\([^"]*\)".*/\1/p' dist/metadata.json)
  tar -czf "dist/aepgate_${snap}_$(go env GOOS)_$(go env GOARCH).tar.gz" -C "$work/bin" aepgate
else
  echo "== goreleaser release --snapshot (no image, no SBOM, nothing published)"
  "$goreleaser" release --snapshot --clean --skip=docker,sbom >/dev/null
  snap=$(sed -n 's/.*"version":"\([^"]*\)".*/\1/p' dist/metadata.json)
fi
tag=v0.0.1 version=0.0.1 # the fake release's tag; the archives are renamed to it
echo "snapshot $snap → fake release $tag"

echo "== sign checksums.txt with a throwaway key"
openssl ecparam -name prime256v1 -genkey -noout -out "$work/key.pem" 2>/dev/null
openssl ec -in "$work/key.pem" -pubout -out "$work/release-signing.pub" 2>/dev/null
rel="$work/releases/$tag"
mkdir -p "$rel"
shopt -s nullglob
for f in dist/*.tar.gz dist/*.zip; do
  b=$(basename "$f")
  cp "$f" "$rel/${b/$snap/$version}"
done
(cd "$rel" && sha256sum -- *.tar.gz *.zip > checksums.txt)
shopt -u nullglob
AEPGATE_RELEASE_SIGNING_KEY="$(cat "$work/key.pem")" RELEASE_SIGNING_PUB="$work/release-signing.pub" \
  bash .github/release/sign.sh "$rel/checksums.txt"

echo "== the publish job's checks"
openssl dgst -sha256 -verify "$work/release-signing.pub" -signature "$rel/checksums.txt.sig" "$rel/checksums.txt"
(cd "$rel" && sha256sum --strict --check --quiet checksums.txt)
bash .github/release/manifest.sh | cmp - manifest.sha256
sha256sum --strict --check --quiet manifest.sha256
bash .github/release/receipt.sh "$tag" "$(git rev-parse HEAD)" aepgate/aepgate 1 https://example.invalid/run/1 > "$work/receipt.md"
grep -q '"tag": "v0.0.1"' "$work/receipt.md"

echo "== the Action's fetch step"
repo="$work/aepgate.git"
git init -q --bare "$repo"
git -C "$repo" fetch -q "$root" "$(git rev-parse HEAD):refs/heads/main"
commit=$(git rev-parse HEAD)
git -C "$repo" -c user.name=r -c user.email=r@example.invalid tag -a -m "$tag" "$tag" "$commit"
git -C "$repo" tag v0 "$commit"
git -C "$repo" tag v0.0 "$commit"
mkdir -p "$work/action"
cp internal/actionfetch/fetch.sh "$work/action/"
cp "$work/release-signing.pub" "$work/action/"
case "$(uname -s)/$(uname -m)" in
  Linux/x86_64) os=Linux arch=X64 ;; Linux/aarch64) os=Linux arch=ARM64 ;;
  Darwin/x86_64) os=macOS arch=X64 ;; Darwin/arm64) os=macOS arch=ARM64 ;;
  *) echo "rehearse.sh: no release binary for $(uname -s)/$(uname -m)"; exit 1 ;;
esac
for ref in "$tag" v0 v0.0 "$commit"; do
  out="$work/out-$ref"
  : > "$out"
  env -u GITHUB_TOKEN -u GH_TOKEN ACTION_REF="$ref" RUNNER_OS=$os RUNNER_ARCH=$arch DEST="$work/dest-$ref" \
    REPO_URL="$repo" RELEASES_URL="file://$work/releases" GITHUB_OUTPUT="$out" PATH="/usr/bin:/bin" \
    bash "$work/action/fetch.sh"
  bin=$(sed -n 's/^bin=//p' "$out")
  if [ "$ref" = "$commit" ]; then
    [ -z "$bin" ] || { echo "rehearse.sh: a commit SHA fetched $bin"; exit 1; }
    continue
  fi
  "$bin" version
done
rm -rf dist
echo "rehearsal passed"
