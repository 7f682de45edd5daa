package cli

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/aepgate/aepgate/internal/readfile"
	"github.com/aepgate/aepgate/protocol/gate"
)

func newGateCmd(s streams) *cobra.Command {
	return group(&cobra.Command{
		Use:   "gate",
		Short: "Evaluate owner gates and HOLD offline",
		Long: `Owner gates are decisions only the project's owner may make. These commands
evaluate gate events (the same events the App derives from owner comments)
without talking to GitHub. The events file format is described in
docs/evidence.md.`,
	}, newGateEvalCmd(s))
}

// gateEvalReport is what gate eval prints: the decision, what each event
// did, and the gates that resulted.
type gateEvalReport struct {
	gate.Decision
	Events []gate.Outcome `json:"events"`
	Gates  []gate.Gate    `json:"gates"`
}

func newGateEvalCmd(s streams) *cobra.Command {
	var req gate.Request
	var format string
	cmd := &cobra.Command{
		Use:   "eval <events.json> --action ACTION [flags]",
		Short: "Decide whether an action may proceed, given gate events",
		Long: `Replays the create/hold/resolve/resume events in <events.json> (in time order)
("-" reads standard input) and decides whether ACTION may proceed for UNIT.
Prints
{allowed, project, workUnit, action, externalEffect, authoritySource,
blockers, authorityRefusals, events, gates} as JSON (--format text: allowed,
or refused and the blocker tokens) and explains each blocker and refused
event on stderr.

Fails closed: an event that cannot be read blocks every action, and a gate
the owner answered with HOLD or its safe default keeps blocking.

` + inputLimits("<events.json>", readfile.Events) + `; a named pipe or a
device is refused (pipe a stream to "-" instead).

Exit codes: 0 allowed; 4 refused; 2 bad input (unreadable or too large
file, not the events format, unknown action); 130 interrupted.`,
		Example: `  aepgate gate eval gate-events.json --action merge --work-unit WU-3
  aepgate gate eval - --action deploy --external-effect publish-release --format text < events.json`,
		Args: cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			return gateEval(c.Context(), s, args[0], req, format)
		},
	}
	f := cmd.Flags()
	f.StringVar(&req.Action, "action", "", "action to decide: spawn, implement, merge, close, deploy, credential, spend or irreversible (required)")
	f.StringVar(&req.WorkUnit, "work-unit", "", "work unit the action is for (omit for an operation on no particular unit)")
	f.StringVar(&req.ExternalEffect, "external-effect", "", "external effect the action has (e.g. publish-release); requires a resolved direct-owner gate for it")
	f.StringVar(&req.AuthoritySource, "authority-source", gate.AuthorityDirectOwner, "authority claimed: direct-owner, plan-derived or standing-authority")
	addFormatJSONFirst(cmd, &format)
	_ = cmd.MarkFlagRequired("action")
	return cmd
}

func gateEval(ctx context.Context, s streams, path string, req gate.Request, format string) error {
	raw, err := readInput(ctx, s.in, path, readfile.Events)
	if err != nil {
		return readFailed("gate eval", err)
	}
	log, err := gate.ParseLog(raw)
	if err != nil {
		return failf(2, "gate eval: %s: %w", shown(path), err)
	}
	d, st, err := gate.Evaluate(log, req)
	if err != nil {
		return failf(2, "gate eval: %w", err)
	}
	explainGates(s.err, d, st)
	if err := writeGateReport(s.out, format, gateEvalReport{Decision: d, Events: st.Outcomes, Gates: st.Gates}); err != nil {
		return failf(exitUsage, "gate eval: %w", err)
	}
	if !d.Allowed {
		return exitCode(exitRefused)
	}
	return nil
}

// writeGateReport prints the report: JSON, or a line (allowed, or
// refused with the blocker tokens).
func writeGateReport(w io.Writer, format string, rep gateEvalReport) error {
	if format == formatJSON {
		return writeEvidenceJSON(w, rep)
	}
	if rep.Allowed {
		_, err := fmt.Fprintf(w, "%s: allowed\n", rep.Action)
		return err
	}
	tokens := make([]string, len(rep.Blockers))
	for i, b := range rep.Blockers {
		tokens[i] = b.Token
	}
	_, err := fmt.Fprintf(w, "%s: refused: %s\n", rep.Action, strings.Join(tokens, ", "))
	return err
}

func explainGates(w io.Writer, d gate.Decision, st gate.State) {
	for _, o := range st.Outcomes {
		if o.Result == gate.ResultRefused || o.Result == gate.ResultMalformed {
			fmt.Fprintf(w, "event %d (%s): %s: %s\n", o.Index, o.Type, o.Token, o.Message)
		}
	}
	for _, b := range d.Blockers {
		fmt.Fprintf(w, "blocked: %s: %s\n", b.Token, b.Reason)
	}
	for _, e := range d.Explanations {
		fmt.Fprintf(w, "refused: %s\n", e)
	}
}
