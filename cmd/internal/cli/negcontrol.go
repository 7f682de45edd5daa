package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strconv"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/aepgate/aepgate/internal/isolate"
	"github.com/aepgate/aepgate/protocol/config"
	"github.com/aepgate/aepgate/protocol/negcontrol"
)

// negcontrolOptions are the flags of aepgate negcontrol.
type negcontrolOptions struct {
	test, file, brk, restore, expect string
	timeout                          string
	all                              bool
	configPath, root, format         string
	jobs                             int
}

const negcontrolLong = `Run a negative control: back up the protected file, break the protection,
run the test and watch it FAIL, restore the protection (the file is verified
byte for byte and copied back from the backup if needed), run the test again
and watch it PASS. The transcript printed on stdout is paste-ready evidence
for a compliance log's **Verify output:** fence.

Each command runs through /bin/sh in its own process group, with stdout and
stderr merged. On a timeout the whole group is killed (grandchildren too) and
the command reports exit 124; when a command exits normally, what it left
running in its group is killed too. SIGINT/SIGTERM stop the run after
restoring the file. A process that leaves the group on purpose (setsid)
survives all of this; aepgate stops reading its output 2 s after the command
ended. The commands get aepgate's
environment without INPUT_TOKEN, GITHUB_TOKEN, GITHUB_ENTERPRISE_TOKEN,
ACTIONS_* and GH_* variables, so a test cannot read a token from it.

Modes: --file + --break-cmd; --file + --break-cmd + --restore-cmd;
--break-cmd + --restore-cmd; --restore-cmd alone (you applied the break by
hand before the run).

With --all, every control declared under negative_controls: in the repository
config runs in its own isolated copy of the working tree (a git worktree at
HEAD plus uncommitted and untracked, not ignored, files; a plain copy outside
git), up to --jobs at a time. The original tree is never modified.

--format json prints the result as one JSON object instead of the
transcript.

Exit codes: 0 verified; 1 a control failed; 2 usage or config error;
130 interrupted (after restoring).`

func newNegcontrolCmd(s streams) *cobra.Command {
	var o negcontrolOptions
	cmd := &cobra.Command{
		Use: "negcontrol --test-cmd CMD [--file PATH] [--break-cmd CMD] [--restore-cmd CMD] [--expect RE] [--timeout DURATION]\n" +
			"  aepgate negcontrol --all [--config PATH] [--jobs N] [--format text|json]",
		Short: "Watch a test fail without its protection and pass with it",
		Long:  negcontrolLong,
		Example: `  aepgate negcontrol --file internal/auth/guard.go \
    --break-cmd "sed -i 's/return false/return true/' internal/auth/guard.go" \
    --test-cmd "go test ./internal/auth/" --expect 'TestGuard' --timeout 2m
  aepgate negcontrol --all --jobs 4 --format json`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error { return o.run(c, s) },
	}
	f := cmd.Flags()
	f.StringVar(&o.test, "test-cmd", "", "shell command that must FAIL without the protection and PASS with it (required without --all)")
	f.StringVar(&o.file, "file", "", "file to back up before the break and restore byte for byte afterwards")
	f.StringVar(&o.brk, "break-cmd", "", "shell command that removes the protection")
	f.StringVar(&o.restore, "restore-cmd", "", "shell command that restores the protection (with --file, the backup is still used if the file differs)")
	f.StringVar(&o.expect, "expect", "", "RE2 regular expression, multi-line mode ((?m): ^ and $ match at line breaks), that the failing output must contain; no lookarounds or back-references")
	f.StringVar(&o.timeout, "timeout", "", `how long each command may run before its process group is killed (exit 124): a Go duration ("90s", "2m") or a number of seconds ("120"), as in the config; default: no limit`)
	f.BoolVar(&o.all, "all", false, "run every control declared under negative_controls: in the repository config, each in an isolated copy of the tree")
	f.StringVar(&o.configPath, "config", "", "with --all: the repository config (default: <repository root>/"+config.DefaultPath+")")
	f.StringVar(&o.root, "root", "", "with --all: the directory the declared paths are relative to (default: the git top-level, or the current directory)")
	f.IntVar(&o.jobs, "jobs", 0, "with --all: how many controls run at once (default: the number of CPUs)")
	addFormat(cmd, &o.format)
	return cmd
}

func (o *negcontrolOptions) run(c *cobra.Command, s streams) error {
	if o.all {
		return o.runAll(c, s)
	}
	for _, name := range []string{"config", "root", "jobs"} {
		if c.Flags().Changed(name) {
			return failf(2, "--%s needs --all", name)
		}
	}
	if o.test == "" {
		return failf(2, "--test-cmd is required (or --all to run the declared controls) (see 'aepgate negcontrol --help')")
	}
	timeout, err := timeoutFlag(c, o.timeout)
	if err != nil {
		return err
	}
	res := negcontrol.Run(c.Context(), negcontrol.Spec{Test: o.test, File: o.file, Break: o.brk,
		Restore: o.restore, Expect: o.expect, Timeout: timeout, Env: isolate.Env(c.Context(), ".")})
	if res.Err != nil {
		return failf(2, "%v", res.Err)
	}
	for _, n := range res.Notices {
		if n != "Backup kept at "+res.BackupKept {
			fmt.Fprintln(s.err, n)
		}
	}
	if o.format == "json" {
		ncWriteJSON(s.out, ncControlJSON(res))
	} else {
		fmt.Fprint(s.out, res.Transcript)
	}
	if res.BackupKept != "" {
		fmt.Fprintln(s.err, "Backup kept at "+res.BackupKept)
	}
	return exitCode(res.ExitCode())
}

