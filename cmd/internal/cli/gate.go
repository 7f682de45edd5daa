package cli

import (
	"context"
	"fmt"
	"io"

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
	cmd := &cobra.Command{
		Use:   "eval <events.json> --action ACTION [flags]",
		Short: "Decide whether an action may proceed, given gate events",
		Long: `Replays the create/hold/resolve/resume events in <events.json> (in time order)
("-" reads standard input) and decides whether ACTION may proceed for UNIT.
Prints
{allowed, project, workUnit, action, externalEffect, authoritySource,
blockers, authorityRefusals, events, gates} as JSON and explains each blocker
and refused event on stderr.

Fails closed: an event that cannot be read blocks every action, and a gate
the owner answered with HOLD or its safe default keeps blocking.

` + inputLimits("<events.json>", readfile.Events) + `; a named pipe or a
device is refused (pipe a stream to "-" instead).

Exit codes: 0 allowed; 4 refused; 2 bad input (unreadable or too large
file, not the events format, unknown action); 130 interrupted.`,
		Args: cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			return gateEval(c.Context(), s, args[0], req)
		},
	}
	f := cmd.Flags()
	f.StringVar(&req.Action, "action", "", "action to decide: spawn, implement, merge, close, deploy, credential, spend or irreversible (required)")
	f.StringVar(&req.WorkUnit, "work-unit", "", "work unit the action is for (omit for an operation on no particular unit)")
	f.StringVar(&req.ExternalEffect, "external-effect", "", "external effect the action has (e.g. publish-release); requires a resolved direct-owner gate for it")
	f.StringVar(&req.AuthoritySource, "authority-source", gate.AuthorityDirectOwner, "authority claimed: direct-owner, plan-derived or standing-authority")
	_ = cmd.MarkFlagRequired("action")
	return cmd
}

func gateEval(ctx context.Context, s streams, path string, req gate.Request) error {
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
	if err := writeEvidenceJSON(s.out, gateEvalReport{Decision: d, Events: st.Outcomes, Gates: st.Gates}); err != nil {
		return failf(2, "gate eval: %w", err)
	}
	if !d.Allowed {
		return exitCode(4)
	}
	return nil
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
