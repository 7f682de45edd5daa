package cli

import (
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/aepgate/aepgate/internal/store"
)

func newLedgerCmd(s streams) *cobra.Command {
	return group(&cobra.Command{
		Use:   "ledger",
		Short: "Inspect the App's append-only, hash-chained decision ledger",
	}, newLedgerVerifyCmd(s))
}

// ledgerVerifyLong is the command's --help.
var ledgerVerifyLong = `verify walks the ledger in order and checks that every row carries the
SHA-256 of the row before it and that its own hash matches its content.
It prints the newest row's hash (the head): keep it elsewhere, and a later
run showing a different chain up to that row, or a shorter one, reveals
rows cut off or rewritten. --format json prints {intact, rows, head,
bad_row, problem}.

Exit codes: 0 intact; 1 broken (the first bad row is named); 2 when the
database cannot be read.`

func newLedgerVerifyCmd(s streams) *cobra.Command {
	database := "sqlite:aepgate.db"
	if v, ok := os.LookupEnv("AEPGATE_DATABASE"); ok {
		database = v
	}
	var format string
	cmd := &cobra.Command{
		Use:   "verify",
		Short: "Check the ledger's hash chain",
		Long:  ledgerVerifyLong,
		Example: `  aepgate ledger verify --database sqlite:/data/aepgate.db
  AEPGATE_DATABASE=postgres://aepgate@db/aepgate aepgate ledger verify --format json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if path, ok := strings.CutPrefix(database, "sqlite:"); ok {
				path = strings.TrimPrefix(path, "//")
				if _, err := os.Stat(path); err != nil {
					return failf(2, "ledger verify: no database at %s: %v", path, err)
				}
			}
			db, err := store.Open(cmd.Context(), database)
			if err != nil {
				return failf(2, "%v", err)
			}
			defer db.Close()
			res, err := db.VerifyLedger(cmd.Context())
			if err != nil {
				return failf(2, "%v", err)
			}
			if format == formatJSON {
				writeJSON(s.out, map[string]any{"intact": res.OK(), "rows": res.Rows, "head": res.Head, "bad_row": res.BadSeq, "problem": res.Problem})
			}
			if !res.OK() {
				if format == formatText {
					fmt.Fprintf(s.out, "ledger broken at row %d: %s (%d rows read)\n", res.BadSeq, res.Problem, res.Rows)
				}
				return exitCode(exitFindings)
			}
			if format == formatText {
				fmt.Fprintf(s.out, "ledger intact: %d rows, head %s\n", res.Rows, res.Head)
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&database, "database", database, "database: sqlite:PATH or postgres://… (default from AEPGATE_DATABASE)")
	addFormat(cmd, &format)
	return cmd
}
