package cli

import (
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/aepgate/aepgate/internal/gitobj"
	"github.com/aepgate/aepgate/internal/readfile"
	"github.com/aepgate/aepgate/review"
)

func newReviewCmd(s streams) *cobra.Command {
	return group(&cobra.Command{
		Use:   "review",
		Short: "Check an audit review before it is posted",
		Long: `An independent audit is a pull request review whose body holds one fenced
aep-audit block; the App judges it in its aepgate/audit check (docs/audit.md).
These commands check such a review locally, without talking to GitHub.`,
	}, newReviewCheckCmd(s))
}

// reviewCheckOptions are review check's flags and the one rule a
// negative-control test may replace.
type reviewCheckOptions struct {
	repoDir, sha, format string
	// paths chooses the evidence paths read at the commit: evidencePaths
	// (never a path review.CheckPath refuses) unless a test injects another.
	paths func(*review.Audit) []string
}

func newReviewCheckCmd(s streams) *cobra.Command {
	o := reviewCheckOptions{paths: evidencePaths}
	cmd := &cobra.Command{
		Use:   "check <file> [--repo-dir DIR] [--sha SHA] [--format text|json|sarif]",
		Short: "Validate an audit review against a checkout's git objects, as the App would",
		Long: `check reads an audit review from <file> ("-" reads standard input): either the
whole review body, holding one fenced aep-audit block, or the block's JSON or
YAML alone. It checks the block against the schema and the verdict rules, then
reads every file the evidence cites from the git objects of the repository in
--repo-dir at commit --sha (never the working tree; a path the bundle rules
refuse, such as .env or a *.pem file, is never read) and checks each quote
against it, with the messages the App's aepgate/audit check gives for the same
review at that commit. It prints the block's verdict, the evidence bundle's
identity, where each quote was found, and every problem with its field path.

Submit the review on the commit you checked: a verdict counts only for its
commit. What depends on the pull request is checked only by the App: who may
audit, the work unit the pull request names, verdicts on earlier findings, and
the earlier findings a PASS leaves open.

--format sarif prints the problems as SARIF 2.1.0 for GitHub code scanning,
at <file> by its path in the repository holding it (the nearest folder above
with .git), the same from any working directory; it needs a file, not "-".

Exit codes: 0 valid; 1 problems found; 2 bad input (the file cannot be read,
--repo-dir is not a git checkout, --sha names no commit, a bad flag, --format
sarif of standard input).`,
		Example: `  aepgate review check review.md
  aepgate review check review.md --sha 3f2a9c1 --repo-dir ../service
  gh pr view 21 --json body -q .body | aepgate review check - --format json`,
		Args: cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			return o.run(c, s, args[0])
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.repoDir, "repo-dir", ".", "the git checkout whose objects hold the cited files")
	f.StringVar(&o.sha, "sha", "HEAD", "the commit the review audits (its commit_id once submitted)")
	addFormat(cmd, &o.format, formatSARIF)
	return cmd
}

// run reads the review and the repository, checks, prints and sets the
// exit code.
func (o reviewCheckOptions) run(c *cobra.Command, s streams, file string) error {
	ctx := c.Context()
	if o.format == formatSARIF && file == "-" {
		return failf(exitUsage, "review check: --format sarif needs the review as a file of the repository (code scanning places every result in a file), not standard input")
	}
	raw, err := readInput(ctx, s.in, file, readfile.Review)
	if err != nil {
		return readFailed("review check", err)
	}
	repo, err := gitobj.Open(ctx, o.repoDir)
	if err != nil {
		return failf(2, "review check: --repo-dir %w", err)
	}
	sha, err := repo.Resolve(ctx, o.sha)
	if err != nil {
		return failf(2, "review check: --sha in %s: %w", o.repoDir, err)
	}
	res, err := checkReview(ctx, repo, sha, string(raw), o.paths)
	if err != nil {
		return failf(2, "review check: %w", err)
	}
	rep := newReviewReport(file, res)
	switch o.format {
	case formatJSON:
		err = writeEvidenceJSON(s.out, rep)
	case formatSARIF:
		err = writeReviewSARIF(s, rep)
	default:
		err = writeReviewText(s.out, rep)
	}
	if err != nil {
		return failf(2, "review check: %w", err)
	}
	if !rep.Valid {
		return exitCode(1)
	}
	return nil
}

// writeReviewSARIF prints rep's problems as SARIF, at the review file
// relative to the repository holding it.
func writeReviewSARIF(s streams, rep reviewReport) error {
	dir := filepath.Dir(rep.File)
	root := repoRoot(dir)
	check := sarifCheck{tool: "aepgate review check", category: sarifCategory("review-check", root, dir), rules: reviewRuleDocs}
	return writeSARIF(s.out, check, s.version, root, reviewSARIF(rep))
}
