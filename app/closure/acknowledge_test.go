package closure

import (
	"testing"

	"github.com/aepgate/aepgate/internal/testkit/golden"
	"github.com/aepgate/aepgate/protocol/closurerules"
)

// TestReply: the reply to a refused `/aep close` names the comment's
// author as a code span (no mention), the reason and what would count.
func TestReply(t *testing.T) {
	c := closurerules.Command{Actor: closurerules.Actor{Login: "carl`@olivia", Type: "User", Permission: "write"}, CommentID: 4242}
	for _, tt := range []struct{ name, prefix, why string }{
		{"close-reply", "", "carl is not listed in owners (olivia); only an owner's own `close` counts"},
		{"close-reply-prefix", "/ship", "a HOLD applies (release freeze), and a closure under HOLD is never evidence; the owner says `/ship resume`, then `/ship close <reason>` again"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			golden.CheckString(t, "testdata/"+tt.name+".golden", Reply(c, tt.why, tt.prefix))
		})
	}
}
