package closure

import (
	"context"
	"fmt"
	"strings"

	"github.com/aepgate/aepgate/internal/store"
	"github.com/aepgate/aepgate/protocol/closurerules"
)

// ReplyMarker starts the App's one reply to a refused `/aep close`
// comment id.
func ReplyMarker(id int64) string { return fmt.Sprintf("<!-- aepgate:close-reply:%d -->", id) }

// answeredSubject names the ledger row that says comment id's `/aep
// close` was acknowledged, so a redelivery or an edit acknowledges it no
// second time.
func answeredSubject(repo string, id int64) string {
	return fmt.Sprintf("%s/close-answered/%d", repo, id)
}

// acknowledge answers `/aep close` comment c once, as docs/gates.md says
// of every command: 👍 when it counts (refused is ""), else 👎 and one
// reply in the issue saying why; then the ledger row that it was answered.
func (j *Judge) acknowledge(ctx context.Context, in Input, issue int, c closurerules.Command, refused, prefix string) error {
	subject := answeredSubject(in.repo(), c.CommentID)
	done, err := j.Ledger.Has(ctx, subject)
	if err != nil || done {
		return err
	}
	content := "+1"
	if refused != "" {
		content = "-1"
	}
	if err := j.Issues.React(ctx, in.Owner, in.Repo, c.CommentID, content); err != nil {
		return err
	}
	if refused != "" {
		if _, err := j.Issues.Comment(ctx, in.Owner, in.Repo, issue, Reply(c, refused, prefix)); err != nil {
			return err
		}
	}
	return j.Ledger.Record(ctx, store.Entry{Kind: "closure_command_answered", DeliveryID: in.Delivery, Subject: subject,
		Body: map[string]any{"comment_id": c.CommentID, "issue": issue, "author": c.Login, "counts": refused == "", "refused": refused}})
}

// Reply is the App's reply to a refused `/aep close` comment: whose
// comment, why it does not count, and what would. The author's login is a
// code span, so the reply mentions nobody.
func Reply(c closurerules.Command, refused, prefix string) string {
	if prefix == "" {
		prefix = "/aep"
	}
	var b strings.Builder
	b.WriteString(ReplyMarker(c.CommentID) + "\n")
	fmt.Fprintf(&b, "**aepgate did not count `%s close`** in the comment by `%s`: %s.\n\n", prefix, strings.ReplaceAll(c.Login, "`", ""), refused)
	fmt.Fprintf(&b, "The unit counts as done on its certificate, or (low risk) its merge and readback, or the owner's own closure or `%s close <reason>` in a new comment.\n", prefix)
	return b.String()
}
