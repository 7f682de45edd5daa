package merge

import (
	"errors"
	"fmt"
	"strings"

	"github.com/aepgate/aepgate/internal/gh"
)

// boundText is the reply when the App merged, or arranged the merge of,
// head.
func boundText(out *gh.MergeOutcome, head, base, why string) string {
	var what string
	switch out.How {
	case gh.MergedByQueue:
		what = fmt.Sprintf("Enqueued %s in the merge queue of `%s`", Short(head), base)
	case gh.MergedByAutoMerge:
		what = fmt.Sprintf("Enabled auto-merge of %s into `%s` (it has no merge queue)", Short(head), base)
	default:
		what = fmt.Sprintf("Merged %s into `%s` as %s (GitHub had nothing to wait for)", Short(head), base, Short(out.SHA))
	}
	return what + ": " + why + ".\n\nThe merge is bound to this head (expectedHeadOid): GitHub merges no other. A push, a HOLD, a new gate or any aepgate check on it that is no longer green makes the App take it back."
}

// refusedText is the reply when GitHub refused to merge head.
func refusedText(cause error, head, prefix string) string {
	var moved *gh.HeadMovedError
	if errors.As(cause, &moved) {
		return fmt.Sprintf("GitHub refused to merge %s: %s. The App merges only the head its checks judged; once the new head is judged green, ask again with `%s merge`.", Short(head), moved.Error(), prefix)
	}
	return fmt.Sprintf("GitHub refused to merge %s: %s. Fix what GitHub names, then ask again with `%s merge`.", Short(head), cause.Error(), prefix)
}

// releasedText is the reply when the App took back the merge bound to
// head.
func releasedText(did []string, head, why, prefix string) string {
	done := "Nothing of it was left on GitHub to take back (GitHub takes a pull request out of its merge queue when its head moves)"
	if len(did) > 0 {
		done = "The App " + strings.Join(did, " and ")
	}
	return fmt.Sprintf("The merge bound to %s no longer holds: %s. %s. Once the head is judged green again, ask again with `%s merge`.", Short(head), why, done, prefix)
}
