package cli

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/aepgate/aepgate/internal/isolate"
	"github.com/aepgate/aepgate/internal/plangit"
	"github.com/aepgate/aepgate/protocol/negcontrol"
	"github.com/aepgate/aepgate/protocol/plans"
)

const plansVerifyLong = `Check an executor plan folder (plans/<slug>: progress.json, state/phase-<N>.json,
state/phase-<N>.review.json, HANDOFF.md, phases/phase-<N>-<name>.md;
docs/plans.md) against the rules, comparing the committed HEAD with --base.
progress.json and each state file are read in aepgate's dialect
("version": 1) or, without a version key, as the Executor skill writes them
(progress.json: no owner, a commands block, other keys kept; state files:
claimed_by, tasks keyed by ID, verification test/lint/build, abbreviated
commit SHAs); the output names the dialect of progress.json. A phase brief
gives each task's Files list, verify_command and pre-conditions. The skill's
progress.json names no owner: --owner names the login that approves its
contract changes and reviews its phases (without it no review approves):

  contract        progress.json changed (it needs an owner's approval)
  task-ids        a task ID of the base contract was deleted or renumbered
  state-scope     a state file of another phase, or a review file by someone
                  other than the phase's reviewer, was touched
  phase-done      an executor set its phase to done (it ends at needs_review;
                  done comes only from an approving review file)
  task-commits    a task newly marked done names a commit that is not one of
                  base..HEAD, changes no file, is the base, or is also an
                  earlier task's commit; an abbreviated SHA matching none or
                  several of base..HEAD
  attempts        a task took more than 2 fix attempts
  blocks          a task a failed task blocks is done, or a blocking failure
                  with the phase at a status other than blocked (in_progress
                  accepted while the failure is being recorded)
  worktree        the recorded worktree lies outside the repository
  self-review     a review file in the name of the phase's own executor
  handoff         a phase moved to needs_review without a HANDOFF.md heading
                  "## Handoff — phase N — <date>" carrying the six sections
                  (Where things stand … Ruled out … Next step)
  dependencies    the phase is claimed before every phase it depends on is
                  approved at base
  parallel        the phase runs beside another unapproved phase and not both
                  are parallel_safe
  conflict-zones  a file in another phase's conflict_zones was changed
  task-files      a task's commit changes a file its brief's Files list lacks,
                  another commit a file no task of the brief lists, a done
                  task has no brief section, or (skill's dialect) its phase
                  no brief
  task-preconditions
                  a task is done before a task its brief names as a
                  pre-condition (its "Pre-conditions:" line, or "Task <id>"
                  in the brief's "## Pre-conditions")
  verify-commands verification.test/lint/build records a command other than
                  progress.json's commands.test/lint/build (or one the plan
                  does not define); a task's verify_command in progress.json
                  differs from its brief's

progress.json, or a phase brief the base already has, changing is a contract
finding.

Files are read from git objects, never from the working tree. The phase is
taken from the branch name plan/<slug>/phase-<N> unless --phase is given.

With --rerun, each verification command recorded in the state files changed
in base..HEAD (all state files when none changed) runs again, each in its own
isolated copy of the tree (as negcontrol --all does; the working tree is never
modified), and its real exit code is compared with the recorded one: a
recorded 0 that is really non-zero is a "false green". Only the commands the
base's progress.json lists in verify_commands run; any other recorded command
is not run and is reported (rule rerun). When the base lists no
verify_commands, every recorded command runs and a warning on stderr says they
are the executor's own choice. The commands never see INPUT_TOKEN,
GITHUB_TOKEN, GITHUB_ENTERPRISE_TOKEN, ACTIONS_* or GH_* variables.

--format sarif prints SARIF 2.1.0 for GitHub code scanning, each finding at
its file by its path in the repository, the same from any working directory.

Exit codes: 0 every rule holds; 1 a finding; 2 usage, git or read error;
130 interrupted (the isolated copies are removed first).`

// plansVerifyOptions are the flags of aepgate plans verify.
type plansVerifyOptions struct {
	base, author string
	owner        string
	format       string
	phase        int
	rerun        bool
}

func newPlansCmd(s streams) *cobra.Command {
	return group(&cobra.Command{
		Use:   "plans",
		Short: "Check executor plan folders (progress, phase state and review files)",
		Long: `Executor plan folders (plans/<slug>) hold a contract, progress.json, and the
state and review file of each phase. These files are self-reported; aepgate
checks them against the contract and the git history. See docs/plans.md.`,
	}, newPlansVerifyCmd(s))
}

func newPlansVerifyCmd(s streams) *cobra.Command {
	var o plansVerifyOptions
	cmd := &cobra.Command{
		Use:   "verify <dir> [--base REF] [--rerun] [--phase N] [--author LOGIN] [--format text|json|sarif]",
		Short: "Check a plan folder's state files against its contract and git history",
		Long:  plansVerifyLong,
		Example: `  aepgate plans verify plans/billing
  aepgate plans verify plans/billing --base origin/main --rerun`,
		Args: cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			err := o.run(c.Context(), s, args[0])
			if c.Context().Err() != nil {
				return failf(negcontrol.ExitInterrupted, "plans verify: interrupted")
			}
			return err
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.base, "base", "", "git ref whose contract and task IDs HEAD must keep (default: the merge base with the default branch)")
	f.BoolVar(&o.rerun, "rerun", false, "re-run the recorded verification commands in isolated copies and compare exit codes")
	f.IntVar(&o.phase, "phase", 0, "the phase this branch works on (default: from the branch name plan/<slug>/phase-<N>)")
	addFormat(cmd, &o.format, formatSARIF)
	f.StringVar(&o.author, "author", "", "the GitHub login making the change (a review file may be written only by the phase's reviewer)")
	f.StringVar(&o.owner, "owner", "", "the login that owns a plan whose progress.json is in the Executor skill's dialect (it names none): it approves contract changes and reviews phases")
	return cmd
}

