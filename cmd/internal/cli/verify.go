package cli

import (
	"context"
	"fmt"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"github.com/aepgate/aepgate/internal/isolate"
	"github.com/aepgate/aepgate/internal/rundir"
	"github.com/aepgate/aepgate/protocol/negcontrol"
	"github.com/aepgate/aepgate/protocol/reverify"
	"github.com/aepgate/aepgate/protocol/rundoc"
)

const verifyLong = `Re-run the evidence of a run folder (plan-of-record.md, execution-guide.md,
compliance-log.md): for every task whose latest report in the compliance log
is DONE, run the task's **Verify:** command from the execution guide and
compare it with the output pasted under the report's **Verify output:**. A
non-zero exit, or output that no longer contains the pasted output's last
line, is a false green, shown with both last lines. A DONE task whose guide
has no Verify command is listed as not re-run.

Without --rerun nothing runs: the tasks and their commands (as the folder's
guide states them) are listed.

With --rerun each task's command is the one the BASE commit's execution guide
states, never the folder's own: aepkit reserves the guide to the Auditor, so an
edit to a task's **Verify:** on the branch must not choose the command that
judges it. --base names that commit; by default it is the merge base of HEAD
with the default branch (origin/HEAD, else main, else master). A task whose
command differs from the base's, or that the base's guide lacks, is not run:
it is reported as CHANGED ("the Verify command changed on this pull request;
not re-run from the head's text") and counts as a failure. Outside a git
repository, or when no base can be found, verify --rerun fails (exit 2).

With --rerun each command runs through /bin/sh in its own isolated copy of the
tree (a git worktree at HEAD plus uncommitted and untracked, not ignored,
files; a plain copy outside git), as negcontrol --all does: the working tree
stays byte-identical. Up to --jobs run at once; each is killed with its whole
process group at --timeout (exit 124). The commands never see INPUT_TOKEN,
GITHUB_TOKEN, GITHUB_ENTERPRISE_TOKEN, ACTIONS_* or GH_* variables. The time
each task took is reported.

Exit codes: 0 every DONE task reproduced (or nothing to re-run); 1 a false
green or a changed Verify command; 2 usage or read error; 130 interrupted
(the copies are removed first).`

// verifyOptions are the flags of aepgate verify.
type verifyOptions struct {
	rerun   bool
	timeout time.Duration
	jobs    int
	// format is --format: text, or json (one object: the tasks, and with
	// --rerun each one's outcome and the false greens).
	format string
	// run runs the commands; isolate.Commands unless a test injects another.
	run func(ctx context.Context, root string, commands []string, o isolate.Options) ([]isolate.Outcome, error)
	// base is --base: the commit whose guide states the commands ("" the
	// default, baseGuide).
	base string
	// guideAt reads the run folder's guide at the base (baseGuide; a
	// negative control injects one that reads the head's).
	guideAt func(ctx context.Context, dir, rev string) (*rundoc.Guide, string, error)
}

func newVerifyCmd(s streams) *cobra.Command {
	o := verifyOptions{run: isolate.Commands, guideAt: baseGuide}
	cmd := &cobra.Command{
		Use:     "verify <run-dir> [--rerun] [--base REV] [--timeout DURATION] [--jobs N]",
		Short:   "Re-run the Verify command of every DONE task and compare it with the pasted output",
		Long:    verifyLong,
		Example: "  aepgate verify docs/ledger-service --rerun --timeout 5m",
		Args:    cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			err := o.exec(c.Context(), s, args[0])
			if c.Context().Err() != nil {
				return failf(negcontrol.ExitInterrupted, "verify: interrupted")
			}
			return err
		},
	}
	f := cmd.Flags()
	f.BoolVar(&o.rerun, "rerun", false, "run the commands (isolated) and compare; without it they are only listed")
	f.StringVar(&o.base, "base", "", "with --rerun, the commit whose execution guide states the Verify commands (default: the merge base of HEAD with origin/HEAD, main or master)")
	f.DurationVar(&o.timeout, "timeout", 10*time.Minute, "how long each command may run before its process group is killed")
	f.IntVar(&o.jobs, "jobs", 0, "how many commands run at once (default: the number of CPUs)")
	addFormat(cmd, &o.format)
	return cmd
}

func (o verifyOptions) exec(ctx context.Context, s streams, dir string) error {
	if o.timeout <= 0 || o.jobs < 0 {
		return failf(2, "verify: --timeout must be positive and --jobs 0 or more")
	}
	run, err := rundir.Load(dir)
	if err != nil {
		return failf(2, "verify: %v", err)
	}
	tasks, skipped := reverify.Tasks(run)
	if o.format == formatJSON && !o.rerun {
		return verifyListJSON(s, tasks, skipped)
	}
	for _, sk := range skipped {
		fmt.Fprintf(s.out, "%s:%d: %s not re-run: %s\n", filepath.Join(dir, "compliance-log.md"), sk.LogLine, sk.ID, sk.Reason)
	}
	if !o.rerun {
		for _, t := range tasks {
			fmt.Fprintf(s.out, "%s  %s\n", t.ID, t.Command)
		}
		fmt.Fprintf(s.out, "%d DONE task(s) with a Verify command; run with --rerun to re-run them\n", len(tasks))
		return nil
	}
	base, where, err := o.guideAt(ctx, dir, o.base)
	if err != nil {
		return failf(2, "verify: %v", err)
	}
	if o.format != formatJSON {
		fmt.Fprintf(s.out, "Verify commands as the execution guide states them at %s\n", where)
	}
	tasks, changed := reverify.FromBase(tasks, base)
	return o.rerunTasks(ctx, s, dir, tasks, changed)
}

