package checks

import (
	"fmt"
	"strings"
	"time"

	"github.com/aepgate/aepgate/protocol/gatelog"
)

// tampering lists the kept decisions whose source was edited or deleted:
// they stay in force as accepted (docs/gates.md, "Kept decisions").
func tampering(b *strings.Builder, ts []gatelog.Tamper) {
	if len(ts) == 0 {
		return
	}
	fmt.Fprintf(b, "\n### Tampering\n\nThe source of %d decision(s) aepgate had accepted was changed afterwards. "+
		"What they blocked stays in force exactly as accepted; what they granted no longer counts. "+
		"Only an owner's new, unedited comment lifts a HOLD or answers a gate.\n\n", len(ts))
	for _, t := range ts {
		by := "by an account GitHub did not name"
		if t.By != "" {
			by = "by `" + t.By + "`"
		}
		fmt.Fprintf(b, "- %s by `%s` (posted %s): %s %s\n", itemLink(t), t.Author, t.Created.UTC().Format(time.RFC3339), t.Change, by)
	}
}

// itemLink links a kept item where GitHub gave its address.
func itemLink(t gatelog.Tamper) string {
	what := fmt.Sprintf("comment %d", t.ItemID)
	if t.URL != "" {
		return "[" + what + "](" + t.URL + ")"
	}
	return what
}
