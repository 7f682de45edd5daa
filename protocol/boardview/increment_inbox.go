package boardview

import (
	"fmt"
	"strings"
)

// incrementItem is the inbox item of a milestone closed before its
// increment was complete, as far as the board sees: a story of it is open,
// or closed and not done (done, or certified by its closure). The App also says so once on the
// control issue (docs/increment.md); the item stays until the milestone is
// reopened or its stories are done.
func incrementItem(m Milestone, inc Increment) (InboxItem, bool) {
	if m.Open || len(inc.Stories) == 0 {
		return InboxItem{}, false
	}
	open := map[int]bool{}
	for _, is := range m.Issues {
		open[is.Number] = is.Open
	}
	var missing []string
	for _, s := range inc.Stories {
		switch {
		case open[s.Number]:
			missing = append(missing, fmt.Sprintf("#%d is open (%s)", s.Number, s.State))
		case s.State != StateDone && s.State != StateCertified:
			missing = append(missing, fmt.Sprintf("#%d is %s", s.Number, s.State))
		}
	}
	if len(missing) == 0 {
		return InboxItem{}, false
	}
	return InboxItem{Kind: "increment", Subject: fmt.Sprintf("milestone %d %s", m.Number, m.Title),
		Question: "closed before its increment was complete: " + strings.Join(missing, ", ") + "; reopen the milestone, or finish its stories",
		URL:      m.URL, Since: m.ClosedAt}, true
}
