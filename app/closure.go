package app

import (
	"context"
	"fmt"
	"strings"
	"time"

	aclosure "github.com/aepgate/aepgate/app/closure"
	"github.com/aepgate/aepgate/app/verdict"
	"github.com/aepgate/aepgate/internal/store"
	"github.com/aepgate/aepgate/protocol/closure"
	"github.com/aepgate/aepgate/protocol/command"
)

// unitStore keeps closure facts and the App's own evidence (store.DB).
type unitStore interface {
	SaveClosure(ctx context.Context, repo string, unit int, facts []byte, e store.Entry, now time.Time) error
	Closures(ctx context.Context, repo string) (map[int][]byte, error)
	MarkClosureCommented(ctx context.Context, repo string, unit int, key string) (bool, error)
	UnitEvidence(ctx context.Context, repo string) (map[int][][]byte, error)
	SaveUnitEvidence(ctx context.Context, repo string, unit, pr int, attempt []byte, now time.Time) error
}

// closureStore is app/closure's store: the unit store and the kept
// decisions a HOLD comes from.
type closureStore struct {
	unitStore
	keeper
}

// closureRules are the rules deciding when a unit counts as done: the
// defaults unless a test put a variant in Options.
func (a *App) closureRules() closure.Rules {
	if a.opts.closureRules != nil {
		return *a.opts.closureRules
	}
	return closure.DefaultRules()
}

// closures is the closure judge (app/closure) for in: it judges the
// affected pull requests again through judgeOpen.
func (e *evaluator) closures(in evalInput) *aclosure.Judge {
	return &aclosure.Judge{Issues: e.issues, Roles: e.roles, Store: closureStore{e.units, e.kept}, Ledger: e.w, Rules: e.closureRules, Log: e.log,
		JudgeOpen: func(ctx context.Context, unit int) error { return e.judgeOpen(ctx, in, unit, nil) }}
}

func closureInput(in evalInput) aclosure.Input {
	return aclosure.Input{Delivery: in.delivery, Owner: in.owner, Repo: in.repo}
}

// judgeClosure judges an issue's closure (issues.closed; app/closure).
type judgeClosure struct{ c aclosure.Closed }

func (j judgeClosure) run(ctx context.Context, _ *App, ev *evaluator, w where) error {
	return ev.closures(w.input()).Closure(ctx, closureInput(w.input()), j.c)
}

// closeCommand is a created or edited comment on a unit's issue that may
// hold `/aep close <reason>` (app/closure keeps and acknowledges it).
type closeCommand struct{ s aclosure.Said }

func (j closeCommand) run(ctx context.Context, _ *App, ev *evaluator, w where) error {
	return ev.closures(w.input()).Command(ctx, closureInput(w.input()), j.s)
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

// closeCommandOf is the close command work of a comment (event is the
// issue_comment action) that holds the word "close" after a slash (the
// prefix is the config's, known only once it is read).
func closeCommandOf(issue int, v conversationView, event string) (closeCommand, bool) {
	c := v.Comment
	if c.User == nil || !hasCloseLine(c.Body) {
		return closeCommand{}, false
	}
	return closeCommand{s: aclosure.Said{Issue: issue, Body: c.Body, Cmd: closure.Command{
		Actor: closure.Actor{Login: c.User.Login, Type: c.User.Type}, CommentID: c.ID,
		Event: "issue_comment." + event, Created: c.Created, Updated: c.Updated}}}, true
}

// keepEvidence keeps what the App wrote for a merged attempt of unit and
// judges again the open pull requests it affects (app/closure).
func (e *evaluator) keepEvidence(ctx context.Context, w where, unit int, a closure.Attempt) error {
	return e.closures(w.input()).Evidence(ctx, closureInput(w.input()), unit, a)
}

// loadClosures puts the repository's stored closure facts, joined with
// the App's evidence, on the evaluation (no GitHub read).
func (e *evaluator) loadClosures(ctx context.Context, in evalInput, ev *verdict.Evaluation) error {
	repo := in.owner + "/" + in.repo
	facts, err := e.units.Closures(ctx, repo)
	if err != nil {
		return err
	}
	evidence, err := e.units.UnitEvidence(ctx, repo)
	if err != nil {
		return err
	}
	ev.Closures = map[int]closure.Facts{}
	for n, raw := range facts {
		f, err := verdict.ClosureFacts(raw, evidence[n])
		if err != nil {
			return fmt.Errorf("closure of %s#%d: %w", repo, n, err)
		}
		ev.Closures[n] = f
	}
	ev.ClosureRules = e.closureRules
	return nil
}
