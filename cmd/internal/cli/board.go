package cli

import (
	"fmt"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"github.com/aepgate/aepgate/internal/boardweb"
	"github.com/aepgate/aepgate/protocol/status"
)

func newBoardCmd(s streams) *cobra.Command {
	var out, format string
	cmd := &cobra.Command{
		Use:   "board <dir>",
		Short: "Draw a run's status as a self-contained HTML board (the picture of 'aepgate status')",
		Long: `board renders what 'aepgate status <dir>' shows as one HTML file: a graph of the
run in which each phase's tasks lead to its gates and each gate to the next
phase, coloured by effective state, and a table per phase with every item's
state, report, verdict and executor. The file has inline CSS, no script and
no external resource: open it in any browser, attach it, or publish it.

It is the local face of the owner's board (docs/board.md); a team running the
aepgate App sees the same picture for every repository at the App's /board
page.

The file is written to --out, board.html in the working directory by
default (never into the run folder, which is part of the checkout); --out -
writes it to standard output. The file is replaced whole, never left
half-written. --format json prints {wrote} (the path) instead of the line
"wrote  <path>"; it cannot be combined with --out -.

Exit codes: 0 the board was written; 2 the compliance log is missing or
unreadable, or the file could not be written.`,
		Example: "  aepgate board docs/my-run\n  aepgate board docs/my-run --out /tmp/status.html\n  aepgate board docs/my-run --out - > board.html",
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runBoard(s, args[0], out, format, time.Now())
		},
	}
	cmd.Flags().StringVar(&out, "out", "board.html", "file to write (default board.html in the working directory; - for standard output)")
	addFormat(cmd, &format)
	return cmd
}

// runBoard renders dir's status as HTML made at now and writes it to out.
func runBoard(s streams, dir, out, format string, now time.Time) error {
	if out == "-" && format == formatJSON {
		return failf(exitUsage, "board: --format json prints the path written; it cannot be combined with --out -")
	}
	run, err := loadForStatus(dir)
	if err != nil {
		return err
	}
	title := "Board of " + filepath.Base(filepath.Clean(dir))
	html, err := boardweb.RenderStatusBoard(title, status.Compute(run, dir), now)
	if err != nil {
		return failf(2, "%v", err)
	}
	if out == "-" {
		if _, err := s.out.Write(html); err != nil {
			return failf(2, "write the board: %v", err)
		}
		return nil
	}
	if out == "" {
		return failf(exitUsage, "board: --out is empty; name a file, or - for standard output")
	}
	if err := writeAtomic(out, html); err != nil {
		return failf(exitUsage, "write %s: %v", shown(out), err)
	}
	if format == formatJSON {
		return writeJSON(s.out, map[string]string{"wrote": out})
	}
	fmt.Fprintf(s.out, "wrote  %s\n", shown(out))
	return nil
}
