package merge

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"

	"github.com/aepgate/aepgate/app/pull"
	"github.com/aepgate/aepgate/app/verdict"
	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/internal/store"
	"github.com/aepgate/aepgate/protocol/command"
	"github.com/aepgate/aepgate/protocol/snapshot"
)

// GitHub is what the merge reads and writes on GitHub (gh.Installation).
type GitHub interface {
	PullMergeState(ctx context.Context, owner, repo string, n int) (*gh.PullMergeState, error)
	MergeBound(ctx context.Context, owner, repo string, n int, head, method string) (*gh.MergeOutcome, error)
	DequeuePullRequest(ctx context.Context, id string) error
	DisableAutoMerge(ctx context.Context, id string) error
	Role(ctx context.Context, owner, repo, login string) (string, error)
	React(ctx context.Context, owner, repo string, commentID int64, content string) error
	Comment(ctx context.Context, owner, repo string, number int, body string) (int64, error)
}

// Ledger records the merges the App made and took back (writer.Writer).
type Ledger interface {
	Record(ctx context.Context, e store.Entry) error
}

// Method is how the App merges: a merge commit, so the readback finds the
// audited head among the merge's parents.
const Method = "MERGE"

// Merger merges what `/aep merge` and merge.auto ask for, after each
// judgement of a pull request (pull.Then).
type Merger struct {
	GitHub GitHub
	Ledger Ledger
	Rules  Rules
	Log    *slog.Logger
}

var _ pull.Then = Merger{}

// Attach makes a Merger with the package's rules run after each of p's
// judgements.
func Attach(p *pull.Judge, g GitHub, l Ledger, log *slog.Logger) {
	p.Then = Merger{GitHub: g, Ledger: l, Log: log}
}

// Judged acts on one judgement of an open pull request: it takes back a
// merge the App bound when the bound broke, answers the delivery's
// `/aep merge`, and under merge.auto merges a head whose checks are all
// green. It needs the conversation (where the App's replies keep what it
// bound); a judgement without it does nothing.
func (m Merger) Judged(ctx context.Context, in pull.Input, ev *verdict.Evaluation, shown []verdict.Shown) error {
	p := ev.Snap.Pull
	if p == nil || !ev.Snap.Has.Conversation || !strings.EqualFold(p.State, "OPEN") {
		return nil
	}
	m.Rules = m.Rules.or()
	ms := marks(ev)
	if b := bound(ms); b != "" {
		if why := m.broken(b, p.HeadSHA, shown); why != "" {
			if err := m.release(ctx, in, ev, b, why); err != nil {
				return err
			}
			ms = append(ms, mark{State: stateReleased, Head: b})
		}
	}
	if c, ok := m.command(in, ev); ok {
		if answered(ms, c.ID) {
			return nil // a redelivered command, answered already
		}
		return m.answer(ctx, in, ev, shown, c)
	}
	if ev.Cfg != nil && ev.Cfg.Merge.Auto && !settled(ms, p.HeadSHA) && m.Rules.Green(p.HeadSHA, shown) == "" {
		return m.bind(ctx, in, ev, 0, "merge.auto is on and every aepgate check on it is green")
	}
	return nil
}

// broken says why the merge bound to b no longer holds for the pull
// request's head, "" when it holds.
func (m Merger) broken(b, head string, shown []verdict.Shown) string {
	if m.Rules.Moved(b, head) {
		return fmt.Sprintf("the head moved from %s to %s after the App bound the merge; it merges only the head its checks judged", Short(b), Short(head))
	}
	return m.Rules.Green(head, shown)
}

// command is the delivery's comment when it holds `merge`: as created
// (the witness) when the delivery carries it.
func (m Merger) command(in pull.Input, ev *verdict.Evaluation) (snapshot.Comment, bool) {
	if in.Answer == 0 {
		return snapshot.Comment{}, false
	}
	var c snapshot.Comment
	if w := in.Witness; w != nil && w.Comment.ID == in.Answer {
		c = w.Comment
	} else if i := slices.IndexFunc(ev.Snap.Pull.Conversation.Comments, func(c snapshot.Comment) bool { return c.ID == in.Answer }); i >= 0 {
		c = ev.Snap.Pull.Conversation.Comments[i]
	} else {
		return c, false
	}
	prefix := command.DefaultPrefix
	if ev.Cfg != nil {
		prefix = ev.Cfg.CommandPrefix
	}
	return c, slices.ContainsFunc(command.Parse(c.Body, prefix), func(x command.Command) bool { return x.Verb == command.VerbMerge })
}

