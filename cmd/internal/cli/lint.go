package cli

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/aepgate/aepgate/internal/rundir"
	"github.com/aepgate/aepgate/protocol/lint"
	"github.com/aepgate/aepgate/protocol/rundoc"
)

func newLintCmd(s streams) *cobra.Command {
	var (
		threshold int
		format    string
	)
	cmd := &cobra.Command{
		Use:   "lint <dir>",
		Short: "Cross-check a run's documents for gaps between the guide and the log",
		Long: `lint reads execution-guide.md, compliance-log.md, plan-of-record.md and annexes/
in <dir> and reports every gap the protocol names: tasks with no log entry, log
entries with no task, tasks without a **Report:** line, gates that state no real
negative control, DONE reports without pasted output in a fenced block, work
reported before the earlier phase was APPROVED, repeated paragraphs, too many
annexes, an unfilled plan once work is reported, and deferred items left open
when their phase closes.

--format sarif prints SARIF 2.1.0 for GitHub code scanning: every path
relative to the repository root (the nearest folder at or above <dir> with
.git), the same from any working directory, each rule with its help and each
result with a fingerprint of its rule, path and line content
(docs/run-documents.md).

Agents that write these documents: 'aepgate install-skill' installs short
instructions for executors, auditors and coordinators.

Exit codes: 0 clean; 1 problems found; 2 a document is missing or unreadable
(or the command line is wrong).`,
		Example: "  aepgate lint docs/my-run\n  aepgate lint docs/my-run --annex-threshold 10 --format json",
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if threshold < 0 {
				return failf(2, "--annex-threshold must be 0 or more, not %d", threshold)
			}
			return runLint(s, args[0], lint.Options{AnnexThreshold: threshold}, format)
		},
	}
	cmd.Flags().IntVar(&threshold, "annex-threshold", lint.DefaultAnnexThreshold,
		"flag the run when it has more than this many annexes in total (a sign of an under-verified plan)")
	addFormat(cmd, &format, formatSARIF)
	cmd.Flags().Lookup("format").Usage = `output format: "text" (aepkit's report), "json" (one object per problem with rule, tag, id, file, line and message) or "sarif" (SARIF 2.1.0 for GitHub code scanning)`
	return cmd
}

func runLint(s streams, dir string, opts lint.Options, format string) error {
	run, err := rundir.Load(dir)
	var missing *rundir.MissingError
	switch {
	case errors.As(err, &missing):
		// aepkit prints the folder as a normalized path ("run/" → "run").
		clean := filepath.Clean(dir)
		return failf(2, "%s is missing %s (run `aepgate init %s`).", shown(clean), strings.Join(missing.Names, ", "), shown(clean))
	case err != nil:
		return failf(2, "%v", err)
	}
	warnOutside(s, dir)
	warnUnclosed(s, dir, run.Guide.File, run.Guide.Unclosed)
	warnUnclosed(s, dir, run.Log.File, run.Log.Unclosed)
	res := lint.Check(run, opts)
	switch format {
	case formatJSON, formatSARIF:
		if err := writeLintJSON(s, dir, res, format); err != nil {
			return failf(exitUsage, "encode lint result: %v", err)
		}
	default:
		fmt.Fprint(s.out, res.Text())
	}
	if code := res.ExitCode(); code != 0 {
		return exitCode(code)
	}
	return nil
}

// warnUnclosed tells the user, on stderr, about a fenced block that never
// closes: everything after it reads as code, so later headings vanish.
func warnUnclosed(s streams, dir, file string, f *rundoc.Fence) {
	if f == nil {
		return
	}
	fmt.Fprintf(s.err, "warning: %s:%d: this fenced block is never closed, so everything after it is read as code (as GitHub shows it).\n",
		shown(filepath.Join(dir, file)), f.Line)
}

// warnOutside tells the user, on stderr, about each run document that is
// a symlink leading out of the run folder: it is read, but its text comes
// from elsewhere.
func warnOutside(s streams, dir string) {
	for _, o := range rundir.OutsideLinks(dir) {
		fmt.Fprintf(s.err, "warning: %s is a symlink to %s, outside %s; it is read all the same.\n",
			shown(filepath.Join(dir, o.Name)), shown(o.Target), shown(filepath.Clean(dir)))
	}
}
