package checks

import (
	"fmt"
	"strings"
)

// UnjudgedMarker starts the App's one reply to comment or review itemID
// whose commands could not be judged (UnjudgedReply).
func UnjudgedMarker(itemID int64) string { return fmt.Sprintf("<!-- aepgate:unjudged:%d -->", itemID) }

// UnjudgedReply renders the App's reply to a comment or review whose
// commands cannot be judged because the repository config's people (its
// owners, coordinators, auditors, agents) cannot be resolved: why, that
// nothing in it is in force yet and every check that needs them fails
// closed meanwhile, and that it is judged as written once they can be
// read. The author is a code span, so the reply mentions nobody.
func UnjudgedReply(itemID int64, author, why string) string {
	var b strings.Builder
	b.WriteString(UnjudgedMarker(itemID) + "\n")
	fmt.Fprintf(&b, "%s, aepgate cannot judge the commands in this comment yet: the people the repository config names cannot be resolved.\n\n", code("@"+author))
	fmt.Fprintf(&b, "Why: %s.\n\n", strings.TrimSuffix(why, "."))
	b.WriteString("Until they can, nothing this comment asks is in force, and every check, closure, acceptance and deployment that needs them fails closed. " +
		"Once the App can read them, it judges this comment as written.\n")
	return b.String()
}
