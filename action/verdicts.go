package action

import (
	"context"
	"errors"
	"fmt"
	"path"

	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/internal/gitobj"
	"github.com/aepgate/aepgate/protocol/compliance"
	"github.com/aepgate/aepgate/protocol/config"
	"github.com/aepgate/aepgate/protocol/rundoc"
)

// verdictsRun builds aep/verdicts on a pull request: every verdict line of
// each run folder's compliance log must have been introduced (git blame at
// the head) by a commit GitHub verified as signed by one of the base
// branch's auditors (a login, or a member of a listed team) who did not
// report the task (verdict_authors.go). Without an auditors list it is
// neutral and says so. ok is false when the workspace is no git checkout
// and the check was not named: the job summary then says it did not run.
func (r *runner) verdictsRun(ctx context.Context, folders []folder) (run checks.Run, ok bool) {
	if _, err := gitobj.Open(ctx, r.ev.Workspace); errors.Is(err, gitobj.ErrNotRepository) && !r.in.explicit(CheckVerdicts) {
		r.notes = append(r.notes, "The verdicts check reads who introduced each verdict line with git blame, so it needs a git checkout of the pull request (actions/checkout with fetch-depth: 0); the workspace is not one, so aep/verdicts did not run.")
		return run, false
	}
	auditors, err := r.baseAuditors(ctx)
	if err != nil {
		r.problems++
		run = checks.VerdictsRun(r.ev.SHA, []checks.VerdictsFolder{{Dir: ".", Err: err.Error()}}, "")
		run.DetailsURL = r.ev.RunURL
		return run, true
	}
	set := r.auditorTeams(ctx, auditors)
	commits := map[string]compliance.Commit{} // read once per step
	var out []checks.VerdictsFolder
	neutral := ""
	for _, f := range folders {
		vf := checks.VerdictsFolder{Dir: f.rel, Log: path.Join(f.rel, rundoc.LogFile), Err: f.err}
		if vf.Err == "" {
			vf, neutral = r.verdictsFolder(ctx, vf, f, set, commits)
		}
		if vf.Err != "" {
			r.problems++
		}
		r.problems += len(vf.Refused)
		out = append(out, vf)
	}
	run = checks.VerdictsRun(r.ev.SHA, out, neutral)
	run.DetailsURL = r.ev.RunURL
	return run, true
}

// verdictsFolder judges one folder's log.
func (r *runner) verdictsFolder(ctx context.Context, vf checks.VerdictsFolder, f folder, set auditorSet, commits map[string]compliance.Commit) (checks.VerdictsFolder, string) {
	run, err := r.load(f)
	if err != nil {
		vf.Err = err.Error()
		return vf, ""
	}
	lines, err := r.blame(ctx, vf.Log)
	if err != nil {
		vf.Err = err.Error()
		return vf, ""
	}
	in := compliance.Input{File: vf.Log, Log: run.Log, Auditors: set.list, Members: set.members, Unread: set.unread}
	if len(set.list) > 0 { // without auditors the check is neutral: no author is read
		if in.Blame, err = r.verdictAuthors(ctx, run.Log, lines, commits); err != nil {
			vf.Err = err.Error()
			return vf, ""
		}
	}
	vs, findings, neutral := compliance.Check(in, r.o.VerdictRules)
	vf.Verdicts = len(vs)
	for _, fd := range findings {
		vf.Refused = append(vf.Refused, checks.VerdictRefusal{Rule: fd.Rule, Line: fd.Line, Message: fd.Message})
	}
	return vf, neutral
}

// baseAuditors are the auditors of the config at the pull request's base:
// the config loadConfig read there through the API, else the base
// commit's file read from the workspace's git objects (a pull request can
// never list itself as an auditor).
func (r *runner) baseAuditors(ctx context.Context) ([]string, error) {
	if r.api.Files != nil {
		return r.cfg.Auditors, nil
	}
	repo, err := gitobj.Open(ctx, r.ev.Workspace)
	if err != nil {
		return nil, fmt.Errorf("read the base commit's config: %w", err)
	}
	files, err := repo.Files(ctx, r.ev.PR.BaseSHA, []string{r.in.Config})
	if err != nil {
		return nil, fmt.Errorf("read %s at the base commit (check out the full history: actions/checkout with fetch-depth: 0): %w", r.in.Config, err)
	}
	if len(files) == 0 || files[0].Missing {
		return nil, nil
	}
	cfg, err := config.Parse(r.in.Config, files[0].Content)
	if err != nil {
		return nil, fmt.Errorf("the base commit's config: %w", err)
	}
	return cfg.Auditors, nil
}
