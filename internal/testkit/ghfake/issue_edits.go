package ghfake

import "time"

// contentEdit is one revision of an issue's body, as GraphQL's
// UserContentEdit shows it: when, by whom, and the body it left (diff).
type contentEdit struct {
	id     int64
	at     time.Time
	editor *user
	diff   string
}

// editBody replaces is's body as by did: GraphQL's Issue.lastEditedAt and
// Issue.editor name the last edit, and Issue.userContentEdits lists every
// revision, the first edit also recording the body as created (GitHub's
// "created" entry, includesCreatedEdit).
func (f *Fake) editBody(is *issue, by *user, body string) {
	now := f.clock()
	if len(is.edits) == 0 {
		is.edits = append(is.edits, &contentEdit{id: f.nextID(), at: is.created, editor: is.author, diff: is.body})
	}
	is.body, is.updated, is.edited, is.editor = body, now, now, by
	is.edits = append(is.edits, &contentEdit{id: f.nextID(), at: now, editor: by, diff: body})
}

// editFields serves the Comment interface's edit fields of an issue or pull
// request: lastEditedAt, editor, includesCreatedEdit and userContentEdits
// (newest first, as GitHub lists them).
func (r *issueRes) editFields(x *gqlExec, name string, args map[string]any) (any, bool, error) {
	i := r.i
	switch name {
	case "lastEditedAt":
		return ts(i.edited), true, nil
	case "editor":
		if i.editor == nil {
			return nil, true, nil
		}
		return actor(x.c.f, i.editor), true, nil
	case "includesCreatedEdit":
		return len(i.edits) > 0, true, nil
	case "userContentEdits":
		var items []any
		for k := len(i.edits) - 1; k >= 0; k-- {
			items = append(items, &contentEditRes{e: i.edits[k]})
		}
		c, err := newConn("UserContentEditConnection", "userContentEdits", items, args)
		return c, true, err
	}
	return nil, false, nil
}

// contentEditRes is a UserContentEdit.
type contentEditRes struct{ e *contentEdit }

func (r *contentEditRes) typeName() string { return "UserContentEdit" }

func (r *contentEditRes) field(x *gqlExec, name string, _ map[string]any) (any, error) {
	e := r.e
	switch name {
	case "id":
		return nodeID("UserContentEdit", e.id), nil
	case "editedAt", "createdAt", "updatedAt":
		return ts(e.at), nil
	case "editor":
		return actor(x.c.f, e.editor), nil
	case "diff":
		return e.diff, nil
	case "deletedAt", "deletedBy":
		return nil, nil
	}
	return nil, unknownField("UserContentEdit", name)
}

// Edit replaces the milestone's description as login did, sending
// milestone.edited with changes.description.from the old one. GitHub's
// GraphQL Milestone names no editor; the webhook's sender does.
func (m *Milestone) Edit(login, description string) {
	f := m.r.f
	defer f.flush()
	f.mu.Lock()
	defer f.mu.Unlock()
	ms := m.r.s.milestone(m.n)
	old := ms.description
	ms.description, ms.updated = description, f.clock()
	f.emit(m.r.s, "milestone", "edited", f.ensureUser(login), obj{"milestone": f.milestoneJSON(m.r.s, ms),
		"changes": obj{"description": obj{"from": old}}})
}