// answer answers the merge command c: declined (👎 and why), or the head
// the checks judged merged (bind).
func (m Merger) answer(ctx context.Context, in pull.Input, ev *verdict.Evaluation, shown []verdict.Shown, c snapshot.Comment) error {
	why, err := m.declined(ctx, in, ev, shown, c)
	if err != nil {
		return err
	}
	if why == "" {
		return m.bind(ctx, in, ev, c.ID, "asked by @"+c.Author.Login+" with `"+prefixOf(ev)+" merge`, and every aepgate check on it is green")
	}
	if err := m.GitHub.React(ctx, in.Owner, in.Repo, c.ID, "-1"); err != nil {
		return fmt.Errorf("merge: react to comment %d: %w", c.ID, err)
	}
	return m.reply(ctx, in, ev, mark{State: stateDeclined, Head: ev.Snap.Pull.HeadSHA, Answer: c.ID},
		fmt.Sprintf("@%s `%s merge` is refused: %s.\n\nThe App merges a pull request when an owner (or a login named in `merge.authority`) asks with `%s merge` in a new comment and every aepgate check on its head is green; it binds the merge to that head.", c.Author.Login, prefixOf(ev), why, prefixOf(ev)))
}

// declined says why command c is not carried out, "" when it is.
func (m Merger) declined(ctx context.Context, in pull.Input, ev *verdict.Evaluation, shown []verdict.Shown, c snapshot.Comment) (string, error) {
	for _, x := range command.Parse(c.Body, prefixOf(ev)) {
		if x.Verb == command.VerbMerge && x.Err != nil {
			return x.Err.Error(), nil
		}
	}
	switch {
	case in.Once:
		return "an edited comment counts for nothing; write the command in a new comment", nil
	case ev.Cfg == nil:
		return "the repository's policy cannot be read, so nobody's command counts as an owner's (" + policyProblem(ev) + ")", nil
	}
	a := Asker{Login: c.Author.Login, Type: c.Author.Type}
	if a.Type == "User" {
		role, err := m.GitHub.Role(ctx, in.Owner, in.Repo, a.Login)
		if err != nil {
			return "", fmt.Errorf("merge: the role of %s: %w", a.Login, err)
		}
		a.Role = role
	}
	if why := m.Rules.May(a, ev.Cfg); why != "" {
		return why, nil
	}
	return m.Rules.Green(ev.Snap.Pull.HeadSHA, shown), nil
}

// bind merges the head the checks judged, bound to it, and says so in one
// reply (answering command id, 0 for merge.auto); GitHub's refusal is
// said instead.
func (m Merger) bind(ctx context.Context, in pull.Input, ev *verdict.Evaluation, id int64, why string) error {
	p := ev.Snap.Pull
	st, err := m.GitHub.PullMergeState(ctx, in.Owner, in.Repo, p.Number)
	if err != nil {
		return fmt.Errorf("merge: %w", err)
	}
	head := m.Rules.Head(p.HeadSHA, st.Head)
	out, err := m.GitHub.MergeBound(ctx, in.Owner, in.Repo, p.Number, head, Method)
	if refusal(err) {
		return m.refused(ctx, in, ev, id, head, err)
	}
	if err != nil {
		return fmt.Errorf("merge: %w", err)
	}
	if err := m.record(ctx, in, "merge:"+out.How, head, map[string]any{"answer": id, "why": why}); err != nil {
		return err
	}
	if id != 0 {
		if err := m.GitHub.React(ctx, in.Owner, in.Repo, id, "+1"); err != nil {
			return fmt.Errorf("merge: react to comment %d: %w", id, err)
		}
	}
	return m.reply(ctx, in, ev, mark{State: stateBound, Head: head, Answer: id}, boundText(out, head, p.BaseRef, why))
}

