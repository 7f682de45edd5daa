package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/aepgate/aepgate/internal/rundir"
	"github.com/aepgate/aepgate/protocol/rundoc"
	"github.com/aepgate/aepgate/protocol/status"
)

func newStatusCmd(s streams) *cobra.Command {
	var format string
	cmd := &cobra.Command{
		Use:   "status <dir>",
		Short: "Show the effective state of every task and gate in a run's compliance log",
		Long: `status combines the status board and the report headings of <dir>/compliance-log.md
into one effective state per ID: a verdict (APPROVED, CONDITIONAL, REJECTED),
CONFLICT when the board and the last verdict heading disagree, AWAITING AUDIT for
a DONE report without a verdict, or the report word. Only APPROVED closes an item.

Agents that write these documents: 'aepgate install-skill' installs short
instructions for executors, auditors and coordinators.

Exit codes: 0 whenever the log exists (findings never change it); 2 when it
is missing or unreadable.`,
		Example: "  aepgate status docs/my-run\n  aepgate status docs/my-run --format json",
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runStatus(s, args[0], format == formatJSON)
		},
	}
	addFormat(cmd, &format)
	cmd.Flags().Lookup("format").Usage = "output format: text, or json (items with phase, state, verdict, report; phases with titles and weights; counts; open IDs)"
	addJSONAlias(cmd, &format)
	return cmd
}

func runStatus(s streams, dir string, asJSON bool) error {
	run, err := loadForStatus(dir)
	if err != nil {
		return err
	}
	warnOutside(s, dir)
	warnUnclosed(s, dir, run.Log.File, run.Log.Unclosed)
	rep := status.Compute(run, dir)
	if !asJSON {
		fmt.Fprint(s.out, rep.Text())
		return nil
	}
	if err := rep.WriteJSON(s.out); err != nil {
		return failf(2, "encode status: %v", err)
	}
	return nil
}

// writeJSON writes v as indented JSON without HTML escaping (placeholders
// such as <phase name> stay readable).
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// loadForStatus reads the run in dir as status (and board) need it: the
// log is required, the guide optional (it only adds phase titles). Its
// error is the command's (exit 2).
func loadForStatus(dir string) (*rundoc.Run, error) {
	run, err := rundir.LoadForStatus(dir)
	var missing *rundir.MissingError
	switch {
	case errors.As(err, &missing) && missing.Has(rundoc.LogFile):
		return nil, failf(2, "%s not found.", shown(filepath.Join(dir, rundoc.LogFile)))
	case errors.As(err, &missing):
	case err != nil:
		return nil, failf(2, "%v", err)
	}
	return run, nil
}