// plansTarget is the plan folder and the range verify judges.
type plansTarget struct {
	repo       *plangit.Repo
	top, dir   string // repository top level; folder relative to it
	base, head string
	phase      int
	phaseFrom  string
}

// resolve finds the repository, the folder and the commits.
func (o *plansVerifyOptions) resolve(ctx context.Context, arg string) (*plansTarget, error) {
	abs, err := filepath.Abs(arg)
	if err != nil {
		return nil, failf(2, "%v", err)
	}
	t := &plansTarget{top: isolate.Root(ctx, abs)}
	if t.repo, err = plangit.Open(ctx, t.top); err != nil {
		return nil, failf(2, "%v", err)
	}
	rel, err := filepath.Rel(t.top, abs)
	if err != nil || rel == "." || strings.HasPrefix(rel, "..") {
		return nil, failf(2, "%s is not a folder inside the repository at %s", arg, t.top)
	}
	t.dir = filepath.ToSlash(rel)
	if t.head, err = t.repo.Resolve(ctx, "HEAD"); err != nil {
		return nil, failf(2, "%v", err)
	}
	if o.base == "" {
		t.base, err = t.repo.DefaultBase(ctx, t.head)
	} else {
		t.base, err = t.repo.Resolve(ctx, o.base)
	}
	if err != nil {
		return nil, failf(2, "%v", err)
	}
	t.phase, t.phaseFrom = o.phase, "--phase"
	if o.phase == 0 {
		t.phase, t.phaseFrom = t.branchPhase(ctx)
	}
	return t, nil
}

// branchPhase reads the phase from the checked-out branch
// plan/<slug>/phase-<N>, where <slug> is the folder's name.
func (t *plansTarget) branchPhase(ctx context.Context) (int, string) {
	branch := t.repo.Branch(ctx)
	if slug, n, ok := plans.PhaseFromBranch(branch); ok && slug == filepath.Base(t.dir) {
		return n, "branch " + branch
	}
	return 0, "none: the branch is not plan/" + filepath.Base(t.dir) + "/phase-<N>"
}

// load reads both ends; a file that does not parse becomes a finding.
func (t *plansTarget) load(ctx context.Context) (plans.Input, []plans.Finding, error) {
	in := plans.Input{PR: plans.PR{Phase: t.phase, Base: t.base}}
	var bad []plans.Finding
	for _, end := range []struct {
		sha  string
		plan *plans.Plan
	}{{t.base, &in.Base}, {t.head, &in.Head}} {
		p, err := t.repo.Load(ctx, end.sha, t.dir)
		var es plans.Errors
		if errors.As(err, &es) {
			for _, e := range es {
				bad = append(bad, plans.Finding{Rule: "schema", File: e.File, Line: e.Line, Message: e.Error()})
			}
		} else if err != nil {
			return in, nil, failf(2, "%v", err)
		}
		*end.plan = p
	}
	commits, changed, err := t.repo.History(ctx, t.base, t.head)
	if err != nil {
		return in, nil, failf(2, "%v", err)
	}
	in.PR.Commits, in.PR.Changed = commits, changed
	return in, bad, nil
}

func (o *plansVerifyOptions) run(ctx context.Context, s streams, arg string) error {
	if o.phase < 0 {
		return failf(2, "--phase must be 1 or more, not %d", o.phase)
	}
	t, err := o.resolve(ctx, arg)
	if err != nil {
		return err
	}
	in, findings, err := t.load(ctx)
	if err != nil {
		return err
	}
	in.PR.Author = o.author
	if o.owner != "" {
		in.Base.SetOwner(o.owner)
		in.Head.SetOwner(o.owner)
	}
	if len(findings) == 0 {
		findings = plans.Check(in, plans.Rules())
		if o.rerun {
			reruns, err := t.rerun(ctx, s, in)
			if err != nil {
				return err
			}
			findings = append(findings, reruns...)
		}
	}
	switch o.format {
	case formatJSON:
		plansWriteJSON(s, t, in.Head, findings)
	case formatSARIF:
		check := sarifCheck{tool: "aepgate plans verify", category: sarifCategory("plans", t.top, filepath.Join(t.top, t.dir)), rules: plansRuleDocs}
		writeSARIF(s.out, check, s.version, t.top, plansSARIF(t.top, findings))
	default:
		fmt.Fprintf(s.out, "%s: base %.12s, head %.12s, phase %s\n", t.dir, t.base, t.head, t.phaseName())
		if d := plansDialect(in.Head); d != "" {
			fmt.Fprintf(s.out, "progress.json read as %s\n", d)
		}
		plansWriteText(s, in.Head, findings)
	}
	if len(findings) > 0 {
		return exitCode(1)
	}
	return nil
}

func (t *plansTarget) phaseName() string {
	if t.phase == 0 {
		return "unknown (" + t.phaseFrom + ")"
	}
	return fmt.Sprintf("%d (from %s)", t.phase, t.phaseFrom)
}

// plansDialect says which dialect head's progress.json was read as; ""
// when there is none.
func plansDialect(head plans.Plan) string {
	switch {
	case head.Progress == nil:
		return ""
	case head.Progress.Dialect == plans.DialectSkill:
		return fmt.Sprintf("the Executor skill's dialect (no version key), owner %s, %d phase brief(s)",
			cmp.Or(head.Progress.Owner, "not named (--owner)"), len(head.Briefs))
	}
	return fmt.Sprintf("aepgate's dialect (version %d), %d phase brief(s)", head.Progress.Version, len(head.Briefs))
}
