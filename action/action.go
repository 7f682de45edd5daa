package action

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/sethvargo/go-githubactions"

	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/internal/isolate"
	"github.com/aepgate/aepgate/protocol/compliance"
	"github.com/aepgate/aepgate/protocol/config"
	"github.com/aepgate/aepgate/protocol/negcontrol"
)

// Exit codes of the step.
const (
	ExitOK     = 0 // every check passed, or fail-on is never
	ExitFailed = 1 // a check failed (fail-on error), or GitHub refused a write
	ExitInput  = 2 // a bad input, event or config
)

// Options are the step's dependencies; tests inject every one.
type Options struct {
	// Getenv reads INPUT_* and GITHUB_* variables.
	Getenv func(string) string
	// Stdout receives workflow commands and the log.
	Stdout io.Writer
	// GitHub opens GitHub for the step's token (NewConnector in
	// production); it is called only when a token is given, and must then
	// be set.
	GitHub Connector
	// RunControls runs the declared negative controls from root; nil means
	// isolate.RunAll (each control in its own copy of the tree).
	RunControls func(ctx context.Context, root string, controls []config.NegativeControl) ([]negcontrol.Result, error)
	// RunCommands runs the plans check's recorded verification commands,
	// each in its own copy of the tree at root; nil means isolate.Commands.
	RunCommands func(ctx context.Context, root string, commands []string) ([]isolate.Outcome, error)
	// RunVerify runs the DONE tasks' Verify commands of verify: rerun, each
	// in its own copy of the tree at root; nil means isolate.Commands with
	// VerifyTimeout.
	RunVerify func(ctx context.Context, root string, commands []string) ([]isolate.Outcome, error)
	// VerdictRules judge the compliance log's verdict lines (aep/verdicts);
	// nil means compliance.DefaultRules (a negative control leaves one out).
	VerdictRules []compliance.Rule
	// AuthorRule tells who a blamed commit of the compliance log proves
	// wrote its lines (aep/verdicts); nil means compliance.SignedAuthor (a
	// negative control injects an e-mail rule).
	AuthorRule compliance.AuthorRule
	// Rand feeds the output delimiters; nil means crypto/rand.
	Rand io.Reader
	// LocalHistory opens the workspace's git as the pull request's history
	// for aep/plans, or returns nil when the clone lacks it; nil means
	// WorkspaceHistory (a full clone holding the base and the head).
	// Without it the history is read through the API.
	LocalHistory func(ctx context.Context, ev Event) (PlanHistory, error)
	// Checkout decides whether the workspace is a commit the step may
	// judge for the SHA it publishes on; nil means VerifyCheckout.
	Checkout func(ctx context.Context, ev Event) (note string, err error)
}

// runner holds one step's state.
type runner struct {
	o      Options
	gha    *githubactions.Action
	in     Inputs
	ev     Event
	api    GitHub // the token's capabilities; empty without a token
	cfg    *config.Config
	notes  []string // said once in the job summary
	status []statusJSON
	// problems counts what the checks found: lint problems and unreadable
	// folders, unreadable or conflicting status, controls not verified,
	// report problems, checks refused.
	problems int
	// treeRead and treeErr memoize tree: whether the workspace is the
	// commit judged.
	treeRead bool
	treeErr  error
	// targetNoted: the pull_request_target note is in notes.
	targetNoted bool
	// persistedRead: the workspace's git config was read for persisted
	// credentials (notePersisted).
	persistedRead bool
	// files memoizes the pull request's changed files (pullFiles).
	files struct {
		read, complete bool
		paths          []string
		err            error
	}
}

// Run runs the step and returns its exit code with the error that ended
// it, if any; the error is also printed as a workflow error so that it shows
// on the run's page.
func Run(ctx context.Context, o Options) (int, error) {
	r := newRunner(o)
	code, err := r.run(ctx)
	if err != nil {
		r.gha.Errorf("aepgate: %v", err)
	}
	return code, err
}

