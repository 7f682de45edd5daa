package boardview

import (
	"fmt"
	"time"

	"github.com/aepgate/aepgate/protocol/closurerules"
)

// needsReview is a needs-review story's blocked reason (closure.final:
// owner): it has its evidence and waits for the owner's closure.
func needsReview(v closurerules.Verdict) string {
	return fmt.Sprintf("needs-review: %s (%s; closed by %s); the owner closes #%d or says `%s` on it", v.Missing, v.Evidence, v.Closer, v.Number, v.Command)
}

// NeedsReviewItem is the owner's inbox item of unit v waiting in
// needs-review for the owner's closure (closure.final: owner); repoURL is
// the repository's page, since when it was closed.
func NeedsReviewItem(v closurerules.Verdict, repoURL string, since time.Time) InboxItem {
	return InboxItem{Kind: "needs-review", Subject: fmt.Sprintf("work unit #%d", v.Number),
		Question: fmt.Sprintf("%s: %s, closed by %s", closurerules.WaitingForOwner, v.Evidence, v.Closer), Reply: v.Command,
		URL: fmt.Sprintf("%s/issues/%d", repoURL, v.Number), Since: since}
}
