#!/usr/bin/env bash
# Signs a release's checksums.txt: writes checksums.txt.sig beside it, an
# ECDSA P-256 signature over its SHA-256 (DER), made with the private key
# in $AEPGATE_RELEASE_SIGNING_KEY (PEM; the release workflow's secret),
# then verifies it with the public key the Action verifies with
# ($RELEASE_SIGNING_PUB, default internal/actionfetch/release-signing.pub)
# so a key that does not match fails the release, not its users.
#   bash .github/release/sign.sh dist/checksums.txt
set -euo pipefail
sums=$1
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
pub=${RELEASE_SIGNING_PUB:-$root/internal/actionfetch/release-signing.pub}
if [ -z "${AEPGATE_RELEASE_SIGNING_KEY:-}" ]; then
  echo "::error::sign.sh: AEPGATE_RELEASE_SIGNING_KEY is empty: set the release environment's secret (docs/releasing.md)"; exit 1
fi
if [ ! -f "$pub" ]; then
  echo "::error::sign.sh: no public key at $pub: commit the release key's public half (docs/releasing.md)"; exit 1
fi
key=$(mktemp)
trap 'rm -f "$key"' EXIT
printf '%s\n' "$AEPGATE_RELEASE_SIGNING_KEY" > "$key"
openssl dgst -sha256 -sign "$key" -out "$sums.sig" "$sums"
if ! openssl dgst -sha256 -verify "$pub" -signature "$sums.sig" "$sums" >/dev/null; then
  echo "::error::sign.sh: the signature does not verify against $pub: the secret is not the private half of the committed key"; exit 1
fi
echo "signed $sums ($(sha256sum "$sums" | cut -d' ' -f1)) → $sums.sig"
