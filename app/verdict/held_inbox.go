package verdict

import (
	"fmt"
	"strings"

	"github.com/aepgate/aepgate/protocol/boardview"
	"github.com/aepgate/aepgate/protocol/login"
)

// HeldWorkMarker starts the App's reply to implementation on a held unit
// (app/heldwork): a push to its pull request or an agent assigned to it.
const HeldWorkMarker = "<!-- aepgate:held-work -->"

// HeldWorkInbox lists, for the owner's board, the App's held-work replies
// on the evaluated pull request while a HOLD or gate still blocks it: work
// was pushed under the HOLD (craft-rules §3.4).
func HeldWorkInbox(ev *Evaluation) []boardview.InboxItem {
	p := ev.Snap.Pull
	if p == nil || ev.AppLogin == "" || ev.GateLog() == nil || len(ev.GateLog().Blockers) == 0 {
		return nil
	}
	var out []boardview.InboxItem
	for _, c := range p.Conversation.Comments {
		if !login.Equal(c.Author.Login, ev.AppLogin) || !strings.HasPrefix(c.Body, HeldWorkMarker) {
			continue
		}
		out = append(out, boardview.InboxItem{Kind: "held-work", Subject: fmt.Sprintf("work unit #%d", ev.Unit),
			Question: heldWorkLine(c.Body), URL: c.URL, Since: c.Created.UTC()})
	}
	return out
}

// heldWorkLine is the reply's sentence saying who did what under the HOLD.
func heldWorkLine(body string) string {
	lines := strings.Split(body, "\n")
	for _, l := range lines {
		if strings.HasPrefix(l, "@") {
			s, _, _ := strings.Cut(l, ". ")
			return "under HOLD: " + s
		}
	}
	return "work under HOLD"
}
