package heldwork

import (
	"fmt"
	"strings"

	"github.com/aepgate/aepgate/app/verdict"
)

// Marker starts every reply to work on a held unit; the owner's board
// lists those on a pull request (verdict.HeldWorkInbox).
const Marker = verdict.HeldWorkMarker

// Reply is the one reply to w under hold: what was done, that the HOLD
// blocks it, and how the owner lifts it.
func Reply(w Work, hold, prefix string) string {
	var b strings.Builder
	b.WriteString(Marker + "\n")
	switch w.Kind {
	case KindPush:
		fmt.Fprintf(&b, "**aepgate: HOLD — this push is implementation on held work unit #%d.**\n\n", w.Unit)
		fmt.Fprintf(&b, "@%s pushed `%s` while the owner's HOLD applies (%s). ", w.By, short(w.Head), hold)
	default:
		fmt.Fprintf(&b, "**aepgate: HOLD — assigning an agent is implementation on held work unit #%d.**\n\n", w.Unit)
		fmt.Fprintf(&b, "@%s assigned the agent @%s while the owner's HOLD applies (%s). ", w.By, w.Assignee, hold)
	}
	b.WriteString("A HOLD permits truthful status publication but blocks spawning, implementation and merge: stop work on this unit until the owner resumes. `aepgate/gates` keeps the merge blocked.\n\n")
	fmt.Fprintf(&b, "The owner lifts the HOLD where it was put:\n\n```\n%s resume\n```\n", prefix)
	return b.String()
}

func short(sha string) string {
	if len(sha) > 12 {
		return sha[:12]
	}
	return sha
}
