#!/usr/bin/env bash
# Prints manifest.sha256: the SHA-256 of every file the Action runs before
# it has verified a release binary, and of the release machinery itself,
# as "<64 hex>  <path>" lines sorted with LC_ALL=C (the format release
# closure reads, docs/evidence.md). Release closure compares the manifest
# at the tag, the release's manifest.sha256 asset and each listed file at
# the tag, so the manifest is committed: regenerate it with
#   bash .github/release/manifest.sh > manifest.sha256
# whenever a listed file changes (a test in internal/releaseflow fails
# until then), and the release workflow checks it again before publishing.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
files=(
  action.yml
  internal/actionfetch/fetch.sh
  .goreleaser.yaml
  .github/workflows/release.yml
  .github/release/manifest.sh
  .github/release/sign.sh
  .github/release/receipt.sh
)
if [ -f internal/actionfetch/release-signing.pub ]; then
  files+=(internal/actionfetch/release-signing.pub)
fi
for f in "${files[@]}"; do
  printf '%s  %s\n' "$(sha256sum "$f" | cut -d' ' -f1)" "$f"
done | LC_ALL=C sort -k2
