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

func newLedgerVerifyCmd(s streams) *cobra.Command {
	database := "sqlite:aepgate.db"
	if v, ok := os.LookupEnv("AEPGATE_DATABASE"); ok {
		database = v
	}
	cmd := &cobra.Command{
		Use:   "verify",
		Short: "Check the ledger's hash chain",
		Long: `verify walks the ledger in order and checks that every row carries the
SHA-256 of the row before it and that its own hash matches its content.
It prints the newest row's hash (the head): keep it elsewhere, and a later
run showing a different chain up to that row, or a shorter one, reveals
rows cut off or rewritten.
Exit codes: 0 intact; 1 broken (the first bad row is named); 2 when the
database cannot be read.`,
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
			if !res.OK() {
				fmt.Fprintf(s.out, "ledger broken at row %d: %s (%d rows read)\n", res.BadSeq, res.Problem, res.Rows)
				return exitCode(1)
			}
			fmt.Fprintf(s.out, "ledger intact: %d rows, head %s\n", res.Rows, res.Head)
			return nil
		},
	}
	cmd.Flags().StringVar(&database, "database", database, "database: sqlite:PATH or postgres://… (default from AEPGATE_DATABASE)")
	return cmd
}