// timeoutFlag converts --timeout to a duration: a Go duration ("2m") or a
// number of seconds ("120", "0.5"), as the config's timeout: accepts. An
// explicit value must be above 0 and at most config.MaxTimeout.
func timeoutFlag(c *cobra.Command, v string) (time.Duration, error) {
	if !c.Flags().Changed("timeout") {
		return 0, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil {
		secs, ferr := strconv.ParseFloat(v, 64)
		if ferr != nil || math.IsNaN(secs) || math.IsInf(secs, 0) || secs > config.MaxTimeout.Seconds() {
			return 0, failf(2, "--timeout must be a Go duration like 90s or 2m, or a number of seconds, above 0 and at most %s, not %q", config.MaxTimeout, v)
		}
		d = time.Duration(secs * float64(time.Second))
	}
	if d <= 0 || d > config.MaxTimeout {
		return 0, failf(2, "--timeout must be above 0 and at most %s, not %q", config.MaxTimeout, v)
	}
	return d, nil
}

// runAll runs the declared controls in isolated copies of the tree.
func (o *negcontrolOptions) runAll(c *cobra.Command, s streams) error {
	for _, name := range []string{"test-cmd", "file", "break-cmd", "restore-cmd", "expect", "timeout"} {
		if c.Flags().Changed(name) {
			return failf(2, "--%s cannot be combined with --all, which runs the controls declared in the config", name)
		}
	}
	if o.jobs < 0 {
		return failf(2, "--jobs must be 0 (the number of CPUs) or more, not %d", o.jobs)
	}
	ctx := c.Context()
	root := o.root
	if root == "" {
		root = cfgRepoRoot(ctx)
	}
	path := o.configPath
	if path == "" {
		path = filepath.Join(root, config.DefaultPath)
	}
	cfg, err := cfgLoad(ctx, path, s.err)
	if err != nil {
		return err
	}
	shown := cfgDisplayPath(root, path)
	if len(cfg.NegativeControls) == 0 {
		fmt.Fprintf(s.out, "%s declares no negative_controls; nothing to run.\n", shown)
		return nil
	}
	results, err := isolate.RunAll(ctx, root, cfg.NegativeControls, isolate.Options{Jobs: o.jobs})
	if err != nil {
		return failf(2, "%v", err)
	}
	for _, r := range results {
		for _, n := range r.Notices {
			fmt.Fprintf(s.err, "%s: %s\n", r.Name, n)
		}
	}
	if o.format == "json" {
		ncWriteJSON(s.out, ncAllJSON{Config: shown, OK: ncAllOK(results), Controls: ncControlsJSON(results)})
	} else {
		ncWriteSummary(s.out, results)
	}
	return exitCode(ncExit(results))
}

// ncStatus is a result's one-word verdict for the summary table.
func ncStatus(r negcontrol.Result) string {
	switch {
	case r.Err != nil:
		return "ERROR"
	case r.OK:
		return "OK"
	case r.Interrupted:
		return "INTERRUPTED"
	}
	return "FAIL"
}

// ncExit is the exit code of a --all run: 130 if interrupted, 2 if a
// control could not run (a declared file missing), 1 if one failed.
func ncExit(results []negcontrol.Result) int {
	var interrupted, errored, failed bool
	for _, r := range results {
		switch r.ExitCode() {
		case negcontrol.ExitInterrupted:
			interrupted = true
		case 2:
			errored = true
		case 1:
			failed = true
		}
	}
	switch {
	case interrupted:
		return negcontrol.ExitInterrupted
	case errored:
		return 2
	case failed:
		return 1
	}
	return 0
}

func ncAllOK(results []negcontrol.Result) bool { return ncExit(results) == 0 }

// ncWriteSummary prints the table, then each control's transcript.
func ncWriteSummary(w io.Writer, results []negcontrol.Result) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "control\tverdict\tseconds")
	ok := 0
	for _, r := range results {
		fmt.Fprintf(tw, "%s\t%s\t%.2f\n", r.Name, ncStatus(r), r.Seconds)
		if r.OK {
			ok++
		}
	}
	tw.Flush()
	fmt.Fprintf(w, "\n%d of %d controls verified.\n", ok, len(results))
	for _, r := range results {
		fmt.Fprintf(w, "\n== %s: %s\n", r.Name, ncStatus(r))
		if r.Err != nil {
			fmt.Fprintf(w, "error: %v\n", r.Err)
			continue
		}
		fmt.Fprint(w, r.Transcript)
	}
}

// ncResultJSON is one control in --format json output.
type ncResultJSON struct {
	Status string `json:"status"`
	Error  string `json:"error,omitempty"`
	negcontrol.Result
}

// ncAllJSON is the --all --format json document.
type ncAllJSON struct {
	Config   string         `json:"config"`
	OK       bool           `json:"ok"`
	Controls []ncResultJSON `json:"controls"`
}

func ncControlJSON(r negcontrol.Result) ncResultJSON {
	j := ncResultJSON{Status: ncStatus(r), Result: r}
	if r.Err != nil {
		j.Error = r.Err.Error()
	}
	return j
}

func ncControlsJSON(results []negcontrol.Result) []ncResultJSON {
	out := make([]ncResultJSON, len(results))
	for i, r := range results {
		out[i] = ncControlJSON(r)
	}
	return out
}

func ncWriteJSON(w io.Writer, v any) {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
}
