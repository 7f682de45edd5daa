package gatelog

import (
	"time"

	"github.com/aepgate/aepgate/protocol/snapshot"
)

// CommentItems turns a thread's comments into gate-log items. A comment
// GitHub marks edited counts as edited even when its updatedAt was not
// moved, so an edited command never counts as unedited.
func CommentItems(t snapshot.Thread, src Source) []Item {
	out := make([]Item, 0, len(t.Comments))
	for _, c := range t.Comments {
		updated := c.Updated
		if c.Edited && !updated.After(c.Created) {
			updated = c.Created.Add(time.Nanosecond)
		}
		out = append(out, Item{ID: c.ID, URL: c.URL, Source: src, Author: c.Author.Login, AuthorType: c.Author.Type,
			Created: c.Created, Updated: updated, Body: c.Body, Event: EventCommentCreated, EditedBy: c.EditedBy})
	}
	return out
}
