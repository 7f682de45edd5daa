package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/aepgate/aepgate/action"
	"github.com/aepgate/aepgate/internal/gh"
)

// newActionCmd is `aepgate action`, the GitHub Action's entry point.
func newActionCmd(s streams) *cobra.Command {
	var format string
	cmd := &cobra.Command{
		Use:   "action",
		Short: "Run as the GitHub Action: report lint, status, negative controls and the worker report as check runs",
		Long:  actionLong(),
		Example: `  # in a workflow step (action.yml does this):
  INPUT_CHECKS=lint,status INPUT_TOKEN=$GITHUB_TOKEN aepgate action
  # locally, against a checkout, with the results as workflow commands:
  GITHUB_WORKSPACE=$PWD GITHUB_EVENT_NAME=push INPUT_DIR=docs/my-run aepgate action --format json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			code, err := action.Run(cmd.Context(), action.Options{
				Getenv: os.Getenv, Stdout: s.out,
				GitHub: action.NewConnector(gh.ActionClientOptions{WritePause: gh.DefaultWritePause}),
			})
			if code == exitFindings {
				code = networkCode(err, code)
			}
			if format == formatJSON {
				writeActionJSON(s, code, err)
			}
			if err != nil {
				return failf(code, "%v", err)
			}
			return exitCode(code)
		},
	}
	addFormat(cmd, &format)
	return cmd
}

// writeActionJSON ends the step's log with one line of JSON: the exit
// code and the error that ended the step, if any.
func writeActionJSON(s streams, code int, err error) {
	v := map[string]any{"exit_code": code}
	if err != nil {
		v["error"] = err.Error()
	}
	b, _ := json.Marshal(v)
	fmt.Fprintf(s.out, "%s\n", b)
}

// actionChecks is the INPUT_CHECKS paragraph and the check-run list of
// --help, from the Action's own table (action.Checks).
func actionChecks() (names, runs string) {
	var n, r []string
	for _, c := range action.Checks() {
		n = append(n, c.Input)
		r = append(r, fmt.Sprintf("  %-22s (%s) %s", c.Run, c.Input, c.When))
	}
	return strings.Join(n, ", "), strings.Join(r, "\n")
}

// actionLong is aepgate action's --help.
func actionLong() string {
	names, runs := actionChecks()
	return fmt.Sprintf(actionLongText, names, runs)
}

// actionLongText is `aepgate action --help`'s text: %[1]s the check
// names, %[2]s when each runs.
const actionLongText = `Run as the GitHub Action (action.yml runs this on the runner host).

Inputs come from INPUT_* variables, as a workflow step's "with:" values:
  INPUT_DIR      run folders, relative to the repository root; several
                 separated by newlines or commas; globs allowed ("docs/*",
                 "docs/**"); default: run_documents from the config
  INPUT_CHECKS   comma-separated, of: %[1]s;
                 default: all that apply (below)
  INPUT_CONFIG   config file, default .github/aepgate.yml (on pull requests it
                 is read from the base commit when a token is given)
  INPUT_TOKEN    token that writes check runs (checks: write); without one, or
                 when GitHub answers 403, results go to workflow annotations
                 and the job summary instead
  INPUT_MEMBERS-TOKEN
                 verdicts check: a token that reads the members of the
                 auditors' teams (read:org, or an App's members: read);
                 a workflow's GITHUB_TOKEN cannot; default: INPUT_TOKEN
  INPUT_FAIL-ON  error (default: exit 1 when a check fails) or never
  INPUT_TAG      release check: the tag (vX.Y.Z); default: the release event's
                 tag_name, or the pushed tag
  INPUT_ASSETS   release check: assets to download and hash (newlines/commas)
  INPUT_MANIFEST release check: the manifest's path, default manifest.sha256
  INPUT_RERUN    plans check: "true" re-runs the recorded verification
                 commands that the base's progress.json lists in
                 verify_commands
  INPUT_VERIFY   "rerun" re-runs every DONE task's **Verify:** command of the
                 run folders, isolated, and publishes aep/verify (only under
                 pull_request and push)

Check runs, by INPUT_CHECKS name, and when each runs by default (on the pull
request's head; GITHUB_SHA on other events):
%[2]s

The event and repository come from GITHUB_* variables and GITHUB_EVENT_PATH.
Outputs (written to $GITHUB_OUTPUT with a random delimiter): conclusion
(success, failure or neutral), problems (a count), status-json (a JSON array,
one entry per run folder). The job summary goes to $GITHUB_STEP_SUMMARY.
--format json ends the log with one line of JSON: {exit_code, error}.

The workspace must be the commit judged: when a check reads it, its git HEAD
must be the pull request's head (GITHUB_SHA on other events) or GitHub's
merge commit whose second parent is the head. Otherwise every check run on
that commit fails, naming both SHAs, and the step exits 2.

Under pull_request_target no command the pull request controls runs: the
negative controls and the plans re-run fail saying why; lint, status, the
report and the plans rules still run. Every command the step starts gets its
environment without INPUT_TOKEN, GITHUB_TOKEN, GITHUB_ENTERPRISE_TOKEN,
ACTIONS_* and GH_* variables.

Exit codes: 0 all checks passed (or fail-on is never); 1 a check failed or
GitHub refused a write; 2 a bad input, event or config, or a workspace that
is not the commit judged; 3 GitHub unreachable (a write or read got no
answer); 130 interrupted.`
