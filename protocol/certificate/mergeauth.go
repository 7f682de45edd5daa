package certificate

import (
	"encoding/json"
	"slices"

	"github.com/aepgate/aepgate/protocol/refusal"
)

// MergeAuthority records who merged a unit's pull request and under which
// authority (merge.authority; craft-rules §4.1): "owner", "coordinator",
// "merge-queue", or "owner-accepted" with the owner who accepted the merge
// and the comment that carried the acceptance.
type MergeAuthority struct {
	MergedBy            string `json:"mergedBy"`
	Authority           string `json:"authority"`
	AcceptedBy          string `json:"acceptedBy,omitempty"`
	AcceptanceCommentID int64  `json:"acceptanceCommentId,omitempty"`
}

// mergeAuthorities are the authorities a certificate may record.
var mergeAuthorities = []string{"owner", "coordinator", "merge-queue", "owner-accepted"}

// ruleMergeAuthority checks mergeAuthority when present: an object with a
// mergedBy (empty only for an accepted merge GitHub names no merger of)
// and a known authority; acceptedBy and a positive
// acceptanceCommentId exactly when the authority is owner-accepted.
func ruleMergeAuthority(m map[string]any) []refusal.Refusal {
	v, ok := m["mergeAuthority"]
	if !ok {
		return nil
	}
	bad := []refusal.Refusal{{Token: "invalid:mergeAuthority", Expected: "{mergedBy, authority (owner|coordinator|merge-queue|owner-accepted)}, with acceptedBy and acceptanceCommentId exactly for owner-accepted", Seen: show(v)}}
	obj, isObj := v.(map[string]any)
	if !isObj {
		return bad
	}
	by, byOK := obj["mergedBy"].(string)
	auth, authOK := obj["authority"].(string)
	accepted := auth == "owner-accepted"
	if !byOK || (by == "" && !accepted) || !authOK || !slices.Contains(mergeAuthorities, auth) {
		return bad
	}
	keys := 2
	if accepted {
		keys = 4
		who, whoOK := obj["acceptedBy"].(string)
		id, idOK := obj["acceptanceCommentId"].(json.Number)
		if !whoOK || who == "" || !idOK || !positiveInt().MatchString(id.String()) {
			return bad
		}
	}
	if len(obj) != keys {
		return bad
	}
	return nil
}
