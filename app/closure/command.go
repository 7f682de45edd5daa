package closure

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/aepgate/aepgate/app/verdict"
	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/internal/store"
	"github.com/aepgate/aepgate/protocol/closure"
	"github.com/aepgate/aepgate/protocol/command"
	"github.com/aepgate/aepgate/protocol/config"
	"github.com/aepgate/aepgate/protocol/workunit"
)

// Said is a comment on a unit's issue that may hold `/aep close
// <reason>`, as it was created (Cmd.Event issue_comment.created) or edited.
type Said struct {
	Issue int
	Cmd   closure.Command
	Body  string
}

// Command reads the config with the issue and the author's live role,
// keeps a created command among the unit's closure facts with a ledger
// row, acknowledges it once (👍, or 👎 and a reply saying why), and judges
// the attempts the unit affects again when the issue is closed. It judges
// nothing itself: protocol/closure does.
func (j *Judge) Command(ctx context.Context, in Input, s Said) error {
	st, err := j.Issues.IssueClosure(ctx, in.Owner, in.Repo, s.Issue)
	if err != nil || !st.Found {
		return err
	}
	cfg, err := verdict.Config(st.Config)
	if err != nil {
		return nil // an invalid config decides nothing; the attempts show it
	}
	c, ok := closeOf(s, cfg.CommandPrefix)
	if !ok {
		return nil
	}
	if c.Type == "User" && c.Event == closure.EventCommentCreated {
		if c.Permission, err = j.Roles.Role(ctx, in.Owner, in.Repo, c.Login); err != nil {
			return err
		}
	}
	f, err := j.unitFacts(ctx, in, cfg, st, s.Issue)
	if err != nil {
		return err
	}
	if c.Event == closure.EventCommentCreated {
		if err := j.keepCommand(ctx, in, f, c); err != nil {
			return err
		}
	}
	hold, err := j.holdOn(ctx, in, s.Issue, cfg.CommandPrefix)
	if err != nil {
		return err
	}
	if err := j.acknowledge(ctx, in, s.Issue, c, closure.Acknowledge(f, c, hold, j.Rules), f.Prefix); err != nil {
		return err
	}
	if st.Open || c.Event != closure.EventCommentCreated {
		return nil
	}
	return j.JudgeOpen(ctx, s.Issue)
}

// closeOf is the comment's first close command under prefix, with its
// reason ("" when malformed), and false when it holds none.
func closeOf(s Said, prefix string) (closure.Command, bool) {
	cmds := command.Parse(s.Body, prefix)
	i := slices.IndexFunc(cmds, func(c command.Command) bool { return c.Verb == command.VerbClose })
	if i < 0 {
		return closure.Command{}, false
	}
	c := s.Cmd
	if cmds[i].Err == nil {
		c.Reason = cmds[i].Reason
	}
	return c, true
}

// unitFacts are the unit's stored closure facts, or its facts from the
// issue when none are stored; Open is GitHub's state now.
func (j *Judge) unitFacts(ctx context.Context, in Input, cfg *config.Config, st *gh.IssueClosure, issue int) (closure.Facts, error) {
	f, err := j.stored(ctx, in.repo(), issue)
	if err != nil {
		return f, err
	}
	if f.Number == 0 {
		ct, _ := workunit.ParseContract(st.Body)
		f = closure.Facts{Number: issue, StateReason: st.StateReason, Owners: cfg.Owners, Risk: string(ct.Risk), Prefix: cfg.CommandPrefix, Final: cfg.Closure.Final}
	}
	f.Open = st.Open
	return f, nil
}

// keepCommand adds c to the unit's stored closure facts with a ledger row
// (once: a redelivery finds it there).
func (j *Judge) keepCommand(ctx context.Context, in Input, f closure.Facts, c closure.Command) error {
	if c.Reason == "" || slices.ContainsFunc(f.Commands, func(o closure.Command) bool { return o.CommentID == c.CommentID }) {
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
