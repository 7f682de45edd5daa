package action

import (
	"context"
	"fmt"
	"path"
	"path/filepath"
	"time"

	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/internal/gitobj"
	"github.com/aepgate/aepgate/internal/isolate"
	"github.com/aepgate/aepgate/protocol/gitsha"
	"github.com/aepgate/aepgate/protocol/reverify"
	"github.com/aepgate/aepgate/protocol/rundoc"
)

// VerifyRerun is the verify input's one value: re-run the DONE tasks'
// Verify commands.
const VerifyRerun = "rerun"

// VerifyTimeout bounds each re-run Verify command.
const VerifyTimeout = 10 * time.Minute

// verifyEvents are the events a re-run may run under: their token is the
// pull request's own (read-only on a fork) or the pushed branch's.
var verifyEvents = map[string]bool{"pull_request": true, "push": true}

// defaultRunVerify runs Verify commands isolated, each within
// VerifyTimeout, without the job's token (isolate's default environment).
func defaultRunVerify(ctx context.Context, root string, cmds []string) ([]isolate.Outcome, error) {
	return isolate.Commands(ctx, root, cmds, isolate.Options{Timeout: VerifyTimeout})
}

// verifyRun builds aep/verify: every run folder's DONE tasks' Verify
// commands re-run (reverify) and compared with the pasted output. Under
// any event but pull_request and push nothing runs and the run is refused.
func (r *runner) verifyRun(ctx context.Context, folders []folder) checks.Run {
	if !verifyEvents[r.ev.Name] {
		r.problems++
		rf := targetRefusal("re-run of the DONE tasks' Verify commands", "re-run them")
		if !r.targeted() {
			rf.Title = "not run under " + r.ev.Name
			rf.Reason = fmt.Sprintf("verify: rerun runs the commands a pull request's run documents name, so it runs only under pull_request and push; this is a %s event.", r.ev.Name)
		}
		run := checks.RefusedRun(checks.NameVerify, r.ev.SHA, rf)
		run.DetailsURL = r.ev.RunURL
		return run
	}
	if r.tree(ctx) != nil {
		r.problems++
		return checks.Run{Name: checks.NameVerify}
	}
	r.gha.Group("aepgate: verify --rerun")
	defer r.gha.EndGroup()
	out := make([]checks.VerifyFolder, 0, len(folders))
	for _, f := range folders {
		vf := r.verifyFolder(ctx, f)
		if vf.Err != "" {
			r.problems++
		}
		for _, t := range vf.Tasks {
			if t.Problem != "" {
				r.problems++
			}
			r.gha.Infof("%s %s: exit %d in %.1fs", f.rel, t.ID, t.ExitCode, t.Took.Seconds())
		}
		out = append(out, vf)
	}
	run := checks.VerifyRun(r.ev.SHA, out)
	run.DetailsURL = r.ev.RunURL
	return run
}

// verifyFolder re-runs one folder's DONE tasks.
func (r *runner) verifyFolder(ctx context.Context, f folder) checks.VerifyFolder {
	vf := checks.VerifyFolder{Dir: f.rel, Log: path.Join(f.rel, rundoc.LogFile), Err: f.err}
	if f.err != "" {
		return vf
	}
	run, err := r.load(f)
	if err != nil {
		vf.Err = err.Error()
		return vf
	}
	tasks, skipped := reverify.Tasks(run)
	for _, s := range skipped {
		vf.Skipped = append(vf.Skipped, checks.VerifyTask{ID: s.ID, LogLine: s.LogLine, Problem: s.Reason})
	}
	if len(tasks) == 0 {
		return vf
	}
	if tasks = r.fromBase(ctx, f, tasks, &vf); len(tasks) == 0 {
		return vf
	}
	cmds := make([]string, len(tasks))
	for i, t := range tasks {
		cmds[i] = t.Command
	}
	outs, err := r.o.RunVerify(ctx, filepath.Clean(r.ev.Workspace), cmds)
	if err != nil {
		vf.Err = err.Error()
		return vf
	}
	outcomes := make([]reverify.Outcome, len(outs))
	for i, o := range outs {
		outcomes[i] = reverify.Outcome{ExitCode: o.ExitCode, Output: o.OutputTail, Took: o.Took}
	}
	bad := map[string]string{}
	for _, fd := range reverify.Compare(tasks, outcomes) {
		bad[fd.ID] = fd.Message
	}
	for i, t := range tasks {
		vf.Tasks = append(vf.Tasks, checks.VerifyTask{ID: t.ID, LogLine: t.LogLine, ExitCode: outcomes[i].ExitCode, Took: outcomes[i].Took, Problem: bad[t.ID]})
	}
	return vf
}

// fromBase keeps, on a pull request, the tasks whose Verify command is the
// base commit's (reverify.FromBase), recording the others in vf.Changed;
// a base guide that cannot be read fails the folder (vf.Err) and keeps
// none. Under push every task is kept.
func (r *runner) fromBase(ctx context.Context, f folder, tasks []reverify.Task, vf *checks.VerifyFolder) []reverify.Task {
	if r.ev.PR == nil {
		return tasks
	}
	base, err := r.baseGuide(ctx, f)
	if err != nil {
		vf.Err = err.Error()
		return nil
	}
	tasks, changed := reverify.FromBase(tasks, base)
	for _, c := range changed {
		vf.Changed = append(vf.Changed, checks.VerifyTask{ID: c.ID, LogLine: c.LogLine, Problem: c.Message})
	}
	return tasks
}

// baseGuide is folder f's execution guide at the pull request's base
// commit (nil when the base has none): through the API when the step has
// it, else from the workspace's git objects. On a pull request the Verify
// commands are the base's (reverify.FromBase); an unreadable base fails
// the folder, never falls back to the head's guide.
func (r *runner) baseGuide(ctx context.Context, f folder) (*rundoc.Guide, error) {
	name := path.Join(f.rel, rundoc.GuideFile)
	sha := r.ev.PR.BaseSHA
	if sha == "" {
		return nil, fmt.Errorf("the event names no base commit, so the Verify commands cannot be read as the base's %s states them", name)
	}
	if r.api.Files != nil {
		data, found, err := r.api.Files.ReadFile(ctx, r.ev.Owner, r.ev.Repo, name, sha)
		if err != nil {
			return nil, fmt.Errorf("read %s at the base commit %s: %w", name, gitsha.Short(sha), err)
		}
		if !found {
			return nil, nil
		}
		return rundoc.ParseGuide(name, string(data)), nil
	}
	repo, err := gitobj.Open(ctx, r.ev.Workspace)
	if err != nil {
		return nil, fmt.Errorf("read %s at the base commit: %w", name, err)
	}
	fs, err := repo.Files(ctx, sha, []string{name})
	if err != nil {
		return nil, fmt.Errorf("read %s at the base commit %s (check out the full history: actions/checkout with fetch-depth: 0): %w", name, gitsha.Short(sha), err)
	}
	if len(fs) != 1 || fs[0].Missing || fs[0].Symlink {
		return nil, nil
	}
	return rundoc.ParseGuide(name, string(fs[0].Content)), nil
}