// rerunTasks runs the tasks' commands isolated from the repository root
// and reports each task's time and every false green.
func (o verifyOptions) rerunTasks(ctx context.Context, s streams, dir string, tasks []reverify.Task, changed []reverify.Finding) error {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return failf(2, "verify: %v", err)
	}
	cmds := make([]string, len(tasks))
	for i, t := range tasks {
		cmds[i] = t.Command
	}
	start := time.Now()
	var outs []isolate.Outcome
	if len(cmds) > 0 {
		if outs, err = o.run(ctx, isolate.Root(ctx, abs), cmds, isolate.Options{Jobs: o.jobs, Timeout: o.timeout}); err != nil {
			return failf(2, "verify: %v", err)
		}
	}
	outcomes := make([]reverify.Outcome, len(outs))
	for i, r := range outs {
		outcomes[i] = reverify.Outcome{ExitCode: r.ExitCode, Output: r.OutputTail, Took: r.Took}
	}
	findings := reverify.Compare(tasks, outcomes)
	bad := map[string]string{}
	for _, f := range findings {
		bad[f.ID] = f.Message
	}
	if o.format == formatJSON {
		return verifyRerunJSON(s, tasks, outcomes, findings, changed, bad)
	}
	for i, t := range tasks {
		word := "ok"
		if bad[t.ID] != "" {
			word = "FALSE GREEN"
		}
		fmt.Fprintf(s.out, "%-10s %-12s %6.2fs  exit %d\n", t.ID, word, outcomes[i].Took.Seconds(), outcomes[i].ExitCode)
	}
	for _, c := range changed {
		fmt.Fprintf(s.out, "%-10s %-12s not run\n", c.ID, "CHANGED")
	}
	for _, f := range append(findings, changed...) {
		fmt.Fprintf(s.out, "%s:%d: %s\n", filepath.Join(dir, "compliance-log.md"), f.LogLine, f.Message)
	}
	fmt.Fprintf(s.out, "%d task(s) re-run in %.2fs, %d false green(s), %d changed Verify command(s) not run\n", len(tasks), time.Since(start).Seconds(), len(findings), len(changed))
	if len(findings)+len(changed) > 0 {
		return exitCode(1)
	}
	return nil
}

// verifyListJSON is verify's --format json without --rerun: the DONE tasks
// with a Verify command, and those skipped with why.
func verifyListJSON(s streams, tasks []reverify.Task, skipped []reverify.Skipped) error {
	type task struct {
		ID      string `json:"id"`
		Command string `json:"command"`
	}
	type skip struct {
		ID     string `json:"id"`
		Line   int    `json:"line"`
		Reason string `json:"reason"`
	}
	out := struct {
		Tasks   []task `json:"tasks"`
		Skipped []skip `json:"skipped"`
	}{Tasks: []task{}, Skipped: []skip{}}
	for _, t := range tasks {
		out.Tasks = append(out.Tasks, task{t.ID, t.Command})
	}
	for _, sk := range skipped {
		out.Skipped = append(out.Skipped, skip{sk.ID, sk.LogLine, sk.Reason})
	}
	return writeJSON(s.out, out)
}

// verifyRerunJSON is verify --rerun's --format json: each task's outcome
// and the false greens; exit 1 when there is one.
func verifyRerunJSON(s streams, tasks []reverify.Task, outcomes []reverify.Outcome, findings, changed []reverify.Finding, bad map[string]string) error {
	type task struct {
		ID       string  `json:"id"`
		OK       bool    `json:"ok"`
		Seconds  float64 `json:"seconds"`
		ExitCode int     `json:"exit_code"`
	}
	type finding struct {
		ID      string `json:"id"`
		Line    int    `json:"line"`
		Message string `json:"message"`
	}
	out := struct {
		Tasks       []task    `json:"tasks"`
		FalseGreens []finding `json:"false_greens"`
		Changed     []finding `json:"changed"`
	}{Tasks: []task{}, FalseGreens: []finding{}, Changed: []finding{}}
	for i, t := range tasks {
		out.Tasks = append(out.Tasks, task{t.ID, bad[t.ID] == "", outcomes[i].Took.Seconds(), outcomes[i].ExitCode})
	}
	for _, f := range findings {
		out.FalseGreens = append(out.FalseGreens, finding{f.ID, f.LogLine, f.Message})
	}
	for _, f := range changed {
		out.Changed = append(out.Changed, finding{f.ID, f.LogLine, f.Message})
	}
	if err := writeJSON(s.out, out); err != nil {
		return err
	}
	if len(findings)+len(changed) > 0 {
		return exitCode(exitFindings)
	}
	return nil
}
