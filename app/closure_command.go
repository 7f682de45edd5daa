package app

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/aepgate/aepgate/app/verdict"
	"github.com/aepgate/aepgate/internal/store"
	"github.com/aepgate/aepgate/protocol/closure"
	"github.com/aepgate/aepgate/protocol/command"
	"github.com/aepgate/aepgate/protocol/workunit"
)

// closeCommand is a created comment on a unit's issue that may hold
// `/aep close <reason>`: it is kept among the unit's closure facts (who
// said it, their live role, the comment as created), so the unit counts as
// done once closed as completed if the author is an owner (protocol/closure
// judges it, never this handler).
type closeCommand struct {
	issue int
	cmd   closure.Command
	body  string
}

// hasCloseLine reports a line that starts with a slash word and the verb
// close, whatever the prefix: the config that names it is read only then.
func hasCloseLine(body string) bool {
	for line := range strings.Lines(body) {
		f := strings.Fields(line)
		if strings.HasPrefix(line, "/") && len(f) >= 2 && f[1] == command.VerbClose {
			return true
		}
	}
	return false
}

// closeCommandOf is the close command work of a created comment that
// holds the word "close" after a slash (the prefix is the config's, known
// only once it is read).
func closeCommandOf(issue int, v conversationView) (closeCommand, bool) {
	c := v.Comment
	if c.User == nil || !hasCloseLine(c.Body) {
		return closeCommand{}, false
	}
	return closeCommand{issue: issue, body: c.Body, cmd: closure.Command{
		Actor: closure.Actor{Login: c.User.Login, Type: c.User.Type}, CommentID: c.ID,
		Event: closure.EventCommentCreated, Created: c.Created, Updated: c.Updated}}, true
}

func (j closeCommand) run(ctx context.Context, _ *App, ev *evaluator, w where) error {
	return ev.keepCloseCommand(ctx, w, j)
}

// keepCloseCommand reads the config with the issue and the author's live
// role, adds the command to the unit's closure facts with a ledger row,
// and judges the attempts the unit affects again when it is closed.
func (e *evaluator) keepCloseCommand(ctx context.Context, w where, j closeCommand) error {
	in := w.input()
	st, err := e.issues.IssueClosure(ctx, in.owner, in.repo, j.issue)
	if err != nil || !st.Found {
		return err
	}
	cfg, err := verdict.Config(st.Config)
	if err != nil {
		return nil // an invalid config decides nothing; the attempts show it
	}
	i := slices.IndexFunc(command.Parse(j.body, cfg.CommandPrefix), func(c command.Command) bool { return c.Verb == command.VerbClose && c.Err == nil })
	if i < 0 {
		return nil
	}
	c := j.cmd
	c.Reason = command.Parse(j.body, cfg.CommandPrefix)[i].Reason
	if c.Type == "User" {
		if c.Permission, err = e.roles.Role(ctx, in.owner, in.repo, c.Login); err != nil {
			return err
		}
	}
	repo := in.owner + "/" + in.repo
	f, err := e.storedFacts(ctx, repo, j.issue)
	if err != nil {
		return err
	}
	if f.Number == 0 {
		ct, _ := workunit.ParseContract(st.Body)
		f = closure.Facts{Number: j.issue, StateReason: st.StateReason, Owners: cfg.Owners, Risk: string(ct.Risk), Prefix: cfg.CommandPrefix}
	}
	if slices.ContainsFunc(f.Commands, func(o closure.Command) bool { return o.CommentID == c.CommentID }) {
		return nil // a redelivery
	}
	f.Commands = append(f.Commands, c)
	raw, err := json.Marshal(f)
	if err != nil {
		return fmt.Errorf("closure facts: %w", err)
	}
	entry := store.Entry{Kind: "closure_command", DeliveryID: in.delivery, Subject: fmt.Sprintf("%s#%d", repo, j.issue),
		Body: map[string]any{"comment_id": c.CommentID, "author": c.Actor, "reason": c.Reason}}
	if err := e.units.SaveClosure(ctx, repo, j.issue, raw, entry, time.Now()); err != nil {
		return err
	}
	if st.Open {
		return nil
	}
	return e.judgeOpen(ctx, in, j.issue, nil)
}

// storedFacts are the unit's stored closure facts (zero when none).
func (e *evaluator) storedFacts(ctx context.Context, repo string, unit int) (closure.Facts, error) {
	rows, err := e.units.Closures(ctx, repo)
	if err != nil {
		return closure.Facts{}, err
	}
	raw, ok := rows[unit]
	if !ok {
		return closure.Facts{}, nil
	}
	return verdict.ClosureFacts(raw, nil)
}