func newRunner(o Options) *runner {
	if o.Rand == nil {
		o.Rand = defaultRand
	}
	if o.RunControls == nil {
		o.RunControls = func(ctx context.Context, root string, cs []config.NegativeControl) ([]negcontrol.Result, error) {
			return isolate.RunAll(ctx, root, cs, isolate.Options{})
		}
	}
	if o.RunCommands == nil {
		o.RunCommands = defaultRunCommands
	}
	if o.VerdictRules == nil {
		o.VerdictRules = compliance.DefaultRules()
	}
	if o.AuthorRule == nil {
		o.AuthorRule = compliance.SignedAuthor
	}
	if o.RunVerify == nil {
		o.RunVerify = defaultRunVerify
	}
	if o.Checkout == nil {
		o.Checkout = VerifyCheckout
	}
	if o.LocalHistory == nil {
		o.LocalHistory = WorkspaceHistory
	}
	r := &runner{o: o, gha: githubactions.New(githubactions.WithGetenv(o.Getenv), githubactions.WithWriter(o.Stdout))}
	r.noteBeforeStarting()
	return r
}

// run is the step: inputs, event, config, checks, reports, outputs.
func (r *runner) run(ctx context.Context) (int, error) {
	var err error
	if r.in, err = readInputs(r.gha); err != nil {
		return ExitInput, err
	}
	for _, t := range []string{r.in.Token, r.in.MembersToken} {
		if t != "" {
			r.gha.AddMask(t)
		}
	}
	if r.ev, err = readEvent(r.gha); err != nil {
		return ExitInput, err
	}
	if r.api, err = r.connect(); err != nil {
		return ExitInput, err
	}
	cfg, where, err := r.loadConfig(ctx)
	if err != nil {
		r.configErrors(err)
		return ExitInput, err
	}
	r.cfg = cfg
	r.notes = append(r.notes, "Policy: "+where+".")
	runs := r.evaluate(ctx)
	pubErr := r.publishAll(ctx, runs)
	if err := r.writeOutputs(runs); err != nil {
		return ExitFailed, err
	}
	if pubErr != nil {
		return ExitFailed, pubErr
	}
	if r.treeErr != nil {
		return ExitInput, r.treeErr
	}
	if r.in.FailOn == FailOnError && overall(runs) == checks.ConclusionFailure {
		return ExitFailed, nil
	}
	return ExitOK, nil
}

// connect opens GitHub for the token, or returns nothing without one.
func (r *runner) connect() (GitHub, error) {
	if r.in.Token == "" {
		return GitHub{}, nil
	}
	if r.o.GitHub == nil {
		return GitHub{}, errors.New("action: a token was given but no GitHub connector")
	}
	g, err := r.o.GitHub(r.ev.APIURL, r.in.Token)
	if err != nil {
		return GitHub{}, &InputError{err.Error()}
	}
	return g, nil
}

// configErrors prints positioned config errors as workflow errors on the
// config file's lines.
func (r *runner) configErrors(err error) {
	var ces config.Errors
	if !errors.As(err, &ces) {
		return
	}
	for _, ce := range ces {
		r.gha.WithFieldsMap(map[string]string{"file": r.in.Config, "line": fmt.Sprint(ce.Line), "title": "aepgate config"}).Errorf("%s", ce.Error())
	}
}

// evaluate runs every check that applies, in the order of checkTable.
// The checks that read the workspace run only when it is the commit judged
// (tree); when it is not, every run on that commit is refused.
func (r *runner) evaluate(ctx context.Context) []checks.Run {
	r.targeted() // says so in the job summary
	runs := r.runChecks(ctx, r.folders())
	r.refuseAll(runs)
	return runs
}

// folders lists the run folders from the dir input, else the config.
func (r *runner) folders() []folder {
	patterns := r.in.Dirs
	if len(patterns) == 0 {
		patterns = r.cfg.RunDocuments
	}
	return expandFolders(r.ev.Workspace, patterns)
}

// overall is the step's conclusion: failure if any run failed, success if
// every run succeeded, neutral otherwise (or with no runs).
func overall(runs []checks.Run) checks.Conclusion {
	c := checks.ConclusionSuccess
	if len(runs) == 0 {
		c = checks.ConclusionNeutral
	}
	for _, run := range runs {
		switch run.Conclusion {
		case checks.ConclusionFailure, checks.ConclusionTimedOut, checks.ConclusionCancelled, checks.ConclusionActionRequired:
			return checks.ConclusionFailure
		case checks.ConclusionSuccess:
		default:
			c = checks.ConclusionNeutral
		}
	}
	return c
}