// refused says GitHub's refusal to merge head in one reply (and 👎 on
// command id).
func (m Merger) refused(ctx context.Context, in pull.Input, ev *verdict.Evaluation, id int64, head string, cause error) error {
	if err := m.record(ctx, in, "merge:refused", head, map[string]any{"answer": id, "error": cause.Error()}); err != nil {
		return err
	}
	if id != 0 {
		if err := m.GitHub.React(ctx, in.Owner, in.Repo, id, "-1"); err != nil {
			return fmt.Errorf("merge: react to comment %d: %w", id, err)
		}
	}
	return m.reply(ctx, in, ev, mark{State: stateRefused, Head: head, Answer: id}, refusedText(cause, head, prefixOf(ev)))
}

// release takes back the merge bound to b (out of the merge queue, or
// auto-merge disabled, where the App put them) and says why in one reply.
func (m Merger) release(ctx context.Context, in pull.Input, ev *verdict.Evaluation, b, why string) error {
	p := ev.Snap.Pull
	st, err := m.GitHub.PullMergeState(ctx, in.Owner, in.Repo, p.Number)
	if err != nil {
		return fmt.Errorf("merge: %w", err)
	}
	var did []string
	if st.Queued != nil && sameApp(st.Queued.Enqueuer, ev.AppLogin) {
		if err := m.GitHub.DequeuePullRequest(ctx, st.ID); err != nil {
			return fmt.Errorf("merge: %w", err)
		}
		did = append(did, "took it out of the merge queue")
	}
	if st.AutoMergeMethod != "" && sameApp(st.AutoMergeBy, ev.AppLogin) {
		if err := m.GitHub.DisableAutoMerge(ctx, st.ID); err != nil {
			return fmt.Errorf("merge: %w", err)
		}
		did = append(did, "disabled auto-merge")
	}
	if err := m.record(ctx, in, "merge:released", b, map[string]any{"why": why, "done": did}); err != nil {
		return err
	}
	return m.reply(ctx, in, ev, mark{State: stateReleased, Head: b}, releasedText(did, b, why, prefixOf(ev)))
}

// reply writes one reply on the pull request, its mark first.
func (m Merger) reply(ctx context.Context, in pull.Input, ev *verdict.Evaluation, k mark, text string) error {
	if _, err := m.GitHub.Comment(ctx, in.Owner, in.Repo, ev.Snap.Pull.Number, k.String()+"\n"+text); err != nil {
		return fmt.Errorf("merge: reply on #%d: %w", ev.Snap.Pull.Number, err)
	}
	m.Log.Info("merge "+k.State, "pr", ev.Snap.Pull.Number, "head", k.Head, "answer", k.Answer)
	return nil
}

// record writes one ledger row about head.
func (m Merger) record(ctx context.Context, in pull.Input, kind, head string, body map[string]any) error {
	e := store.Entry{Kind: kind, DeliveryID: in.Delivery, Subject: fmt.Sprintf("%s#%d@%s", in.FullName(), in.PR, head), Body: body}
	if err := m.Ledger.Record(ctx, e); err != nil {
		return fmt.Errorf("merge: %w", err)
	}
	return nil
}

// refusal reports GitHub's refusal to merge (not a failure to reach it):
// the head moved, auto-merge not allowed, or a GraphQL refusal.
func refusal(err error) bool {
	var moved *gh.HeadMovedError
	var ge *gh.GraphQLError
	return errors.As(err, &moved) || errors.As(err, &ge) || errors.Is(err, gh.ErrAutoMergeNotAllowed)
}

// sameApp reports whether login is the App's, with or without "[bot]".
func sameApp(l, app string) bool {
	trim := func(s string) string { return strings.TrimSuffix(strings.ToLower(s), "[bot]") }
	return l != "" && trim(l) == trim(app)
}

// prefixOf is the config's command prefix.
func prefixOf(ev *verdict.Evaluation) string {
	if ev.Cfg != nil && ev.Cfg.CommandPrefix != "" {
		return ev.Cfg.CommandPrefix
	}
	return command.DefaultPrefix
}

// policyProblem says why the config is unusable.
func policyProblem(ev *verdict.Evaluation) string {
	switch {
	case ev.Unresolved != "":
		return ev.Unresolved
	case ev.CfgOther != nil:
		return ev.CfgOther.Error()
	case len(ev.CfgErrs) > 0:
		return ev.CfgErrs.Error()
	}
	return "see aepgate/config"
}
