package closure

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/internal/store"
	"github.com/aepgate/aepgate/protocol/closurerules"
	"github.com/aepgate/aepgate/protocol/command"
	"github.com/aepgate/aepgate/protocol/config"
)

// Said is a comment on a unit's issue that may hold `/aep close
// <reason>`, as it was created (Cmd.Event issue_comment.created) or edited.
type Said struct {
	Issue int
	Cmd   closurerules.Command
	Body  string
}

// Command reads the config with the issue and the author's live role,
// keeps a created command among the unit's closure facts with a ledger
// row, acknowledges it once (👍, or 👎 and a reply saying why), and judges
// the attempts the unit affects again when the issue is closed. It judges
// nothing itself: protocol/closurerules does.
func (j *Judge) Command(ctx context.Context, in Input, s Said) error {
	st, err := j.Issues.IssueClosure(ctx, in.Owner, in.Repo, s.Issue)
	if err != nil || !st.Found {
		return err
	}
	cfg, problem, err := j.config(ctx, in, st)
	if err != nil || cfg == nil {
		return err // an invalid config decides nothing; the attempts show it
	}
	c, ok := closeOf(s, cfg.CommandPrefix)
	if !ok {
		return nil
	}
	if c.Permission, err = j.permission(ctx, in, c); err != nil {
		return err
	}
	f, err := j.unitFacts(ctx, in, cfg, st, s.Issue)
	if err != nil {
		return err
	}
	if c.Event == closurerules.EventCommentCreated {
		if err := j.keepCommand(ctx, in, f, c); err != nil {
			return err
		}
	}
	hold, err := j.holdOn(ctx, in, s.Issue, cfg.CommandPrefix)
	if err != nil {
		return err
	}
	if err := j.acknowledge(ctx, in, s.Issue, c, j.refusal(f, c, hold, problem), f.Prefix); err != nil {
		return err
	}
	if st.Open || c.Event != closurerules.EventCommentCreated {
		return nil
	}
	return j.JudgeOpen(ctx, s.Issue)
}

// permission is the live role of c's author, read only for a created
// comment by a User ("" otherwise: it never counts as the owner's).
func (j *Judge) permission(ctx context.Context, in Input, c closurerules.Command) (string, error) {
	if c.Type != "User" || c.Event != closurerules.EventCommentCreated {
		return "", nil
	}
	return j.Roles.Role(ctx, in.Owner, in.Repo, c.Login)
}

// refusal is why c does not count ("" when it does): protocol/closurerules's
// answer, or, while the owners cannot be resolved (problem), that no
// one's command counts as the owner's.
func (j *Judge) refusal(f closurerules.Facts, c closurerules.Command, hold, problem string) string {
	if problem != "" {
		return "the owners cannot be resolved, so no one's command counts as the owner's: " + problem
	}
	return closurerules.Acknowledge(f, c, hold, j.Rules)
}

// closeOf is the comment's first close command under prefix, with its
// reason ("" when malformed), and false when it holds none.
func closeOf(s Said, prefix string) (closurerules.Command, bool) {
	cmds := command.Parse(s.Body, prefix)
	i := slices.IndexFunc(cmds, func(c command.Command) bool { return c.Verb == command.VerbClose })
	if i < 0 {
		return closurerules.Command{}, false
	}
	c := s.Cmd
	if cmds[i].Err == nil {
		c.Reason = cmds[i].Reason
	}
	return c, true
}

// unitFacts are the unit's stored closure facts, or its facts from the
// issue when none are stored; Open is GitHub's state now, and the owners
// are the config's now (resolved: a command is judged on who owns the
// repository when it is made, so an owner whose source could not be read
// at the closure counts once it can).
func (j *Judge) unitFacts(ctx context.Context, in Input, cfg *config.Config, st *gh.IssueClosure, issue int) (closurerules.Facts, error) {
	f, err := j.stored(ctx, in.repo(), issue)
	if err != nil {
		return f, err
	}
	if f.Number == 0 {
		risk, err := j.risk(ctx, in, cfg, st, issue)
		if err != nil {
			return f, err
		}
		f = closurerules.Facts{Number: issue, StateReason: st.StateReason, Owners: cfg.Owners, Risk: risk, Prefix: cfg.CommandPrefix, Final: cfg.Closure.Final}
	}
	f.Open, f.Owners = st.Open, cfg.Owners
	return f, nil
}

// keepCommand adds c to the unit's stored closure facts with a ledger row
// (once: a redelivery finds it there).
func (j *Judge) keepCommand(ctx context.Context, in Input, f closurerules.Facts, c closurerules.Command) error {
	if c.Reason == "" || slices.ContainsFunc(f.Commands, func(o closurerules.Command) bool { return o.CommentID == c.CommentID }) {
		return nil
	}
	f.Commands = append(f.Commands, c)
	f.Open = false // stored facts describe the closure; GitHub's state is read each time
	raw, err := json.Marshal(f)
	if err != nil {
		return fmt.Errorf("closure facts: %w", err)
	}
	entry := store.Entry{Kind: "closure_command", DeliveryID: in.Delivery, Subject: fmt.Sprintf("%s#%d", in.repo(), f.Number),
		Body: map[string]any{"comment_id": c.CommentID, "author": c.Actor, "reason": c.Reason}}
	return j.Store.SaveClosure(ctx, in.repo(), f.Number, raw, entry, time.Now())
}
