#!/usr/bin/env bash
# Prints the adoption receipt release closure reads from a final release's
# body (docs/evidence.md): one ```json block naming the release, the commit
# its tag peels to, and the workflow run that adopted it.
#   bash .github/release/receipt.sh <tag> <commit> <repository> <run id> <run URL> [adoptedAt]
set -euo pipefail
tag=$1 commit=$2 repo=$3 run=$4 url=$5
at=${6:-$(date -u +%Y-%m-%dT%H:%M:%SZ)}
[[ $tag =~ ^v([0-9]+\.[0-9]+\.[0-9]+)$ ]] || { echo "receipt.sh: $tag is not a final vX.Y.Z tag" >&2; exit 1; }
version=${BASH_REMATCH[1]}
[[ $commit =~ ^[0-9a-f]{40}$ ]] || { echo "receipt.sh: $commit is not a 40-hex commit" >&2; exit 1; }
cat <<JSON
\`\`\`json
{
  "adoptedAt": "$at",
  "adoptions": [{"coordinatorSessionId": "github-actions-run-$run", "project": "$repo"}],
  "commit": "$commit",
  "ownerFacingOrchestratorSessionId": "$url",
  "schemaVersion": 1,
  "state": "adopted",
  "tag": "$tag",
  "version": "$version"
}
\`\`\`
JSON
